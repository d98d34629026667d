package org.lockspi.tck.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.support.TempDir;

/** The child JVM that holds a lock for the cross-process contracts: its argument checks and its guard. */
class HolderMainTest {

    @Test
    void holderMainRefusesBadArguments() {
        try (ChildJvm child = ChildJvm.start(HolderMain.class, "hold", "zookeeper://127.0.0.1:1/x")) {
            assertEquals(HolderMain.EXIT_USAGE, child.awaitExit(Duration.ofSeconds(30)));
            assertTrue(child.stderrTail().contains("usage:"), child.stderrTail());
        }
    }

    @Test
    void guardedIncrementCountsAndDetectsASecondHolder() throws Exception {
        try (TempDir dir = TempDir.create()) {
            assertTrue(HolderMain.guardedIncrement(dir.path()));
            assertTrue(HolderMain.guardedIncrement(dir.path()));
            assertEquals(2, HolderMain.count(dir.path()));
            Files.createFile(dir.path().resolve(HolderMain.MARKER)); // someone else is inside
            assertFalse(HolderMain.guardedIncrement(dir.path()));
            assertEquals(2, HolderMain.count(dir.path()));
        }
    }
}
