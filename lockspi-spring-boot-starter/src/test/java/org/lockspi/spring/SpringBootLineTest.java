package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/** The starter's tests run on the Spring Boot their build names: 3.5 in the starter's, 4.0 in the Boot 4 module's. */
class SpringBootLineTest {

    @Test
    void theClassPathHoldsTheSpringBootOfTheBuild() {
        String version = SpringBootVersion.getVersion();
        assertTrue(version.startsWith(SpringBootLine.LINE), "Spring Boot " + version + ", not " + SpringBootLine.LINE);
        String expected = System.getProperty("lockspi.expectedSpringBoot"); // set by the build
        if (expected != null) {
            assertEquals(expected, version);
        }
    }
}
