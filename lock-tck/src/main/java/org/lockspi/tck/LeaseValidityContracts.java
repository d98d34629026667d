package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.StateRecorder;

/**
 * §17 Lease validity: {@link Lease#validFor()} and {@link Lease#checkValid()} say the truth while held and after a
 * loss, and {@code release()} and {@code close()} return within the provider's release bound while the server is
 * down, leaving nothing on the server once it is back.
 */
public interface LeaseValidityContracts extends TckContext {

    /**
     * The provider's documented bound on {@code release()} and {@code close()} during an outage (the ZooKeeper
     * providers: {@code min(connectTimeout, sessionTimeout / 2)}). §17.3 allows it plus {@link Checks#BOUND}.
     *
     * @return the bound; by default half the crash-release bound
     */
    default Duration releaseBound() {
        return crashReleaseBound().dividedBy(2);
    }

    @Test
    @DisplayName("§17.1 mutex: while HELD, validFor() is positive and checkValid() passes")
    default void heldLeaseIsValid() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        try (Lease lease = openClient().mutex(uniqueName("valid")).acquire(Duration.ofSeconds(10))) {
            assertEquals(LeaseState.HELD, lease.state());
            Duration left = lease.validFor();
            assertTrue(left.compareTo(Duration.ZERO) > 0, "validFor() of a HELD lease is positive: " + left);
            lease.checkValid();
        }
    }

    @Test
    @Timeout(60)
    @DisplayName("§17.2 mutex: after forceLoss, checkValid() throws LeaseLostException naming the lock and LOST, "
            + "and validFor() is ZERO")
    default void lostLeaseIsInvalid() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.FORCE_LOSS);
        String name = uniqueName("invalid");
        Lease lease = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        backend().forceLoss(name);
        recorder.awaitChangeTo(LeaseState.LOST, crashReleaseBound());

        LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
        assertEquals(LeaseState.LOST, e.state());
        assertEquals(name, e.lockName());
        assertTrue(e.getMessage().contains(name) && e.getMessage().contains("LOST"),
                "the message names the lock and the state: " + e.getMessage());
        assertEquals(Duration.ZERO, lease.validFor());
        lease.release();
        assertThrows(LeaseLostException.class, lease::checkValid, "a released lease is not valid either");
    }

    @Test
    @Timeout(90)
    @DisplayName("§17.3 mutex: with the server down, release() and close() return within the release bound, "
            + "the leases are not HELD, and nothing is left once the server is back")
    default void releaseAndCloseAreBoundedDuringAnOutage() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.RESTART);
        String released = uniqueName("outage-release");
        String closed = uniqueName("outage-close");
        Lease lease = openClient().mutex(released).acquire(Duration.ofSeconds(10));
        LockService closing = openClient();
        Lease other = closing.mutex(closed).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        other.addListener(recorder);
        Duration bound = releaseBound().plus(Checks.BOUND);

        backend().stopServer();
        try {
            long start = System.nanoTime();
            try {
                lease.release();
            } catch (LockConnectionException documented) {
                // the server could not be told: the lease is released locally, the node deleted later
            }
            Duration releaseTook = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(releaseTook.compareTo(bound) <= 0, "release() took " + releaseTook + ", bound " + bound);
            assertEquals(LeaseState.RELEASED, lease.state());

            recorder.awaitChangeTo(LeaseState.UNCERTAIN, crashReleaseBound());
            assertNotEquals(LeaseState.HELD, other.state(), "the server is down: not HELD");
            start = System.nanoTime();
            try {
                closing.close();
            } catch (LockConnectionException documented) {
                // the server could not be told: the session or lease end frees the lock
            }
            Duration closeTook = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(closeTook.compareTo(bound) <= 0, "close() took " + closeTook + ", bound " + bound);
            assertEquals(LeaseState.RELEASED, other.state());
        } finally {
            backend().startServer();
        }
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            // the released node goes when the client reconnects, the closed client's with its session
            Duration wait = crashReleaseBound().plus(Checks.BOUND);
            Poll.until("residue of " + released, List.of(), () -> backend().residue(released), wait);
            Poll.until("residue of " + closed, List.of(), () -> backend().residue(closed), wait);
        }
    }
}
