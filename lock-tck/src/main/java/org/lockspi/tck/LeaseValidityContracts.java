package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.StateRecorder;

/**
 * §17 Lease validity: {@link Lease#validFor()} and {@link Lease#checkValid()} say the truth while held and after a
 * loss, and {@code release()} and {@code close()} return within the provider's release bound while the server is
 * down, leaving nothing on the server once it is back.
 */
public interface LeaseValidityContracts extends TckContext {

    /**
     * A mutex lease just acquired is {@code HELD}, its {@code validFor()} is positive and {@code checkValid()} returns.
     */
    @Test
    @Diagnosis("validFor() is the time to BackendLease.validUntilNanos(): a value already past (computed in "
            + "milliseconds, or from System.currentTimeMillis instead of System.nanoTime) makes the lease LOST at "
            + "once; Long.MAX_VALUE for a backend that tracks none is fine.")
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

    /**
     * (FORCE_LOSS) After {@code forceLoss} the lease turns {@code LOST} within {@link #crashReleaseBound()};
     * {@code checkValid()} throws {@code LeaseLostException} with {@code state()} {@code LOST}, {@code lockName()} the
     * lock's and a message naming both; {@code validFor()} is {@code ZERO}; after {@code release()},
     * {@code checkValid()} still throws.
     */
    @Test
    @Timeout(60)
    @Diagnosis("The exception and validFor() are the engine's once the lease is LOST; if it never gets there, the "
            + "loss was not reported: BackendLease.isLost() and BackendEvents.leaseLost (see §12.1).")
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

    /**
     * (RESTART) A client holds a mutex and another client holds another; the server is stopped. {@code release()} of
     * the first returns, or throws {@code LockConnectionException}, within {@link #releaseBound()} plus 2 s, the lease
     * {@code RELEASED} ({@code LOST} is accepted without SURVIVES_RESTART); the second lease leaves {@code HELD} within
     * {@link #crashReleaseBound()}, and closing its service returns within the same bound, the lease {@code RELEASED}
     * (or still {@code LOST}). Once the server is back, (INSPECT) nothing of either lock is left within the
     * crash-release bound plus 2 s.
     */
    @Test
    @Timeout(90)
    @Diagnosis("BackendLease.release and LockBackend.close must not wait for a server that is down past the release "
            + "bound (ZooKeeper: min(connectTimeout, sessionTimeout / 2)): bound the delete and the client's close, "
            + "and delete the node or key when the connection returns.")
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
        // LOST is final: a provider whose sessions die with the server may know its lease is gone before release()
        Set<LeaseState> ended = provider().features().contains(LockFeature.SURVIVES_RESTART)
                ? EnumSet.of(LeaseState.RELEASED) : EnumSet.of(LeaseState.RELEASED, LeaseState.LOST);

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
            assertTrue(ended.contains(lease.state()), "the released lease is " + ended + ": " + lease.state());

            // a lease whose session outlives the outage is UNCERTAIN; one that the provider knows is gone with
            // the server may say LOST at once
            LeaseState down = recorder.awaitChangeToAny(crashReleaseBound(), ended.contains(LeaseState.LOST)
                    ? new LeaseState[] {LeaseState.UNCERTAIN, LeaseState.LOST}
                    : new LeaseState[] {LeaseState.UNCERTAIN});
            assertNotEquals(LeaseState.HELD, other.state(), "the server is down: not HELD (" + down + " seen)");
            LeaseState beforeClose = other.state();
            start = System.nanoTime();
            try {
                closing.close();
            } catch (LockConnectionException documented) {
                // the server could not be told: the session or lease end frees the lock
            }
            Duration closeTook = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(closeTook.compareTo(bound) <= 0, "close() took " + closeTook + ", bound " + bound);
            assertEquals(beforeClose == LeaseState.LOST ? LeaseState.LOST : LeaseState.RELEASED, other.state(),
                    "closing the service releases its lease (a LOST lease stays LOST)");
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

    /**
     * (LEASE_RENEWAL) For every declared kind, a live client holds a lease while 1.25 and then 2 times the lease span
     * {@code T} ({@link #leaseSpan()}) pass: at each instant the lease is {@code HELD} (a late renewal may leave it
     * {@code UNCERTAIN} for up to 2 s) and another client's {@code tryAcquire()} is empty; no listener saw a change to
     * {@code LOST}; after the release another client acquires within 10 s.
     */
    @Test
    @Timeout(120)
    @Diagnosis("The renewal did not happen or did not reach the server's copy of the lease: look at the renewal "
            + "schedule (e.g. every leaseTime / 3), and at the keys or rows it extends for each kind, the reader and "
            + "permit sets too, not only the mutex key.")
    @DisplayName("§17.4 every kind: a live client's lease held for twice the lease span stays HELD and exclusive "
            + "(LEASE_RENEWAL)")
    default void renewedLeaseOutlivesTheLeaseSpan() throws InterruptedException {
        requireFeature(LockFeature.LEASE_RENEWAL);
        List<Kind> kinds = Checks.requireSomeKind(provider());
        LockService holder = openClient();
        LockService other = openClient();
        Map<Kind, String> names = new EnumMap<>(Kind.class);
        Map<Kind, Lease> leases = new EnumMap<>(Kind.class);
        Map<Kind, StateRecorder> recorders = new EnumMap<>(Kind.class);
        for (Kind kind : kinds) {
            names.put(kind, uniqueName("renewal-" + kind));
            Lease lease = kind.of(holder, names.get(kind)).acquire(Checks.WAIT);
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            leases.put(kind, lease);
            recorders.put(kind, recorder);
        }
        long start = System.nanoTime();
        List<String> failures = new ArrayList<>();
        for (double multiple : new double[] {1.25, 2.0}) {
            long at = start + (long) (leaseSpan().toNanos() * multiple);
            while (System.nanoTime() - at < 0) {
                Thread.sleep(20); // the scenario: time passes while the lease is held
            }
            for (Kind kind : kinds) {
                // a renewal that comes late on a loaded machine may make the lease UNCERTAIN for a moment
                LeaseState state = leases.get(kind).state();
                if (state != LeaseState.HELD) {
                    state = Poll.until(kind + " lease HELD at " + multiple + " T", LeaseState.HELD,
                            leases.get(kind)::state, Checks.BOUND);
                }
                if (kind.of(other, names.get(kind)).tryAcquire().map(l -> {
                    l.release();
                    return true;
                }).orElse(false)) {
                    failures.add(kind + ": another client acquired at " + multiple + " T while the lease was "
                            + state);
                }
            }
        }
        for (Kind kind : kinds) {
            List<String> changes = recorders.get(kind).changes();
            if (changes.stream().anyMatch(c -> c.endsWith("->LOST"))) {
                failures.add(kind + ": the lease turned LOST while its client lived: " + changes);
            }
            leases.get(kind).release();
            try (Lease next = kind.of(other, names.get(kind)).acquire(Checks.WAIT)) {
                assertEquals(LeaseState.HELD, next.state(), kind + ": the other client holds after the release");
            }
        }
        assertEquals(List.of(), failures, "T=" + leaseSpan() + ": a renewed lease outlives the lease span");
    }
}
