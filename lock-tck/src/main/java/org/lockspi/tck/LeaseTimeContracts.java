package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireAbsent;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockPart;
import org.lockspi.LockService;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.Figures;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.internal.Workers;

/**
 * §26 A lease time per acquisition ({@link Acquirable#withLeaseTime(Duration)}, {@link LockFeature#LEASE_TIME}): the
 * lease ends at its grant plus the lease time even while its holder lives, turns {@code LOST} then, and the server
 * frees the lock for another client by its own clock; a release before is an ordinary one; the outer acquisition's
 * lease time governs a nested one; bad values and providers without the feature are refused at once.
 */
@Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
public interface LeaseTimeContracts extends TckContext {

    /**
     * How late after the end of its lease time a lease may still read {@code HELD}, and its listeners be told:
     * the engine's timer and event thread. §26.1 also expects the other client's grant no later than this after
     * the first lease turned {@code LOST} plus {@link #crashReleaseBound()}.
     */
    Duration LEASE_TIME_SLACK = Duration.ofMillis(500);

    /** Why §26.3 and §26.4 take the exclusive kinds only. */
    String ENGINE_CHECKS = "the checks and the refusal are the engine's, before any request, the same for every "
            + "kind; a view takes no lock";

    /**
     * The lease time §26.1 acquires with: one and a half lease spans {@code T}, so that a lease still held at
     * {@code 1.1 T} has been renewed (where the provider renews) and one ended by {@code 1.5 T} was not renewed past
     * its lease time.
     *
     * @return the lease time, {@code 1.5 T} unless overridden
     */
    default Duration leaseTimeUnderTest() {
        return leaseSpan().multipliedBy(3).dividedBy(2);
    }

    /**
     * How long after the end of a lease time the other client of §26.1 may wait for the lock: the server freed it at
     * the end, so this is the waiter's own wake-up (a poll, a notification). A server whose state a renewal carried
     * past the end would keep it out for up to the lease span {@code T} more.
     *
     * @return the bound, {@code T / 2} unless overridden (a provider whose waiters poll less often overrides it)
     */
    default Duration leaseTimeHandOver() {
        return leaseSpan().dividedBy(2);
    }

    /** One holder and the other client's lock of a §26.1 pair. */
    interface Holder {
        /** Acquires {@code lock} through its view with the lease time. */
        Lease acquire(Acquirable lock, Duration leaseTime) throws Exception;
    }

