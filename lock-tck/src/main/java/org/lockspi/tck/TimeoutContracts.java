package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.OVERSHOOT;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.TIMED;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertBetween;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;
import static org.lockspi.tck.internal.Checks.time;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §5 Timeouts and interrupts: a timed acquisition returns within its timeout plus a small bound, an interrupt
 * ends a wait, and neither leaves anything behind on the server.
 */
public interface TimeoutContracts extends TckContext {

    /**
     * For every declared kind, another client holds the lock and {@code tryAcquire()} returns empty within 2 s.
     */
    @Test
    @Diagnosis("tryAcquire() reaches LockBackend.acquire with a Deadline already passed: it must make one attempt and "
            + "return null, not wait for a watch, a wake-up, a poll interval, a pooled connection or a reconnection.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @CoveredBy(value = "§5.9", kinds = READ)
    @CoveredBy(value = "§23.2", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§5.1 tryAcquire() of a held lock returns empty at once, for every kind")
    default void tryAcquireReturnsAtOnce() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("try-" + kind);
            LockService holder = openClient();
            Acquirable contender = kind.of(openClient(), name);
            try (Lease held = kind.of(holder, name).acquire(WAIT)) {
                AtomicReference<Optional<Lease>> result = new AtomicReference<>();
                Duration took = time(() -> result.set(contender.tryAcquire()));
                assertTrue(result.get().isEmpty(), kind + ": tryAcquire() got a held lock");
                assertBetween(took, Duration.ZERO, BOUND, kind + ": tryAcquire() of a held lock");
            }
        }
    }

