package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.OVERSHOOT;
import static org.lockspi.tck.internal.Checks.TIMED;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertBetween;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.ThreadFreeReadWriteLock;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.AsyncKind;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §23 Asynchronous acquisition and thread-free read-write locks: {@code acquireAsync}, {@code tryAcquireAsync},
 * cancellation that leaves nothing on the server, close(), and {@code threadFreeReadWriteLock}.
 */
public interface AsyncContracts extends TckContext {

    /** @return the thread-free exclusive kinds the provider declares; skips the rule if none */
    private List<AsyncKind> asyncKinds() {
        List<AsyncKind> kinds = AsyncKind.supported(provider().features());
        if (kinds.isEmpty()) {
            requireFeature(LockFeature.NON_REENTRANT_MUTEX); // skips, naming the first of the three
        }
        return kinds;
    }

    private static Throwable failureOf(CompletableFuture<?> future, Duration max, String what)
            throws InterruptedException {
        try {
            Object value = future.get(max.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError(what + " completed with " + value + ", expected it to fail");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not complete within " + max);
        }
    }

    private List<String> residueIfInspect(String name) {
        return backend().capabilities().contains(TckBackend.Capability.INSPECT) ? backend().residue(name) : List.of();
    }

    /**
     * For every thread-free kind declared (the non-reentrant mutex, the semaphore of one permit, the thread-free write
     * half), {@code acquireAsync(10 s)} of a free lock completes with a {@code HELD} lease naming the lock, and another
     * client's {@code tryAcquire()} is empty. Released by another thread within 2 s it is {@code RELEASED}; another
     * client's {@code tryAcquireAsync(10 s)} then gets the lock, and (INSPECT) nothing is left.
     */
    @Test
    @Diagnosis("The future runs LockBackend.acquire on a thread the engine starts, and the test releases from yet "
            + "another: a grant or BackendLease.release bound to the calling thread (a thread-owned client lock, "
            + "thread-local state) fails here.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, SEMAPHORE, THREAD_FREE, ASYNC})
    @Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§23.1 acquireAsync of a free lock completes with a HELD lease that any thread may release, for every thread-free kind")
    default void asyncGrantedFutureHoldsALease() throws InterruptedException {
        List<AsyncKind> kinds = asyncKinds();
        LockService a = openClient();
        LockService b = openClient();
        for (AsyncKind kind : kinds) {
            String name = uniqueName("async-grant-" + kind);
            Lease lease = Async.await(kind.of(a, name).acquireAsync(WAIT), WAIT.plus(BOUND), kind + ": acquireAsync");
            assertEquals(LeaseState.HELD, lease.state(), kind + ": the granted lease");
            assertEquals(name, lease.lockName());
            assertTrue(kind.of(b, name).tryAcquire().isEmpty(), kind + ": another client got the lock the future holds");
            Async.start("releaser", () -> {
                lease.release();
                return null;
            }).get(BOUND);
            assertEquals(LeaseState.RELEASED, lease.state(), kind + ": released by another thread");
            Optional<Lease> next = Async.await(kind.of(b, name).tryAcquireAsync(WAIT), WAIT.plus(BOUND),
                    kind + ": tryAcquireAsync after the release");
            assertTrue(next.isPresent(), kind + ": the lock released by another thread was not freed");
            next.get().release();
            if (!residueIfInspect(name).isEmpty()) {
                fail(kind + ": state left after release: " + backend().residue(name));
            }
        }
    }

    /**
     * For every thread-free kind declared, another client holds the lock: {@code acquireAsync(100 ms)} completes
     * exceptionally with {@code LockTimeoutException} ({@code timeout()} 100 ms, the message naming the lock) within
     * 100 to 800 ms of the call, and {@code tryAcquireAsync(100 ms)} completes empty in the same window.
     */
    @Test
    @Diagnosis("The timeout counts from the call and ends with LockBackend.acquire returning null at its Deadline: "
            + "look for a wait that overshoots it (see §5.2), in the path of each thread-free kind.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, SEMAPHORE, THREAD_FREE, ASYNC}, shapes = ONE_WAITER)
    @Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§23.2 acquireAsync(timeout) of a held lock fails with LockTimeoutException and tryAcquireAsync(timeout) completes empty, within timeout plus the overshoot bound")
    default void asyncTimedFutureTimesOut() throws InterruptedException {
        List<AsyncKind> kinds = asyncKinds();
        LockService a = openClient();
        LockService b = openClient();
        for (AsyncKind kind : kinds) {
            String name = uniqueName("async-timeout-" + kind);
            Lease held = kind.of(a, name).acquire(WAIT);
            long start = System.nanoTime();
            CompletableFuture<Lease> timed = kind.of(b, name).acquireAsync(TIMED);
            Throwable failure = failureOf(timed, TIMED.plus(OVERSHOOT).plus(BOUND), kind + ": acquireAsync(" + TIMED + ")");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertInstanceOf(LockTimeoutException.class, failure, kind + ": acquireAsync's failure");
            assertEquals(TIMED, ((LockTimeoutException) failure).timeout(), kind + ": the exception's timeout");
            assertTrue(failure.getMessage().contains(name), kind + ": the message names the lock: " + failure.getMessage());
            assertBetween(took, TIMED, TIMED.plus(OVERSHOOT), kind + ": acquireAsync(" + TIMED + ") of a held lock");
            start = System.nanoTime();
            Optional<Lease> empty = Async.await(kind.of(b, name).tryAcquireAsync(TIMED), TIMED.plus(OVERSHOOT).plus(BOUND),
                    kind + ": tryAcquireAsync(" + TIMED + ")");
            assertBetween(Duration.ofNanos(System.nanoTime() - start), TIMED, TIMED.plus(OVERSHOOT),
                    kind + ": tryAcquireAsync(" + TIMED + ") of a held lock");
            assertTrue(empty.isEmpty(), kind + ": tryAcquireAsync got a held lock");
            held.release();
        }
    }

    /**
     * For every thread-free kind declared, another client holds the lock and {@code acquireAsync(60 s)} waits (its
     * thread parked or in I/O, or (INSPECT) its entry shown). {@code cancel(true)} returns true, the future's thread
     * ends within 2 s and (INSPECT) the server state is the holder's alone within 2 s. After the release the cancelling
     * client, then the holder's, acquires within 10 s, and nothing is left.
     */
    @Test
    @Diagnosis("Cancelling interrupts the thread waiting in LockBackend.acquire: the wait must end on the interrupt "
            + "and delete its entry (see §5.5), also in a semaphore's second step; a thread still alive is blocked in "
            + "a client call that ignores interrupts.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, SEMAPHORE, THREAD_FREE, ASYNC}, shapes = ONE_WAITER)
    @Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§23.3 cancelling a waiting future ends its wait, leaves nothing on the server, and the lock then passes normally")
    default void asyncCancelLeavesNothing() throws InterruptedException {
        List<AsyncKind> kinds = asyncKinds();
        LockService a = openClient();
        LockService b = openClient();
        for (AsyncKind kind : kinds) {
            String name = uniqueName("async-cancel-" + kind);
            Lease held = kind.of(a, name).acquire(WAIT);
            List<String> holderOnly = residueIfInspect(name);
            Set<Thread> before = Async.asyncThreads();
            CompletableFuture<Lease> waiting = kind.of(b, name).acquireAsync(WAIT.multipliedBy(6));
            Thread thread = Async.awaitAsyncWaiting(backend(), name, before, new HashSet<>(holderOnly), BOUND);
            assertTrue(waiting.cancel(true), kind + ": cancel() of a waiting future returned false");
            assertTrue(waiting.isCancelled(), kind + ": the future is not cancelled");
            if (thread != null) {
                thread.join(BOUND.toMillis());
                assertFalse(thread.isAlive(), kind + ": the acquisition's thread still runs " + BOUND
                        + " after cancel(), in:\n" + Async.stack(thread));
            }
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                Poll.until(kind + ": the server state after cancel()", holderOnly, () -> backend().residue(name), BOUND);
            }
            held.release();
            Optional<Lease> next = kind.of(b, name).tryAcquire(WAIT);
            assertTrue(next.isPresent(), kind + ": the lock did not pass to the cancelling client after the release");
            next.get().release();
            Optional<Lease> third = kind.of(a, name).tryAcquire(WAIT);
            assertTrue(third.isPresent(), kind + ": the lock did not pass on");
            third.get().release();
            assertEquals(List.of(), residueIfInspect(name), kind + ": state left after every release");
        }
    }

    /**
     * Twenty rounds on the first thread-free kind declared: a client holds, another's {@code acquireAsync(60 s)} waits,
     * and the holder releases while a third thread cancels the future after i times 0.5 ms, so that the grant wins some
     * races. Where the grant wins, its lease is released; either way a third client acquires within 10 s, and (INSPECT)
     * nothing is left at the end. The run prints how many races the grant won.
     */
    @Test
    @Diagnosis("An interrupt that lands after the server granted but before LockBackend.acquire returns must give the "
            + "grant back: delete the node or key made in that window (Curator's semaphore leaves its lease node when "
            + "interrupted there) before throwing InterruptedException.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, ASYNC}, shapes = ONE_WAITER)
    @Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(kinds = {SEMAPHORE, THREAD_FREE}, reason = "the race of a grant against a cancel is the engine's, "
            + "the same for every thread-free kind: run on the first declared")
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§23.4 a grant that races the cancel is released, never leaked: twenty races in a row leave the lock free")
    default void asyncGrantRacingCancelNeverLeaks() throws InterruptedException {
        AsyncKind kind = asyncKinds().get(0);
        String name = uniqueName("async-race");
        AsyncAcquirable holder = kind.of(openClient(), name);
        AsyncAcquirable racer = kind.of(openClient(), name);
        AsyncAcquirable checker = kind.of(openClient(), name);
        int granted = 0;
        for (int round = 0; round < 20; round++) {
            Lease held = holder.acquire(WAIT);
            List<String> holderOnly = residueIfInspect(name);
            Set<Thread> before = Async.asyncThreads();
            CompletableFuture<Lease> waiting = racer.acquireAsync(WAIT.multipliedBy(6));
            Async.awaitAsyncWaiting(backend(), name, before, new HashSet<>(holderOnly), BOUND);
            CountDownLatch go = new CountDownLatch(1);
            long spread = TimeUnit.MICROSECONDS.toNanos(500L * round); // 0 to 9.5 ms: the grant wins some races
            Async<Boolean> canceller = Async.start("canceller", () -> {
                go.await();
                java.util.concurrent.locks.LockSupport.parkNanos(spread);
                return waiting.cancel(true);
            });
            go.countDown();
            held.release();
            canceller.get(BOUND);
            if (!waiting.isCancelled()) {
                granted++;
                Async.await(waiting, WAIT, kind + " round " + round + ": the future that won the race").release();
            }
            Optional<Lease> free = checker.tryAcquire(WAIT);
            if (free.isEmpty()) {
                fail(kind + " round " + round + ": the lock stayed held after the race (the future "
                        + (waiting.isCancelled() ? "was cancelled" : "won") + "): a leaked lease"
                        + (backend().capabilities().contains(TckBackend.Capability.INSPECT)
                        ? "; the server shows " + backend().residue(name) : ""));
            }
            free.get().release();
        }
        assertEquals(List.of(), residueIfInspect(name), kind + ": state left after the races");
        System.out.println("[§23 figures] §23.4 provider '" + provider().name() + "': the grant won " + granted
                + " of 20 races");
    }

    /**
     * For every thread-free kind declared, a client's future waits for another client's lease. Closing the waiting
     * client fails every future with {@code IllegalStateException} within 2 s, their threads end within 2 s of the
     * close, (INSPECT) the server shows the holders' entries alone, and after the holders release another client
     * acquires each lock within 10 s.
     */
    @Test
    @Diagnosis("The engine fails the futures; their threads end only when LockBackend.close wakes the acquisitions "
            + "waiting in it, which must then delete their entries and throw IllegalStateException (see §8.5).")
    @Covers(kinds = {NON_REENTRANT_MUTEX, SEMAPHORE, THREAD_FREE, ASYNC}, shapes = ONE_WAITER)
    @Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§23.5 close() fails every pending future with IllegalStateException, ends its wait and leaves nothing on the server")
    default void asyncCloseFailsPendingFutures() throws InterruptedException {
        List<AsyncKind> kinds = asyncKinds();
        LockService a = openClient();
        LockService b = openClient();
        List<CompletableFuture<Lease>> pending = new ArrayList<>();
        List<Lease> held = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<List<String>> holderOnly = new ArrayList<>();
        Set<Thread> waiters = new HashSet<>();
        for (AsyncKind kind : kinds) {
            String name = uniqueName("async-close-" + kind);
            names.add(name);
            held.add(kind.of(a, name).acquire(WAIT));
            holderOnly.add(residueIfInspect(name));
            Set<Thread> before = Async.asyncThreads();
            pending.add(kind.of(b, name).acquireAsync(WAIT.multipliedBy(6)));
            Thread t = Async.awaitAsyncWaiting(backend(), name, before, new HashSet<>(holderOnly.get(holderOnly.size() - 1)), BOUND);
            if (t != null) {
                waiters.add(t);
            }
        }
        long start = System.nanoTime();
        b.close();
        for (int i = 0; i < kinds.size(); i++) {
            Throwable failure = failureOf(pending.get(i), BOUND, kinds.get(i) + ": the pending future after close()");
            assertInstanceOf(IllegalStateException.class, failure, kinds.get(i) + ": the pending future's failure");
        }
        for (Thread t : waiters) {
            t.join(Math.max(1, BOUND.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
            assertFalse(t.isAlive(), "an acquisition thread outlived close() by " + BOUND + ", in:\n" + Async.stack(t));
        }
        for (int i = 0; i < kinds.size(); i++) {
            String name = names.get(i);
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                assertEquals(holderOnly.get(i), backend().residue(name), kinds.get(i) + ": the closed waiter left state");
            }
            held.get(i).release();
            Optional<Lease> next = kinds.get(i).of(openClient(), name).tryAcquire(WAIT);
            assertTrue(next.isPresent(), kinds.get(i) + ": the lock did not pass on after close()");
            next.get().release();
        }
    }

    /**
     * Thread-free read halves share: two in one client, one in another, and a {@code readWriteLock} reader of a third
     * client; that client's {@code readWriteLock} writer and a thread-free writer of the first are refused. A
     * thread-free writer acquired with {@code acquireAsync} waits until the three readers, released one by one by other
     * threads, have left; it then excludes thread-free readers and writers and thread-bound readers; released by
     * another thread, the lock passes to a thread-bound writer within 10 s; (INSPECT) nothing is left.
     */
    @Test
    @Diagnosis("Each thread-free read is its own LockBackend.acquire of LockKind.READ without heldWrite: two reads of "
            + "one client must share, and that client's writer must wait for them. Releases come from any thread; "
            + "thread-free and thread-bound halves share one server state.")
    @Covers(kinds = {READ, WRITE, THREAD_FREE, ASYNC}, shapes = {ONE_WAITER, MIXED_KINDS})
    @CoveredBy(value = "§14.5", shapes = SEVERAL_WAITERS)
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, SEMAPHORE}, reason = Why.READ_WRITE_ONLY)
    @DisplayName("§23.6 thread-free read-write halves: readers share and a writer excludes, across clients and with readWriteLock; any thread releases; a writer acquired asynchronously waits for the readers")
    default void threadFreeReadWriteSharesAndExcludes() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("async-rw");
        LockService a = openClient();
        LockService b = openClient();
        LockService c = openClient();
        ThreadFreeReadWriteLock mine = a.threadFreeReadWriteLock(name);
        assertTrue(mine == a.threadFreeReadWriteLock(name) && mine.readLock() == mine.readLock()
                && mine.writeLock() == mine.writeLock(), "handles are not cached");
        Lease r1 = mine.readLock().acquire(WAIT);
        Lease r2 = mine.readLock().tryAcquire().orElseThrow(() -> new AssertionError("a second read in one client was refused"));
        Lease r3 = b.threadFreeReadWriteLock(name).readLock().tryAcquire()
                .orElseThrow(() -> new AssertionError("readers of two clients do not share"));
        Optional<Lease> boundRead = c.readWriteLock(name).readLock().tryAcquire();
        assertTrue(boundRead.isPresent(), "readWriteLock's reader does not share with thread-free readers");
        boundRead.get().release();
        assertTrue(c.readWriteLock(name).writeLock().tryAcquire().isEmpty(), "readWriteLock's writer got in past readers");
        assertTrue(mine.writeLock().tryAcquire().isEmpty(), "a thread-free writer got in past readers (its own client's)");
        CompletableFuture<Lease> writer = b.threadFreeReadWriteLock(name).writeLock().acquireAsync(WAIT.multipliedBy(3));
        List<Lease> readers = List.of(r1, r2, r3);
        for (Lease r : readers) {
            assertFalse(writer.isDone(), "the writer got in while a reader held: " + writer);
            Async.start("releaser", () -> {
                r.release();
                return null;
            }).get(BOUND);
            assertEquals(LeaseState.RELEASED, r.state());
        }
        Lease w = Async.await(writer, WAIT, "the waiting writer after the last reader left");
        assertEquals(LeaseState.HELD, w.state());
        assertTrue(mine.readLock().tryAcquire().isEmpty(), "a thread-free reader got in past a writer");
        assertTrue(c.readWriteLock(name).readLock().tryAcquire().isEmpty(), "readWriteLock's reader got in past a writer");
        assertTrue(mine.writeLock().tryAcquire().isEmpty(), "a second writer got in");
        Async.start("releaser", () -> {
            w.release();
            return null;
        }).get(BOUND);
        Optional<Lease> after = c.readWriteLock(name).writeLock().tryAcquire(WAIT);
        assertTrue(after.isPresent(), "the write released by another thread was not freed");
        after.get().release();
        assertEquals(List.of(), residueIfInspect(name), "state left after every release");
    }
}
