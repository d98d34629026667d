package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.requireSomeKind;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §16.2 Recovery after a server restart: a client that lived through the restart serves its next acquisition
 * at the first try once the server is back. A connection that went stale in the restart (a pooled socket, an old
 * session's connection) is the provider's to replace, not the caller's to see as a failure.
 */
public interface RestartRecoveryContracts extends TckContext {

    /**
     * (RESTART) For every declared kind and the read half, one client each takes and releases its lock; the server
     * restarts; each client's first {@code acquire(10 s)} after the restart returns a {@code HELD} lease, with no
     * exception (the clients have {@code failFast=1m}: a first try made before the client has reconnected waits for
     * the reconnection within its deadline). (INSPECT) Nothing is left after the releases, and each client acquires and releases once more.
     */
    @Test
    @Timeout(90)
    @Diagnosis("A pooled connection broken by the restart is the provider's to replace: retry a call that failed with "
            + "a broken pipe or reset once on a fresh connection (not one that timed out), and in LockBackend.acquire "
            + "wait for the reconnection within the Deadline.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§16.2 every kind: a client that lived through a server restart acquires at its first try once "
            + "the server is back")
    default void firstAcquisitionAfterRestartSucceeds() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        requireCapability(TckBackend.Capability.RESTART);
        // One client per kind, each with a connection in use before the restart: a lock taken and released.
        Map<String, Acquirable> locks = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (Kind kind : kinds) {
            String name = uniqueName("restart-first-" + kind);
            names.put(kind.toString(), name);
            locks.put(kind.toString(), kind.of(openClient(Checks.waitingOutOutages(clientUri())), name));
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            String name = uniqueName("restart-first-read");
            names.put("read", name);
            locks.put("read", openClient(Checks.waitingOutOutages(clientUri())).readWriteLock(name).readLock());
        }
        for (Map.Entry<String, Acquirable> e : locks.entrySet()) {
            e.getValue().acquire(WAIT).release();
        }

        backend().restart();

        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, Acquirable> e : locks.entrySet()) {
            String kind = e.getKey();
            long start = System.nanoTime();
            try (Lease lease = e.getValue().acquire(WAIT)) {
                assertTrue(lease.isHeld(), kind + ": the lease acquired after the restart is not held");
            } catch (RuntimeException failure) {
                failures.add(kind + ": the first acquire(" + WAIT + ") after the restart threw " + failure + " after "
                        + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
            }
        }
        assertEquals(List.of(), failures, "a client that lived through the restart must acquire at its first try");
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            for (Map.Entry<String, String> e : names.entrySet()) {
                assertEquals(List.of(), backend().residue(e.getValue()), e.getKey() + ": state left after release");
            }
        }
        // The same clients keep serving: each lock is taken once more.
        for (Map.Entry<String, Acquirable> e : locks.entrySet()) {
            e.getValue().acquire(WAIT).release();
        }
    }
}
