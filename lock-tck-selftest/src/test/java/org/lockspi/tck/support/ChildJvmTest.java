package org.lockspi.tck.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ChildJvmTest {

    @Test
    void talksInLinesAndEndsByItself() {
        try (ChildJvm child = ChildJvm.start(EchoMain.class, "a", "b")) {
            assertEquals("UP a b", child.awaitLine(Duration.ofSeconds(30), "UP"), "skips lines of no interest");
            child.send("hello");
            assertEquals("ECHO hello", child.awaitLine(Duration.ofSeconds(10), "ECHO"));
            child.send("exit");
            assertEquals(7, child.awaitExit(Duration.ofSeconds(10)));
            AssertionError ended = assertThrows(AssertionError.class,
                    () -> child.awaitLine(Duration.ofSeconds(10), "NEVER"));
            assertTrue(ended.getMessage().contains("ended (exit 7)"), ended.getMessage());
            assertTrue(ended.getMessage().contains("something on stderr"), "quotes standard error");
        }
    }

    @Test
    void startsTheNewestRuntimeWithOptions() {
        java.util.Optional<java.nio.file.Path> runtime = ChildJvm.newestJava(17);
        assertTrue(runtime.isPresent(), "this JVM's own runtime is at least 17");
        assertFalse(ChildJvm.newestJava(10_000).isPresent(), "no runtime of release 10000");
        try (ChildJvm child = ChildJvm.start(runtime.get(), java.util.List.of("-Xmx64m"), EchoMain.class, "x")) {
            assertEquals("UP x", child.awaitLine(Duration.ofSeconds(30), "UP"));
            child.send("exit");
            assertEquals(7, child.awaitExit(Duration.ofSeconds(10)));
        }
    }

    @Test
    void killEndsItAtOnceAndCloseIsIdempotent() {
        ChildJvm child = ChildJvm.start(EchoMain.class);
        child.awaitLine(Duration.ofSeconds(30), "UP");
        AssertionError timeout = assertThrows(AssertionError.class,
                () -> child.awaitLine(Duration.ofMillis(200), "NEVER"));
        assertTrue(timeout.getMessage().contains("within PT0.2S"), timeout.getMessage());
        child.kill();
        assertFalse(child.isAlive());
        child.close();
        child.close();
    }

    @Test
    void pauseStopsEveryThreadUntilResume() {
        try (ChildJvm child = ChildJvm.start(EchoMain.class)) {
            child.awaitLine(Duration.ofSeconds(30), "UP");
            child.pause();
            child.send("while stopped");
            assertThrows(AssertionError.class, () -> child.awaitLine(Duration.ofMillis(500), "ECHO"),
                    "a stopped child answers nothing");
            child.resume();
            assertEquals("ECHO while stopped", child.awaitLine(Duration.ofSeconds(10), "ECHO"),
                    "once resumed it answers what it was sent meanwhile");
        }
    }

    @Test
    void groupClosesEveryChild() {
        ChildJvm first;
        ChildJvm second;
        try (ChildJvm.Group group = new ChildJvm.Group()) {
            first = group.start(EchoMain.class);
            second = group.start(EchoMain.class);
            first.awaitLine(Duration.ofSeconds(30), "UP");
            second.awaitLine(Duration.ofSeconds(30), "UP");
        }
        assertFalse(first.isAlive());
        assertFalse(second.isAlive());
    }
}