    /**
     * (LEASE_TIME) For every declared kind and the read half, and (READ_WRITE) the write half of a thread-free
     * read-write lock acquired with {@code acquireAsync}: a client acquires through {@code withLeaseTime(L)},
     * {@code L} = {@link #leaseTimeUnderTest()}, adds a listener and does nothing more; another client (a service of
     * its own) waits for the lock (a writer for the read half). The lease is {@code HELD} with {@code 0 < validFor()
     * <= L} at once, and still not {@code LOST} at {@code 0.75 L}, with {@code validFor()} at most what is left of
     * {@code L} since the acquisition returned, and the other client still waiting. It turns {@code LOST}, its
     * listener told once and last, no later than {@code L} plus {@link #LEASE_TIME_SLACK} after the acquisition
     * returned. The other client gets the lock no later than {@link #leaseTimeHandOver()} after that end (the server
     * freed it by itself), never before the first lease is {@code LOST}: at its grant the first lease is already
     * {@code LOST}; (FENCING_TOKENS) with a greater token. The first lease's late release does not throw, and (INSPECT)
     * once the other releases nothing is left.
     */
    @Test
    @Timeout(90)
    @Diagnosis("The backend must cap BackendLease.validUntilNanos() at the send instant of the granting request "
            + "plus AcquireRequest.leaseTime(), and make the server end the acquisition by itself at its grant plus "
            + "the lease time (Redis: the key's PX never renewed past it; a database: the row's expiry from the "
            + "database clock, capped). A renewal that extends the expiry keeps the other client out; a lease still "
            + "HELD past L means validUntilNanos ignores the lease time.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ, THREAD_FREE, ASYNC}, shapes = ONE_WAITER)
    @DisplayName("§26.1 every kind: a lease acquired with a lease time turns LOST at its end while the holder lives, "
            + "and only then does another client take the lock, with a greater token")
    default void leaseTimeEndsTheLease() throws Exception {
        requireFeature(LockFeature.LEASE_TIME);
        Duration leaseTime = leaseTimeUnderTest();
        List<String> labels = new ArrayList<>();
        List<BiFunction<LockService, String, Acquirable>> holders = new ArrayList<>();
        List<BiFunction<LockService, String, Acquirable>> others = new ArrayList<>();
        List<Holder> ways = new ArrayList<>();
        for (Contenders pair : Contenders.holding(provider())) {
            labels.add(pair.label());
            holders.add(pair::holder);
            others.add(pair::other);
            ways.add((lock, l) -> lock.withLeaseTime(l).acquire(Duration.ofSeconds(10)));
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            labels.add("thread-free write, acquireAsync");
            holders.add((s, n) -> s.threadFreeReadWriteLock(n).writeLock());
            others.add((s, n) -> s.threadFreeReadWriteLock(n).writeLock());
            ways.add((lock, l) -> ((org.lockspi.AsyncAcquirable) lock).withLeaseTime(l)
                    .acquireAsync(Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS));
        }
        int n = labels.size();
        LockService holderClient = openClient();
        LockService otherClient = openClient();
        String[] names = new String[n];
        Lease[] leases = new Lease[n];
        long[] asked = new long[n];
        long[] acquired = new long[n]; // the granting request was sent between asked and acquired
        StateRecorder[] recorders = new StateRecorder[n];
        AtomicLong[] lostAt = new AtomicLong[n];
        try (Workers pool = new Workers(n)) { // the other client's waits; a failed test leaves none running
            List<Future<long[]>> waits = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                names[i] = uniqueName("lease-time-" + i);
                Acquirable lock = holders.get(i).apply(holderClient, names[i]);
                asked[i] = System.nanoTime();
                leases[i] = ways.get(i).acquire(lock, leaseTime);
                acquired[i] = System.nanoTime();
                Lease lease = leases[i];
                assertEquals(LeaseState.HELD, lease.state(), labels.get(i) + ": the lease, just acquired");
                Duration left = lease.validFor();
                assertTrue(left.compareTo(Duration.ZERO) > 0 && left.compareTo(leaseTime) <= 0, labels.get(i)
                        + ": validFor() of a lease with lease time " + leaseTime + " is positive and at most it: " + left);
                recorders[i] = new StateRecorder();
                AtomicLong lost = new AtomicLong();
                lostAt[i] = lost;
                lease.addListener((l, from, to) -> {
                    if (to == LeaseState.LOST) {
                        lost.compareAndSet(0, System.nanoTime());
                    }
                });
                lease.addListener(recorders[i]);
                Acquirable other = others.get(i).apply(otherClient, names[i]);
                Duration wait = leaseTime.plus(LEASE_TIME_SLACK).plus(crashReleaseBound());
                waits.add(pool.submit(() -> {
                    Lease got = other.acquire(wait);
                    long at = System.nanoTime();
                    LeaseState firstThen = lease.state(); // the holder's lease, at the instant the other holds
                    long token = provider().features().contains(LockFeature.FENCING_TOKENS) ? got.fencingToken() : -1;
                    got.release();
                    return new long[] {at, firstThen.ordinal(), token};
                }));
            }
            // at 0.75 L: renewed where the provider renews, not yet ended, the other still waiting
            long check = asked[n - 1] + leaseTime.multipliedBy(3).dividedBy(4).toNanos();
            TimeUnit.NANOSECONDS.sleep(Math.max(0, check - System.nanoTime()));
            for (int i = 0; i < n; i++) {
                long elapsed = System.nanoTime() - acquired[i];
                assertNotEquals(LeaseState.LOST, leases[i].state(), labels.get(i) + ": LOST before its lease time ended, "
                        + "after " + elapsed / 1_000_000 + " ms of " + leaseTime);
                Duration left = leases[i].validFor();
                assertTrue(left.compareTo(leaseTime.minusNanos(elapsed)) <= 0, labels.get(i) + ": validFor() "
                        + left + " reaches beyond the end of the lease time, " + (leaseTime.toNanos() - elapsed) / 1_000_000
                        + " ms away");
                Future<long[]> early = waits.get(i);
                String label = labels.get(i);
                assertTrue(!early.isDone(), () -> label + ": the other client got the lock before the lease time ended: "
                        + outcome(early));
            }
            StringBuilder figures = new StringBuilder("lease time L=" + leaseTime.toMillis() + " ms:");
            for (int i = 0; i < n; i++) {
                long end = acquired[i] + leaseTime.toNanos(); // the latest the lease time can end
                recorders[i].awaitChangeTo(LeaseState.LOST, Duration.ofNanos(Math.max(0, end - System.nanoTime()))
                        .plus(LEASE_TIME_SLACK).plus(BOUND));
                long lost = lostAt[i].get();
                assertTrue(lost - end <= LEASE_TIME_SLACK.toNanos(), labels.get(i) + ": LOST " + (lost - end) / 1_000_000
                        + " ms after the end of the lease time, more than " + LEASE_TIME_SLACK.toMillis() + " ms");
                List<String> changes = recorders[i].changes();
                assertTrue(changes.get(changes.size() - 1).endsWith("->LOST")
                        && changes.stream().filter(c -> c.endsWith("->LOST")).count() == 1,
                        labels.get(i) + ": LOST once and last: " + changes);
                long[] got = granted(waits.get(i), end + leaseTimeHandOver().plus(BOUND).toNanos(), labels.get(i));
                assertEquals(LeaseState.LOST, LeaseState.values()[(int) got[1]], labels.get(i) + ": the other client "
                        + "held the lock while the first lease was not yet LOST");
                assertTrue(got[0] - end <= leaseTimeHandOver().toNanos(), labels.get(i) + ": the other client got the "
                        + "lock " + (got[0] - end) / 1_000_000 + " ms after the end of the lease time, more than "
                        + leaseTimeHandOver().toMillis() + " ms: the server kept it past the end");
                if (provider().features().contains(LockFeature.FENCING_TOKENS)) {
                    assertTrue(got[2] > leases[i].fencingToken(), labels.get(i) + ": the other client's token " + got[2]
                            + " is greater than the first's " + leases[i].fencingToken());
                }
                leases[i].release(); // late, of a LOST lease: no exception, nothing of the other's touched
                figures.append(String.format(java.util.Locale.ROOT, " %s LOST at end%+d ms, other's grant at end%+d ms;",
                        labels.get(i), (lost - end) / 1_000_000, (got[0] - end) / 1_000_000));
            }
            Figures.print("§26.1", provider().name(), leaseSpan(), figures.toString());
        }
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            for (int i = 0; i < n; i++) {
                assertEquals(List.of(), backend().residue(names[i]), labels.get(i) + ": nothing left");
            }
        }
    }

    /** @return how the other client's wait of §26.1, already done, ended: granted, or failed with its cause */
    private static String outcome(Future<long[]> done) {
        try {
            done.get();
            return "granted";
        } catch (java.util.concurrent.ExecutionException e) {
            return "failed: " + e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * @return what the other client's wait of §26.1 gave: the instant of its grant, the first lease's state then,
     *         its token
     * @throws AssertionError if it failed or did not end by {@code by} (nanoTime)
     */
    private static long[] granted(Future<long[]> wait, long by, String label) throws InterruptedException {
        try {
            return wait.get(Math.max(0, by - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(label + ": the other client did not get the lock by the end of the lease time "
                    + "plus the hand-over bound: the server kept it past the end", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError(label + ": the other client's acquisition failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * (LEASE_TIME) A lease acquired with a lease time of 60 s and released at once is {@code RELEASED}, its listener
     * told no {@code LOST}; another client's {@code tryAcquire()} then gets the lock at once and (INSPECT) nothing of
     * the first is left. (REENTRANT_MUTEX) The outer acquisition's lease time governs a nested one: a thread that holds
     * a mutex without a lease time acquires it again through a view with a lease time of 300 ms; after 300 ms plus
     * {@link #LEASE_TIME_SLACK} both leases are {@code HELD} and another client's {@code tryAcquire()} is empty; after
     * both releases the other client gets it.
     */
    @Test
    @Timeout(60)
    @Diagnosis("A release before the lease time ends is BackendLease.release() as without one: delete the key or row "
            + "by its owner; a nested acquisition never reaches the backend (the engine's Hold), so a nested lease "
            + "that ends the outer one points at the engine.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§26.1", kinds = {NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ, THREAD_FREE, ASYNC})
    @Inapplicable(shapes = ONE_WAITER, reason = "no acquisition waits: the other client tries once")
    @DisplayName("§26.2 mutex: a release before the lease time ends is an ordinary release, and the outer "
            + "acquisition's lease time governs a nested one")
    default void releaseBeforeTheEndAndNesting() throws InterruptedException {
        requireFeature(LockFeature.LEASE_TIME);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("lease-time-release");
        LockService client = openClient();
        LockService other = openClient();
        DistributedLock mutex = client.mutex(name);
        Lease lease = mutex.withLeaseTime(Duration.ofSeconds(60)).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        lease.release();
        assertEquals(LeaseState.RELEASED, lease.state());
        Optional<Lease> next = other.mutex(name).tryAcquire();
        assertTrue(next.isPresent(), "the lock is free at once after the release");
        next.get().release();
        assertTrue(recorder.changes().stream().noneMatch(c -> c.endsWith("->LOST")), "no LOST: "
                + recorder.changes());
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            assertEquals(List.of(), backend().residue(name), "nothing left");
        }

        Duration inner = Duration.ofMillis(300);
        try (Lease outer = mutex.acquire(Duration.ofSeconds(10))) {
            Lease nested = mutex.withLeaseTime(inner).acquire(Duration.ofSeconds(10));
            assertEquals(2, mutex.holdCount());
            TimeUnit.NANOSECONDS.sleep(inner.plus(LEASE_TIME_SLACK).toNanos());
            assertEquals(LeaseState.HELD, outer.state(), "the outer lease, without a lease time");
            assertEquals(LeaseState.HELD, nested.state(), "the nested lease: the outer acquisition's lease time "
                    + "governs, not its own");
            assertEquals(Optional.empty(), other.mutex(name).tryAcquire(), "the lock is still held");
            nested.release();
        }
        Optional<Lease> after = other.mutex(name).tryAcquire();
        assertTrue(after.isPresent(), "free after both releases");
        after.get().release();
    }

    /**
     * (LEASE_TIME) On every declared kind and a multi-lock, {@code withLeaseTime} refuses within 2 s, stating the
     * value: null with {@code NullPointerException}, zero, a negative value and {@link Acquirable#MAX_LEASE_TIME} plus
     * 1 ms with {@code IllegalArgumentException}; {@code MAX_LEASE_TIME} itself is accepted. On a closed service it
     * throws {@code IllegalStateException}. (INSPECT) Nothing of the names is on the server.
     */
    @Test
    @Diagnosis("The checks are the engine's (Names.checkLeaseTime), before the backend is asked: a failure points at "
            + "a lock-api other than the kit's.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = ENGINE_CHECKS)
    @Inapplicable(shapes = ONE_WAITER, reason = Why.NO_QUEUE)
    @DisplayName("§26.3 every kind: a null, zero, negative or too long lease time is refused at once, stating the "
            + "value")
    default void badLeaseTimesAreRefused() {
        requireFeature(LockFeature.LEASE_TIME);
        LockService client = openClient();
        List<String> names = new ArrayList<>();
        List<Acquirable> locks = new ArrayList<>();
        for (Kind kind : Kind.supported(provider().features())) {
            String name = uniqueName("lease-time-bad-" + kind);
            names.add(name);
            locks.add(kind.of(client, name));
        }
        if (provider().features().contains(LockFeature.REENTRANT_MUTEX)) {
            String name = uniqueName("lease-time-bad-multi");
            names.add(name);
            locks.add(client.multiLock(LockPart.mutex(name)));
        }
        Duration tooLong = Acquirable.MAX_LEASE_TIME.plusMillis(1);
        for (Acquirable lock : locks) {
            throwsWithin(NullPointerException.class, BOUND, lock + ": withLeaseTime(null)",
                    () -> lock.withLeaseTime(null));
            for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(-1), tooLong)) {
                assertNames(throwsWithin(IllegalArgumentException.class, BOUND, lock + ": withLeaseTime(" + bad + ")",
                        () -> lock.withLeaseTime(bad)), bad.toString());
            }
            assertEquals(lock.name(), lock.withLeaseTime(Acquirable.MAX_LEASE_TIME).name());
        }
        client.close();
        for (Acquirable lock : locks) {
            throwsWithin(IllegalStateException.class, BOUND, lock + ": withLeaseTime on a closed service",
                    () -> lock.withLeaseTime(Duration.ofSeconds(1)));
        }
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            for (String name : names) {
                assertEquals(List.of(), backend().residue(name), name + ": nothing on the server");
            }
        }
    }

    /**
     * Skipped for a provider that declares LEASE_TIME; otherwise {@code withLeaseTime} on every declared kind throws
     * {@code UnsupportedOperationException} within 2 s naming LEASE_TIME and the provider, before anything is asked
     * of the server.
     */
    @Test
    @Diagnosis("The refusal is the engine's, from the LockProvider.features() the service was opened with: a failure "
            + "means features() answers differently between calls, or a second lock-api on the class path.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = ENGINE_CHECKS)
    @Inapplicable(shapes = ONE_WAITER, reason = Why.NO_QUEUE)
    @DisplayName("§26.4 without LEASE_TIME, withLeaseTime throws UnsupportedOperationException naming the feature "
            + "and the provider")
    default void noLeaseTime() {
        requireAbsent(provider(), LockFeature.LEASE_TIME);
        LockService client = openClient();
        for (Kind kind : Kind.supported(provider().features())) {
            Acquirable lock = kind.of(client, uniqueName("lease-time-absent-" + kind));
            UnsupportedOperationException e = throwsWithin(UnsupportedOperationException.class, BOUND,
                    kind + ": withLeaseTime", () -> lock.withLeaseTime(Duration.ofSeconds(1)));
            assertNames(e, LockFeature.LEASE_TIME.name());
            assertNames(e, provider().name());
        }
    }
}
