package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §16 Connection suspension: while the connection is down a held lease is {@link LeaseState#UNCERTAIN}; when the
 * connection comes back within the session (the server restarted quickly) it is {@link LeaseState#HELD} again,
 * with the same server state, and its listeners saw both changes. A provider that does not declare
 * {@link LockFeature#SURVIVES_RESTART} may instead lose the lease: it turns {@link LeaseState#LOST} and stays so
 * while another client takes the lock.
 */
public interface ConnectionSuspensionContracts extends TckContext {

    /**
     * (RESTART) A client holds a mutex with a listener, and the server restarts with its data. With SURVIVES_RESTART,
     * within {@link #crashReleaseBound()} the listener sees {@code HELD->UNCERTAIN} then {@code UNCERTAIN->HELD}, and
     * nothing but such pairs; the lease is {@code HELD}, (INSPECT) the same entry is on the server, another client is
     * excluded, and nothing is left after the release. Without it, the lease may instead turn {@code LOST} for good:
     * then another client acquires within the bound, the old lease still says {@code LOST}, and (INSPECT) the new
     * holder's entry is alone.
     */
    @Test
    @Timeout(60)
    @Diagnosis("Call BackendEvents.connectionSuspended when the connection drops and connectionRestored when it "
            + "returns in the same session; a lease stuck UNCERTAIN missed the restore (or confirmedUntilNanos never "
            + "moved: call leasesConfirmed), LOST with SURVIVES_RESTART lost its session.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§16.2", kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§16.1 mutex: across a quick server restart the lease goes UNCERTAIN and back to HELD (or, without "
            + "SURVIVES_RESTART, turns LOST for good), and the listener sees it")
    default void leaseSurvivesQuickRestart() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.RESTART);
        boolean mustSurvive = provider().features().contains(LockFeature.SURVIVES_RESTART);
        String name = uniqueName("suspend");
        Lease lease = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
        List<String> before = inspect ? backend().residue(name) : List.of();

        backend().restart();
        if (mustSurvive) {
            recorder.awaitChangeTo(LeaseState.UNCERTAIN, crashReleaseBound());
            recorder.awaitChangeTo(LeaseState.HELD, crashReleaseBound());
        } else if (recorder.awaitChangeToAny(crashReleaseBound(), LeaseState.HELD, LeaseState.LOST)
                == LeaseState.LOST) {
            leaseEndedByRestart(lease, recorder, name);
            return;
        }
        List<String> changes = recorder.changes();
        assertTrue(changes.size() % 2 == 0, "as many returns to HELD as suspensions: " + changes);
        for (int i = 0; i < changes.size(); i++) {
            assertEquals(i % 2 == 0 ? "HELD->UNCERTAIN" : "UNCERTAIN->HELD", changes.get(i),
                    "suspension and return alternate, nothing else: " + changes);
        }
        assertEquals(LeaseState.HELD, lease.state());
        if (inspect) {
            assertEquals(before, backend().residue(name), "the same entry on the server");
        }
        assertTrue(openClient().mutex(name).tryAcquire().isEmpty(), "another client still cannot acquire");
        lease.release();
        if (inspect) {
            assertEquals(List.of(), backend().residue(name), "nothing left on the server");
        }
    }

    /** The restart ended the lease: it is LOST for good, and another client takes the lock within the bound. */
    private void leaseEndedByRestart(Lease lease, StateRecorder recorder, String name) throws InterruptedException {
        List<String> changes = recorder.changes();
        assertEquals(1, changes.stream().filter(c -> c.endsWith("->LOST")).count(), "one change to LOST: " + changes);
        assertTrue(changes.get(changes.size() - 1).endsWith("->LOST"), "LOST is the last change: " + changes);
        assertTrue(List.of("HELD->UNCERTAIN", "UNCERTAIN->HELD", "HELD->LOST", "UNCERTAIN->LOST").containsAll(changes),
                "only suspensions, returns and the loss: " + changes);
        Optional<Lease> next = openClient().mutex(name).tryAcquire(crashReleaseBound());
        assertTrue(next.isPresent(), "another client acquires once the lease is LOST");
        assertEquals(LeaseState.LOST, lease.state(), "the old lease never says HELD again: " + recorder.changes());
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            assertEquals(1, backend().residue(name).size(), "the server shows the new holder's entry alone: "
                    + backend().residue(name));
        }
        lease.release();
        next.get().release();
    }
}
