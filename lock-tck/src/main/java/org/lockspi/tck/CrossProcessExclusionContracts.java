package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.support.TempDir;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.process.HolderMain;

/**
 * §10 Cross-process exclusion: separate JVM processes exclude each other as separate services in one JVM do.
 * Each participant runs {@link HolderMain#guardedIncrement(Path)} under the lock, which notices a second holder
 * inside the critical section through a marker file and counts every pass.
 */
public interface CrossProcessExclusionContracts extends TckContext {

    @Test
    @Timeout(180)
    @DisplayName("§10.1 mutex: two other JVMs and this one never hold it at once, and every pass is counted")
    default void mutexExcludesAcrossProcesses() throws IOException, InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        hammerAcrossProcesses("mutex", 2, 15);
    }

    @Test
    @Timeout(180)
    @DisplayName("§10.2 non-reentrant mutex: another JVM and this one never hold it at once, and every pass is "
            + "counted")
    default void nonReentrantMutexExcludesAcrossProcesses() throws IOException, InterruptedException {
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        hammerAcrossProcesses("non-reentrant", 1, 15);
    }

    private void hammerAcrossProcesses(String kind, int children, int passes)
            throws IOException, InterruptedException {
        String name = uniqueName("cross-process");
        try (TempDir dir = TempDir.create(); ChildJvm.Group jvms = new ChildJvm.Group()) {
            for (int i = 0; i < children; i++) {
                jvms.start(HolderMain.class, "hammer", clientUri(), provider().name(), name, kind,
                        Integer.toString(passes), dir.toString());
            }
            for (ChildJvm jvm : jvms.members()) {
                assertEquals("READY", jvm.awaitLine(Duration.ofSeconds(60), "READY", "ERROR"), jvm::stderrTail);
            }
            LockService here = openClient();
            Acquirable lock = HolderMain.lock(here, name, kind);
            for (ChildJvm jvm : jvms.members()) {
                jvm.send("go");
            }
            for (int i = 0; i < passes; i++) {
                try (Lease lease = lock.acquire(Duration.ofSeconds(HolderMain.WAIT_SECONDS))) {
                    assertTrue(HolderMain.guardedIncrement(dir.path()), "another holder was inside the critical "
                            + "section while this JVM held '" + name + "' (pass " + i + ")");
                }
            }
            for (ChildJvm jvm : jvms.members()) {
                assertEquals("DONE " + passes, jvm.awaitLine(Duration.ofSeconds(120), "DONE", "OVERLAP", "ERROR"),
                        () -> "OVERLAP means two holders at once; " + jvm.stderrTail());
                assertEquals(0, jvm.awaitExit(Duration.ofSeconds(20)), jvm::stderrTail);
            }
            assertEquals((children + 1) * passes, HolderMain.count(dir.path()),
                    "passes through the critical section");
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                assertEquals(List.of(), backend().residue(name), "nothing left on the server");
            }
        }
    }
}