    /**
     * For every declared kind, another client holds the lock and {@code tryAcquire(100 ms)} returns empty no earlier
     * than 100 ms and no later than 800 ms (the timeout plus the overshoot bound of 700 ms).
     */
    @Test
    @Diagnosis("LockBackend.acquire must give up at its Deadline: look for a wait that checks the deadline only "
            + "between poll rounds or sleeps a whole back-off past it, a deadline rounded up to whole seconds, or a "
            + "server call with a longer timeout of its own.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE}, shapes = ONE_WAITER)
    @CoveredBy(value = "§5.9", kinds = READ)
    @CoveredBy(value = "§23.2", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§5.2 tryAcquire(timeout) of a held lock returns empty after the timeout, within the overshoot "
            + "bound, for every kind")
    default void tryAcquireTimesOut() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("timed-" + kind);
            Acquirable contender = kind.of(openClient(), name);
            try (Lease held = kind.of(openClient(), name).acquire(WAIT)) {
                tryAcquireEndsInTime(kind.toString(), contender);
            }
        }
    }

    /**
     * For every declared kind, another client holds the lock and {@code acquire(100 ms)} throws
     * {@code LockTimeoutException} no earlier than 100 ms and no later than 800 ms, with {@code timeout()} 100 ms and a
     * message naming the lock.
     */
    @Test
    @Diagnosis("The exception is the engine's, made from a null return of LockBackend.acquire at its Deadline: a late "
            + "one comes from a wait that overshoots (see §5.2); another exception type from a backend that threw "
            + "where it should have returned null.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE}, shapes = ONE_WAITER)
    @CoveredBy(value = "§5.9", kinds = READ)
    @CoveredBy(value = "§23.2", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§5.3 acquire(timeout) of a held lock throws LockTimeoutException naming the lock and the timeout, "
            + "within the overshoot bound, for every kind")
    default void acquireTimesOut() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("acq-" + kind);
            Acquirable contender = kind.of(openClient(), name);
            try (Lease held = kind.of(openClient(), name).acquire(WAIT)) {
                acquireEndsInTime(kind.toString(), name, contender);
            }
        }
    }

    /**
     * (INSPECT) For every declared kind, and for the read half while a writer holds, another client holds the lock;
     * after a waiter's {@code tryAcquire(300 ms)},
     * after its {@code acquire(300 ms)} times out, and after its {@code tryAcquire()},
     * {@link TckBackend#residue(String)} shows the holder's entry alone. After the holder's release the waiter acquires
     * within 2 s, and once it releases nothing is left.
     */
    @Test
    @Diagnosis("A timed-out acquire that returns null must delete its queue entry: look at the clean-up path of "
            + "LockBackend.acquire on timeout (its node or waiter mark; for a ZooKeeper semaphore both the internal "
            + "lock node and the lease node).")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ}, shapes = ONE_WAITER)
    @CoveredBy(value = "§23.3", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§5.4 a timed-out acquisition leaves nothing behind on the server, for every kind and the read half")
    default void timeoutLeavesNothing() throws Exception {
        List<Contenders> kinds = Contenders.waiting(provider());
        requireCapability(TckBackend.Capability.INSPECT);
        for (Contenders kind : kinds) {
            String name = uniqueName("residue-" + kind);
            LockService waiterClient = openClient();
            Lease held = kind.holder(openClient(), name).acquire(WAIT);
            List<String> holderOnly = backend().residue(name);
            assertFalse(holderOnly.isEmpty(), kind + ": the holder's own state is not visible to residue()");
            assertTrue(kind.other(waiterClient, name).tryAcquire(SHORT).isEmpty());
            assertEquals(holderOnly, backend().residue(name), kind + ": tryAcquire(timeout) left state behind");
            throwsWithin(LockTimeoutException.class, SHORT.plus(BOUND), kind + ".acquire(" + SHORT + ")",
                    () -> kind.other(waiterClient, name).acquire(SHORT));
            assertEquals(holderOnly, backend().residue(name), kind + ": acquire(timeout) left state behind");
            assertTrue(kind.other(waiterClient, name).tryAcquire().isEmpty());
            assertEquals(holderOnly, backend().residue(name), kind + ": tryAcquire() left state behind");
            held.release();
            // Nothing stale blocks the next holder.
            Optional<Lease> next = kind.other(waiterClient, name).tryAcquire(BOUND);
            assertTrue(next.isPresent(), kind + ": the lock could not be acquired after the holder released it");
            next.get().release();
            assertEquals(List.of(), backend().residue(name), kind + ": state left after every lease was released");
        }
    }

    /**
     * For every declared kind, and for the read half while a writer holds, another client holds the lock, and a
     * waiter in {@code acquire()}, then in
     * {@code acquire(30 s)}, then in {@code tryAcquire(30 s)} is interrupted once it waits. Each throws
     * {@code InterruptedException} within 2 s with the interrupt flag cleared and holds nothing; (INSPECT) the holder's
     * entry is alone on the server; after the holder's release another client acquires within 2 s.
     */
    @Test
    @Diagnosis("LockBackend.acquire must end its wait on an interrupt and delete its entry first: look for a loop "
            + "that waits again after InterruptedException, a client call that ignores interrupts, or a delete that "
            + "fails because the flag is still set (clear, delete, throw).")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ}, shapes = ONE_WAITER)
    @CoveredBy(value = "§23.3", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§5.5 an interrupt during acquire throws InterruptedException, clears the flag and leaves nothing "
            + "behind, for every kind and the read half")
    default void interruptWhileWaiting() throws Exception {
        for (Contenders kind : Contenders.waiting(provider())) {
            String name = uniqueName("interrupt-" + kind);
            LockService waiterClient = openClient();
            Lease held = kind.holder(openClient(), name).acquire(WAIT);
            boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
            List<String> holderOnly = inspect ? backend().residue(name) : List.of();
            for (String method : List.of("acquire()", "acquire(timeout)", "tryAcquire(timeout)")) {
                Acquirable lock = kind.other(waiterClient, name);
                Async<Boolean> waiter = Async.startWaiter("interrupted-" + kind, backend(), name, () -> {
                    try {
                        switch (method) {
                            case "acquire()":
                                lock.acquire().release();
                                break;
                            case "acquire(timeout)":
                                lock.acquire(WAIT.multipliedBy(3)).release();
                                break;
                            default:
                                lock.tryAcquire(WAIT.multipliedBy(3)).ifPresent(Lease::release);
                                break;
                        }
                        throw new AssertionError(method + " returned although interrupted while waiting");
                    } catch (InterruptedException e) {
                        boolean flag = Thread.currentThread().isInterrupted();
                        if (lock instanceof DistributedLock && ((DistributedLock) lock).holdCount() != 0) {
                            throw new AssertionError(method + " was interrupted but the thread holds the lock");
                        }
                        return flag;
                    }
                });
                long interrupted = System.nanoTime();
                waiter.thread().interrupt();
                boolean flagStillSet = waiter.get(BOUND);
                assertTrue(Duration.ofNanos(System.nanoTime() - interrupted).compareTo(BOUND) <= 0,
                        kind + "." + method + " took too long to notice the interrupt");
                assertFalse(flagStillSet, kind + "." + method + " threw InterruptedException but left the interrupt "
                        + "flag set (the Javadoc says it is cleared)");
                if (inspect) {
                    assertEquals(holderOnly, backend().residue(name), kind + "." + method + " interrupted left state "
                            + "behind");
                }
            }
            held.release();
            Optional<Lease> next = kind.other(openClient(), name).tryAcquire(BOUND);
            assertTrue(next.isPresent(), kind + ": after interrupted waiters, the released lock could not be acquired");
            next.get().release();
        }
    }

    /**
     * For every declared kind, a thread with its interrupt flag set calls {@code acquire()}, {@code acquire(10 s)} and
     * {@code tryAcquire(10 s)} of a free lock: each throws {@code InterruptedException} within 2 s and clears the flag;
     * nothing is held or (INSPECT) left, and another client then acquires. A thread that holds a mutex gets the same
     * from a nested {@code acquire()} and {@code tryAcquire(10 s)}, its hold count unchanged.
     */
    @Test
    @Diagnosis("The engine refuses an interrupted thread before it calls LockBackend.acquire "
            + "(AbstractAcquirable.acquireFromBackend); if this fails, the lock-api on the class path is not the "
            + "kit's, e.g. an older copy shaded into the provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = "checked by the engine before a provider is asked, in "
            + "one piece of code for every kind; the kit checks it through the kinds tested here")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§5.6 a thread interrupted before it calls acquire fails at once, even for a free lock or one it holds")
    default void interruptedBeforeAcquire() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("pre-interrupt-" + kind);
            Acquirable lock = kind.of(openClient(), name);
            try {
                Thread.currentThread().interrupt();
                throwsWithin(InterruptedException.class, BOUND, kind + ".acquire() when interrupted", lock::acquire);
                assertFalse(Thread.currentThread().isInterrupted(), "acquire() left the interrupt flag set");
                Thread.currentThread().interrupt();
                throwsWithin(InterruptedException.class, BOUND, kind + ".acquire(timeout) when interrupted",
                        () -> lock.acquire(WAIT));
                assertFalse(Thread.currentThread().isInterrupted(), "acquire(timeout) left the interrupt flag set");
                Thread.currentThread().interrupt();
                throwsWithin(InterruptedException.class, BOUND, kind + ".tryAcquire(timeout) when interrupted",
                        () -> lock.tryAcquire(WAIT));
                assertFalse(Thread.currentThread().isInterrupted(), "tryAcquire(timeout) left the interrupt flag set");
            } finally {
                Thread.interrupted();
            }
            if (lock instanceof DistributedLock) {
                assertEquals(0, ((DistributedLock) lock).holdCount(), kind + ": held after failed acquisitions");
            }
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                assertEquals(List.of(), backend().residue(name), kind + ": interrupted acquisitions left state");
            }
            Optional<Lease> other = kind.of(openClient(), name).tryAcquire();
            assertTrue(other.isPresent(), kind + ": the lock is taken after interrupted acquisitions");
            other.get().release();
        }
        if (provider().features().contains(LockFeature.REENTRANT_MUTEX)) {
            // A thread that already holds the lock is no exception: a nested acquire is a blocking method too.
            DistributedLock mutex = openClient().mutex(uniqueName("pre-interrupt-nested"));
            try (Lease held = mutex.acquire(WAIT)) {
                try {
                    Thread.currentThread().interrupt();
                    throwsWithin(InterruptedException.class, BOUND, "nested acquire() when interrupted", mutex::acquire);
                    assertFalse(Thread.currentThread().isInterrupted(), "nested acquire() left the interrupt flag set");
                    Thread.currentThread().interrupt();
                    throwsWithin(InterruptedException.class, BOUND, "nested tryAcquire(timeout) when interrupted",
                            () -> mutex.tryAcquire(WAIT));
                } finally {
                    Thread.interrupted();
                }
                assertEquals(1, mutex.holdCount(), "a refused nested acquisition changed the hold count");
            }
        }
    }

    /**
     * For every declared kind, a thread with its interrupt flag set calls {@code tryAcquire()} of a free lock: it
     * acquires the lock, and the flag is still set afterwards.
     */
    @Test
    @Diagnosis("The engine clears the flag around the call, so LockBackend.acquire sees no interrupt: it fails if the "
            + "backend makes no attempt for an expired Deadline (returns null before its first server call), or "
            + "throws from a client library interrupted earlier.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = "checked by the engine before a provider is asked, in "
            + "one piece of code for every kind; the kit checks it through the kinds tested here")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§5.7 tryAcquire() makes its one attempt whatever the interrupt flag, and keeps the flag")
    default void tryAcquireKeepsInterruptFlag() {
        for (Kind kind : requireSomeKind(provider())) {
            Acquirable lock = kind.of(openClient(), uniqueName("flag-" + kind));
            Optional<Lease> lease;
            try {
                Thread.currentThread().interrupt();
                lease = lock.tryAcquire();
                assertTrue(Thread.currentThread().isInterrupted(), kind + ": tryAcquire() cleared the interrupt flag");
            } finally {
                Thread.interrupted();
            }
            assertTrue(lease.isPresent(), kind + ": tryAcquire() of a free lock by an interrupted thread failed");
            lease.get().release();
        }
    }

    /**
     * A client holds a mutex and another waits in {@code acquire(10 s)}; when the holder releases, the waiter gets the
     * lock before its timeout.
     */
    @Test
    @Diagnosis("The timed wait in LockBackend.acquire missed the release: a watch set after the watched node was gone "
            + "and not followed by a new look, a pub/sub message lost without a polling fallback, or a "
            + "finite-Deadline branch that waits differently from the untimed one.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @CoveredBy(value = "§3.4", kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE})
    @CoveredBy(value = "§23.6", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§5.8 mutex: a timed acquisition that waits gets the lock when it is released before the timeout")
    default void timedWaiterGetsLock() throws Exception {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("timed-handoff");
        Lease held = openClient().mutex(name).acquire(WAIT);
        DistributedLock contender = openClient().mutex(name);
        Async<Boolean> waiter = Async.startWaiter("timed-waiter", backend(), name, () -> {
            try (Lease lease = contender.acquire(WAIT)) {
                return lease.isHeld();
            }
        });
        held.release();
        assertTrue(waiter.get(WAIT), "the timed waiter did not get the released lock");
    }

    /**
     * §5.2 and §5.3 for the shared kinds declared (skipped if neither is): the read half while another client holds the
     * write half, and a semaphore of two permits both held by other clients. {@code tryAcquire(100 ms)} returns empty
     * and {@code acquire(100 ms)} throws {@code LockTimeoutException} naming the lock, each within 100 to 800 ms.
     */
    @Test
    @Diagnosis("The shared kinds often wait apart from the mutex (a reader watching the writer ahead, a semaphore "
            + "watching its lease children, a poll of the permit set): look at their deadline checks in "
            + "LockBackend.acquire, also in a semaphore's internal lock.")
    @Covers(kinds = {READ, SEMAPHORE}, shapes = ONE_WAITER)
    @CoveredBy(value = "§5.2", kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE})
    @CoveredBy(value = "§23.2", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§5.9 read half while a writer holds, semaphore of two permits both taken: timed acquisitions end "
            + "after the timeout, within the overshoot bound")
    default void sharedKindsTimeOutWithinOvershoot() throws Exception {
        boolean readWrite = provider().features().contains(LockFeature.READ_WRITE);
        boolean semaphore = provider().features().contains(LockFeature.SEMAPHORE);
        if (!readWrite && !semaphore) {
            requireFeature(LockFeature.READ_WRITE); // skips, naming the feature
        }
        if (readWrite) {
            String name = uniqueName("timed-read");
            try (Lease held = openClient().readWriteLock(name).writeLock().acquire(WAIT)) {
                Acquirable reader = openClient().readWriteLock(name).readLock();
                tryAcquireEndsInTime("read", reader);
                acquireEndsInTime("read", name, reader);
            }
        }
        if (semaphore) {
            String name = uniqueName("timed-permits");
            try (Lease one = openClient().semaphore(name, 2).acquire(WAIT);
                 Lease two = openClient().semaphore(name, 2).acquire(WAIT)) {
                Acquirable third = openClient().semaphore(name, 2);
                tryAcquireEndsInTime("semaphore(2)", third);
                acquireEndsInTime("semaphore(2)", name, third);
            }
        }
    }

    /** tryAcquire(TIMED) of a held lock is empty, no earlier than TIMED and no later than TIMED + OVERSHOOT. */
    private static void tryAcquireEndsInTime(String kind, Acquirable contender) throws Exception {
        AtomicReference<Optional<Lease>> result = new AtomicReference<>();
        Duration took = time(() -> result.set(contender.tryAcquire(TIMED)));
        assertTrue(result.get().isEmpty(), kind + ": tryAcquire(" + TIMED + ") got a held lock");
        assertBetween(took, TIMED, TIMED.plus(OVERSHOOT), kind + ": tryAcquire(" + TIMED + ") of a held lock");
    }

    /** acquire(TIMED) of a held lock throws LockTimeoutException, no earlier than TIMED, no later than + OVERSHOOT. */
    private static void acquireEndsInTime(String kind, String name, Acquirable contender) {
        long start = System.nanoTime();
        LockTimeoutException e = throwsWithin(LockTimeoutException.class, TIMED.plus(OVERSHOOT),
                kind + ".acquire(" + TIMED + ") of a held lock", () -> contender.acquire(TIMED));
        assertBetween(Duration.ofNanos(System.nanoTime() - start), TIMED, TIMED.plus(OVERSHOOT),
                kind + ".acquire(" + TIMED + ")");
        assertEquals(TIMED, e.timeout());
        assertNames(e, name);
    }
}
