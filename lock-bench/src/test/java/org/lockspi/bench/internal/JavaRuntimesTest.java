package org.lockspi.bench.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the virtual-thread scenario finds a Java 21+ runtime, on fake JDK homes (a release file and bin/java). */
class JavaRuntimesTest {
    @TempDir
    Path root;

    @AfterEach
    void clear() {
        System.clearProperty(JavaRuntimes.PROPERTY);
        System.clearProperty(JavaRuntimes.ROOT_PROPERTY);
    }

    private Path home(String name, String version) throws IOException {
        Path home = root.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_RUNTIME_VERSION=\"99\"\nJAVA_VERSION=\""
                + version + "\"\n");
        Path java = home.resolve("bin").resolve("java");
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    private static boolean ownOrJavaHome21() {
        String javaHome = System.getenv("JAVA_HOME");
        return Runtime.version().feature() >= 21
                || javaHome != null && !javaHome.isBlank() && JavaRuntimes.feature(Path.of(javaHome)) >= 21;
    }

    @Test
    void featureReadsTheReleaseFile() throws IOException {
        assertEquals(25, JavaRuntimes.feature(home("a", "25.0.3")));
        assertEquals(8, JavaRuntimes.feature(home("b", "1.8.0_402")));
        assertEquals(21, JavaRuntimes.feature(home("c", "21")));
        assertEquals(-1, JavaRuntimes.feature(root.resolve("missing")));
    }

    @Test
    void theNewestUnderTheRootIsTaken() throws IOException {
        home("jdk-17", "17.0.2");
        home("jdk-21", "21.0.1");
        Path newest = home("jdk-25", "25.0.3");
        System.setProperty(JavaRuntimes.ROOT_PROPERTY, root.toString());
        assumeFalse(ownOrJavaHome21(), "this JVM or JAVA_HOME is Java 21+ and comes before the scan");
        JavaRuntimes.Found found = JavaRuntimes.find(21);
        assertEquals(newest.resolve("bin").resolve("java"), found.runtime().java());
        assertEquals(25, found.runtime().feature());
    }

    @Test
    void theConfiguredRuntimeIsUsedAndOnlyIt() throws IOException {
        Path jdk = home("jdk-22", "22.0.1");
        System.setProperty(JavaRuntimes.PROPERTY, jdk.resolve("bin").resolve("java").toString());
        JavaRuntimes.Found found = JavaRuntimes.find(21);
        assertEquals(jdk.resolve("bin").resolve("java"), found.runtime().java());
        assertNull(found.whyNone());

        System.setProperty(JavaRuntimes.PROPERTY, home("jdk-17", "17.0.2").toString());
        found = JavaRuntimes.find(21);
        assertNull(found.runtime(), "a configured runtime too old is not replaced by another");
        assertTrue(found.whyNone().contains("is not a Java 21+ runtime (release 17"), found.whyNone());
    }

    @Test
    void noRuntimeGivesTheReason() {
        assumeFalse(ownOrJavaHome21(), "this JVM or JAVA_HOME is Java 21+ and would be found");
        System.setProperty(JavaRuntimes.ROOT_PROPERTY, root.toString());
        JavaRuntimes.Found found = JavaRuntimes.find(21);
        assertNull(found.runtime());
        assertTrue(found.whyNone().startsWith("no Java 21+ runtime: this JVM is " + Runtime.version().feature()),
                found.whyNone());
    }
}
