package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.AsyncKind;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §17 Lease validity: {@link Lease#validFor()} and {@link Lease#checkValid()} say the truth while held and after a
 * loss, and {@code release()} and {@code close()} return within the provider's release bound while the server is
 * down, leaving nothing on the server once it is back.
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface LeaseValidityContracts extends TckContext {

    /**
     * How long after its last confirmed contact with the server a lease may still read {@code HELD}: the provider's
     * confirmation threshold (ZooKeeper: {@code uncertainAfter}; Redis: {@code confirmThreshold}). §17.5 expects a
     * cut-off lease to read {@code UNCERTAIN} no later than this after the cut.
     *
     * @return the threshold; by default half the lease span {@code T}, both providers' default
     */
    default Duration confirmationThreshold() {
        return leaseSpan().dividedBy(2);
    }

    /**
     * A mutex lease just acquired is {@code HELD}, its {@code validFor()} is positive and {@code checkValid()} returns.
     */
    @Test
    @Diagnosis("validFor() is the time to BackendLease.validUntilNanos(): a value already past (computed in "
            + "milliseconds, or from System.currentTimeMillis instead of System.nanoTime) makes the lease LOST at "
            + "once; Long.MAX_VALUE for a backend that tracks none is fine.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§17.4", kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC})
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
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§12.1", kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
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
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = "release() and close() during an "
            + "outage are the backend's, the same for every lease it holds: the rule releases one lease and closes a "
            + "service with another")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
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
            System.out.println("[§17 figures] §17.3 provider '" + provider().name() + "', release bound "
                    + releaseBound().toMillis() + " ms: with the server stopped, release() " + releaseTook.toMillis()
                    + " ms, close() " + closeTook.toMillis() + " ms, the other lease " + down + " first");
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
     * (LEASE_RENEWAL) A live client holds a lease of every declared kind, the read half of a read-write lock and of a
     * thread-free one, and a lease acquired with {@code acquireAsync} (of the first thread-free kind declared), while
     * 1.25 and then 2 times the lease span {@code T} ({@link #leaseSpan()}) pass: at each instant every lease is
     * {@code HELD} (a late renewal may leave it {@code UNCERTAIN} for up to 2 s), its {@code validFor()} positive and
     * {@code checkValid()} passing, and another client's {@code tryAcquire()} is empty (of the write half, for a read
     * half); no listener saw a change to {@code LOST}; after the release another client acquires within 10 s.
     */
    @Test
    @Timeout(120)
    @Diagnosis("The renewal did not happen or did not reach the server's copy of the lease: look at the renewal "
            + "schedule (e.g. every leaseTime / 3), and at the keys or rows it extends for each kind, the reader and "
            + "permit sets too, not only the mutex key.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC})
    @DisplayName("§17.4 every kind, read halves and asynchronous acquisitions: a live client's lease held for twice "
            + "the lease span stays HELD and exclusive (LEASE_RENEWAL)")
    default void renewedLeaseOutlivesTheLeaseSpan() throws InterruptedException {
        requireFeature(LockFeature.LEASE_RENEWAL);
        LockService holder = openClient();
        LockService other = openClient();
        List<Renewed> held = new ArrayList<>();
        for (Contenders kind : Contenders.holding(provider())) {
            String name = uniqueName("renewal-" + kind);
            held.add(new Renewed(kind.toString(), kind.holder(holder, name).acquire(Checks.WAIT),
                    kind.other(other, name)));
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            String name = uniqueName("renewal-thread-free-read");
            held.add(new Renewed("thread-free read", holder.threadFreeReadWriteLock(name).readLock()
                    .acquire(Checks.WAIT), other.threadFreeReadWriteLock(name).writeLock()));
        }
        List<AsyncKind> async = AsyncKind.supported(provider().features());
        if (!async.isEmpty()) {
            String name = uniqueName("renewal-async-" + async.get(0));
            held.add(new Renewed("async " + async.get(0), Async.await(async.get(0).of(holder, name)
                    .acquireAsync(Checks.WAIT), Checks.WAIT.plus(Checks.BOUND), "acquireAsync"),
                    async.get(0).of(other, name)));
        }
        long start = System.nanoTime();
        List<String> failures = new ArrayList<>();
        for (double multiple : new double[] {1.25, 2.0}) {
            long at = start + (long) (leaseSpan().toNanos() * multiple);
            while (System.nanoTime() - at < 0) {
                Thread.sleep(20); // the scenario: time passes while the lease is held
            }
            for (Renewed lease : held) {
                lease.check(multiple, failures);
            }
        }
        for (Renewed lease : held) {
            List<String> changes = lease.recorder.changes();
            if (changes.stream().anyMatch(c -> c.endsWith("->LOST"))) {
                failures.add(lease.label + ": the lease turned LOST while its client lived: " + changes);
            }
            lease.lease.release();
            try (Lease next = lease.contender.acquire(Checks.WAIT)) {
                assertEquals(LeaseState.HELD, next.state(), lease.label + ": the other client holds after the "
                        + "release");
            }
        }
        assertEquals(List.of(), failures, "T=" + leaseSpan() + ": a renewed lease outlives the lease span");
    }

    /**
     * (PARTITION, REENTRANT_MUTEX, LOST_NOTIFICATION) Clients reach the server through a proxy. Once the first client
     * has taken and released a mutex (so that it is logged in), every answer from the server comes {@code D} =
     * {@code T}/5, at most 400 ms, late (below any client's per-request timeout: a longer delay, or a login behind
     * it, tests the timeouts, not the deadlines): that client acquires a mutex and, for {@code T}/2, whenever its
     * lease reads {@code HELD} its {@code validFor()} is at most {@code T - D} plus 100 ms (each answer confirms the
     * lease from the moment its request was sent, at least {@code D} before it came; a deadline counted from the
     * answer's arrival outlives the server's by up to {@code D}). Then the answers come at once again, and the proxy
     * cuts the clients off (silence, new connections black-holed). Sampled every 2 ms, the cut-off lease reads
     * {@code UNCERTAIN} (not {@code HELD}) within {@link #confirmationThreshold()} of the cut, is seen
     * {@code UNCERTAIN} before it is {@code LOST}, and is {@code LOST} within {@code T} (each plus 250 ms). Meanwhile
     * another lease of that client is released at once, and a second client cut off with it, holding eight mutexes, is
     * closed at once: {@code release()} and {@code close()} return (or throw {@code LockConnectionException}) within
     * {@link #releaseBound()} plus 2 s, their leases {@code RELEASED}. The rule prints the measured figures.
     */
    @Test
    @Timeout(90)
    @Diagnosis("Deadlines come from the send time of the last answered request (System.nanoTime() taken before the "
            + "call, never after it returns): BackendLease.confirmedUntilNanos() runs out at the confirmation "
            + "threshold, validUntilNanos() before the server can free the lock. release() and close() must not wait "
            + "on a silent connection past the release bound: bound each wait, and wait once, not once per lease.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = "a cut-off client's deadlines, "
            + "release and close are its session's or connection's, the same for every lease it holds (§17.4 holds "
            + "every kind through its renewal)")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @DisplayName("§17.5 cut off from the server: validity counts from each request's sending, the lease reads "
            + "UNCERTAIN within the confirmation threshold and LOST within T, and release() and close() return "
            + "within the release bound")
    default void cutOffLeaseKeepsItsBounds() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.PARTITION);
        Duration span = leaseSpan();
        Duration late = Collections.min(List.of(span.dividedBy(5), Duration.ofMillis(400)));
        Duration slack = Duration.ofMillis(250);
        Duration bound = releaseBound().plus(Checks.BOUND);
        List<String> failures = new ArrayList<>();
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend().uri())) {
            LockService cut = openClient(proxy.rewrite(clientUri()));
            LockService closing = openClient(proxy.rewrite(clientUri()));

            // a lease taken and released first logs the client in (a pool's connection, a keeper's): the delay acts
            // on its requests, not on a login whose round trips would test its connect timeout
            cut.mutex(uniqueName("cut-warm")).acquire(Checks.WAIT).release();
            proxy.delayFromServer(late);
            Lease watched = cut.mutex(uniqueName("cut-watched")).acquire(Checks.WAIT);
            Duration most = Duration.ZERO;
            int held = 0;
            for (long end = System.nanoTime() + span.toNanos() / 2; System.nanoTime() - end < 0; ) {
                Duration left = watched.validFor(); // ZERO unless HELD
                if (left.compareTo(Duration.ZERO) > 0) {
                    held++;
                    most = left.compareTo(most) > 0 ? left : most;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            Duration allowed = span.minus(late).plusMillis(100);
            if (held == 0) {
                failures.add("with every answer " + late.toMillis() + " ms late the lease never read HELD for "
                        + span.dividedBy(2).toMillis() + " ms");
            } else if (most.compareTo(allowed) > 0) {
                failures.add("with every answer " + late.toMillis() + " ms late, validFor() read " + most.toMillis()
                        + " ms, more than T - D + 100 ms = " + allowed.toMillis() + " ms: the validity counts from an "
                        + "answer's arrival, not from its request's sending");
            }
            proxy.delayFromServer(Duration.ZERO);

            Lease released = cut.mutex(uniqueName("cut-released")).acquire(Checks.WAIT);
            List<Lease> closed = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                closed.add(closing.mutex(uniqueName("cut-closed")).acquire(Checks.WAIT));
            }
            Poll.until("the watched lease HELD again with answers on time", LeaseState.HELD, watched::state,
                    Checks.WAIT);
            proxy.blackHole(true);
            long cutAt = System.nanoTime();
            // the watched lease is sampled, and the other client closed, in threads of their own; the release is
            // this thread's, whose lease it is
            Async<long[]> sampled = Async.start("watch-cut-lease", () -> sample(watched, cutAt + span.plus(
                    Checks.BOUND).toNanos()));
            Async<Duration> closingDown = Async.start("close-while-cut", () -> timed(closing::close));
            Duration releaseTook = timed(released::release);
            long[] seen = sampled.get(span.plus(Checks.BOUND).plusSeconds(10));
            Duration closeTook = closingDown.get(bound.plusSeconds(10));
            long uncertainAt = seen[0];
            long lostAt = seen[1];
            boolean sawUncertain = seen[2] != 0;
            judge(failures, span, slack, cutAt, uncertainAt, lostAt, sawUncertain);
            if (releaseTook.compareTo(bound) > 0) {
                failures.add("release() of a cut-off client's lease took " + releaseTook.toMillis() + " ms, more than "
                        + "the release bound + 2 s = " + bound.toMillis() + " ms");
            }
            if (closeTook.compareTo(bound) > 0) {
                failures.add("close() of a cut-off client holding " + closed.size() + " leases took "
                        + closeTook.toMillis() + " ms, more than the release bound + 2 s = " + bound.toMillis()
                        + " ms");
            }
            if (released.state() != LeaseState.RELEASED) {
                failures.add("the lease released while cut off is " + released.state() + ", not RELEASED");
            }
            closed.stream().filter(l -> l.state() != LeaseState.RELEASED).findFirst().ifPresent(l -> failures.add(
                    "a lease of the client closed while cut off is " + l.state() + ", not RELEASED"));
            System.out.printf("[§17.5 figures] provider '%s', T=%d ms: with answers %d ms late, validFor() at most %d "
                    + "ms (%.2f T); cut -> UNCERTAIN %s, -> LOST %s; release() %d ms, close() of %d leases %d ms%n",
                    provider().name(), span.toMillis(), late.toMillis(), most.toMillis(), (double) most.toMillis()
                    / span.toMillis(), times(cutAt, uncertainAt, span), times(cutAt, lostAt, span),
                    releaseTook.toMillis(), closed.size(), closeTook.toMillis());
        }
        assertEquals(List.of(), failures, "T=" + span + ", confirmation threshold " + confirmationThreshold()
                + ", release bound " + releaseBound() + ": a cut-off lease's bounds");
    }

    /**
     * @return when the lease was first seen not HELD and first seen LOST (nanoTime, or -1), and whether it was seen
     *         UNCERTAIN (1 or 0): sampled every 2 ms until LOST or {@code end}
     */
    private static long[] sample(Lease lease, long end) {
        long uncertainAt = -1;
        long lostAt = -1;
        boolean sawUncertain = false;
        while (System.nanoTime() - end < 0) {
            LeaseState state = lease.state();
            long now = System.nanoTime();
            if (state != LeaseState.HELD && uncertainAt < 0) {
                uncertainAt = now;
            }
            sawUncertain |= state == LeaseState.UNCERTAIN;
            if (state == LeaseState.LOST) {
                lostAt = now;
                break;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
        return new long[] {uncertainAt, lostAt, sawUncertain ? 1 : 0};
    }

    private void judge(List<String> failures, Duration span, Duration slack, long cutAt, long uncertainAt,
                       long lostAt, boolean sawUncertain) {
        Duration threshold = confirmationThreshold().plus(slack);
        if (uncertainAt < 0 || uncertainAt - cutAt > threshold.toNanos()) {
            failures.add("the cut-off lease still read HELD " + threshold.toMillis() + " ms after the cut (the "
                    + "confirmation threshold + 250 ms)" + (uncertainAt < 0 ? "" : ": not HELD after "
                    + (uncertainAt - cutAt) / 1_000_000 + " ms"));
        }
        if (!sawUncertain) {
            failures.add("the cut-off lease was never seen UNCERTAIN before it was LOST");
        }
        if (lostAt < 0 || lostAt - cutAt > span.plus(slack).toNanos()) {
            failures.add("the cut-off lease was not LOST within T + 250 ms = " + span.plus(slack).toMillis() + " ms of "
                    + "the cut" + (lostAt < 0 ? "" : ": LOST after " + (lostAt - cutAt) / 1_000_000 + " ms"));
        }
    }

    private static String times(long from, long at, Duration span) {
        return at < 0 ? "never" : String.format("%d ms (%.2f T)", (at - from) / 1_000_000,
                (double) (at - from) / span.toNanos());
    }

    /** Runs a release or close, as long as it takes; a {@code LockConnectionException} is allowed. */
    private static Duration timed(Runnable call) {
        long start = System.nanoTime();
        try {
            call.run();
        } catch (LockConnectionException documented) {
            // the server could not be told: released locally, freed by the session's or lease's end
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** A lease held across the lease span, with the lock another client tries meanwhile. */
    final class Renewed {
        final String label;
        final Lease lease;
        final Acquirable contender;
        final StateRecorder recorder = new StateRecorder();

        Renewed(String label, Lease lease, Acquirable contender) {
            this.label = label;
            this.lease = lease;
            this.contender = contender;
            lease.addListener(recorder);
        }

        /** At {@code multiple} T: HELD (a late renewal waited out for B), valid, and the other client kept out. */
        void check(double multiple, List<String> failures) {
            LeaseState state = lease.state();
            if (state != LeaseState.HELD) {
                state = Poll.until(label + " lease HELD at " + multiple + " T", LeaseState.HELD, lease::state,
                        Checks.BOUND);
            }
            Duration left = lease.validFor();
            if (left.isNegative() || left.isZero()) {
                failures.add(label + ": validFor() of the HELD lease at " + multiple + " T is " + left);
            }
            try {
                lease.checkValid();
            } catch (LeaseLostException e) {
                failures.add(label + ": checkValid() at " + multiple + " T threw " + e.getMessage());
            }
            if (contender.tryAcquire().map(l -> {
                l.release();
                return true;
            }).orElse(false)) {
                failures.add(label + ": another client acquired at " + multiple + " T while the lease was " + state);
            }
        }
    }
}
