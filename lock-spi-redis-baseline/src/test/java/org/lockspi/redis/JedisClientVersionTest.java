package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The Jedis on the test class path is the one the build asked for ({@code jedis.version}: the main version, or an
 * end of the supported range in the {@code redis-clients-*} profiles), so a TCK run beside it ran on that version.
 */
class JedisClientVersionTest {

    @Test
    void theJedisOnTheClassPathIsTheOneTheBuildNamed() throws IOException {
        Properties pom = new Properties();
        try (InputStream in = redis.clients.jedis.Jedis.class.getResourceAsStream(
                "/META-INF/maven/redis.clients/jedis/pom.properties")) {
            pom.load(in);
        }
        String expected = System.getProperty("lockspi.expected.jedis");
        System.out.println("Jedis on the class path: " + pom.getProperty("version"));
        assertEquals(expected, pom.getProperty("version"));
    }
}
