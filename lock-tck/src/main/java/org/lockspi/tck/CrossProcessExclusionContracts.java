package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
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
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;

/**
 * §10 Cross-process exclusion: separate JVM processes exclude each other as separate services in one JVM do.
 * Each participant runs {@link HolderMain#guardedIncrement(Path)} under the lock, which notices a second holder
 * inside the critical section through a marker file and counts every pass.
 */
@Inapplicable(kinds = {READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "the other processes run HolderMain's "
        + "critical section on the mutex and the non-reentrant mutex; the other kinds' exclusion is in-process (§6.7, "
        + "§7.2) and the same server requests")
@Inapplicable(shapes = MIXED_KINDS, reason = "one kind hammers")
@Inapplicable(shapes = ONE_WAITER, reason = "a hammer queues several at once")
public interface CrossProcessExclusionContracts extends TckContext {

    /**
     * (OTHER_PROCESSES) Two child JVMs and this JVM, each with its own service, run the critical section (a marker file
     * a second holder would find, and a counter file) 15 times each under one mutex, started together. No participant
     * finds another inside, each child prints {@code DONE 15} within 120 s and exits with 0, the counter is 45, and
     * (INSPECT) nothing is left on the server.
     */
    @Test
    @Timeout(180)
    @Diagnosis("The lock's server state must be the same for every process: look for keys or paths namespaced by the "
            + "process (a pid or a per-JVM random prefix), owner ids that collide across JVMs (a counter from 1 in "
            + "each), or a provider not registered for ServiceLoader.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @CoveredBy(value = "§10.2", kinds = NON_REENTRANT_MUTEX)
    @DisplayName("§10.1 mutex: two other JVMs and this one never hold it at once, and every pass is counted")
    default void mutexExcludesAcrossProcesses() throws IOException, InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        hammerAcrossProcesses("mutex", 2, 15);
    }

    /**
     * (OTHER_PROCESSES) As §10.1 for the non-reentrant mutex, with one child JVM: no overlap, {@code DONE 15} and exit
     * 0 from the child, a counter of 30, and (INSPECT) nothing left.
     */
    @Test
    @Timeout(180)
    @Diagnosis("As §10.1, in the non-reentrant mutex's own path through LockBackend.acquire (ZooKeeper: Curator's "
            + "semaphore layout; Redis: kind N): look there for a per-process namespace or owner ids that collide "
            + "across JVMs.")
    @Covers(kinds = NON_REENTRANT_MUTEX, shapes = SEVERAL_WAITERS)
    @CoveredBy(value = "§10.1", kinds = MUTEX)
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
