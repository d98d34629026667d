package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.requireAbsent;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.LockedTask;
import org.lockspi.StopWork;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.AsyncKind;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §21.5 to §21.8 Work stopped on loss: {@code executeLocked(timeout, StopWork, task)} and
 * {@code executeLockedAsync} interrupt the task's thread when the lease turns {@code LOST} (or, with
 * {@code WHEN_NOT_HELD}, {@code UNCERTAIN}), and only then.
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface StoppedWorkContracts extends TckContext {

    /** The kind a loss is forced on: the mutex where declared, else the first declared. */
    private Kind lossKind() {
        List<Kind> kinds = requireSomeKind(provider());
        return kinds.contains(Kind.MUTEX) ? Kind.MUTEX : kinds.get(0);
    }

    /**
     * A task that says it started, listens to its lease (the instant of its first change to a state that stops
     * the work goes to {@code lostAt}, and {@code heard} counts down), then waits interruptibly for twice {@code C},
     * and records when the interrupt came.
     */
    private LockedTask<String, InterruptedException> waitsForTheInterrupt(CountDownLatch started, AtomicLong lostAt,
                                                                          CountDownLatch heard,
                                                                          AtomicLong interruptedAt, StopWork stop) {
        long longest = crashReleaseBound().multipliedBy(2).toMillis();
        return lease -> {
            lease.addListener((l, previous, current) -> {
                if (stop.stops(current) && lostAt.compareAndSet(0, System.nanoTime())) {
                    heard.countDown();
                }
            });
            started.countDown();
            try {
                Thread.sleep(longest);
            } catch (InterruptedException e) {
                interruptedAt.set(System.nanoTime());
                throw e;
            }
            return "not interrupted within " + longest + " ms";
        };
    }

    /**
     * (LOST_NOTIFICATION) For every declared kind, {@code executeLocked(10 s, WHEN_LOST, task)} and
     * {@code (..., WHEN_NOT_HELD, task)} on a healthy lease run the task (which waits 100 ms, interruptibly) to its end
     * and return its value; the task is not interrupted, the calling thread's interrupt flag is clear afterwards, and
     * another client acquires the lock at once. (NON_REENTRANT_MUTEX, SEMAPHORE) {@code executeLockedAsync} of the
     * thread-free kinds completes with the task's value, run on the executor given, and the lock is free after.
     */
    @Test
    @Diagnosis("Work is interrupted only when the lease's listeners hear LOST (or UNCERTAIN): a task interrupted on "
            + "a healthy lease means the lease left HELD, so look at BackendLease.confirmedUntilNanos/validUntilNanos "
            + "(deadlines already past) and at connectionSuspended calls without cause.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, THREAD_FREE, ASYNC})
    @Inapplicable(kinds = READ, reason = "executeLocked is Acquirable's default method, one piece of code for every "
            + "kind: the read half runs it like the write half")
    @DisplayName("§21.5 work under WHEN_LOST or WHEN_NOT_HELD runs to its end on a healthy lease, uninterrupted")
    default void stoppableWorkRunsToItsEnd() throws Exception {
        requireFeature(LockFeature.LOST_NOTIFICATION);
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        LockService other = openClient();
        for (Kind kind : kinds) {
            for (StopWork stop : List.of(StopWork.WHEN_LOST, StopWork.WHEN_NOT_HELD)) {
                String name = uniqueName("stoppable-" + kind);
                String value = kind.of(client, name).executeLocked(WAIT, stop, lease -> {
                    Thread.sleep(100); // the work: interruptible, so an interrupt would end it
                    return "done " + lease.lockName();
                });
                assertEquals("done " + name, value, kind + ", " + stop);
                assertFalse(Thread.currentThread().isInterrupted(), kind + ", " + stop + ": interrupt flag left set");
                Optional<Lease> next = kind.of(other, name).tryAcquire(BOUND);
                assertTrue(next.isPresent(), kind + ", " + stop + ": the lock was not free after the work");
                next.get().release();
            }
        }
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (AsyncKind kind : AsyncKind.supported(provider().features())) {
                String name = uniqueName("stoppable-async-" + kind);
                CompletableFuture<String> f = kind.of(client, name).executeLockedAsync(WAIT, StopWork.WHEN_LOST,
                        lease -> Thread.currentThread().getName(), pool);
                String ranOn = f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertEquals(pool.submit(() -> Thread.currentThread().getName()).get(), ranOn, kind + ": the task "
                        + "ran on a thread that is not the executor's");
                Optional<Lease> next = kind.of(other, name).tryAcquire(BOUND);
                assertTrue(next.isPresent(), kind + ": the lock was not free after the asynchronous work");
                next.get().release();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * (LOST_NOTIFICATION, FORCE_LOSS) A client runs {@code executeLocked(10 s, WHEN_LOST, task)} on the mutex (or the
     * first declared kind); the task listens to its lease and waits interruptibly; {@code forceLoss} ends the lease
     * behind its back. The task sees the interrupt within {@code C} of the {@code forceLoss}, and within 2 s of its
     * lease's listener hearing {@code LOST}; {@code executeLocked} throws {@code LeaseLostException} with state
     * {@code LOST} and the task's {@code InterruptedException} suppressed (and, stopped while the connection is down,
     * the release's {@code LockConnectionException}); the thread's interrupt flag is clear; another
     * client acquires within {@code C}. Then the same with {@code WHEN_NOT_HELD}: the interrupt comes with the first
     * state that is not {@code HELD} ({@code UNCERTAIN} or {@code LOST}), and the exception carries it. Prints both
     * latencies.
     */
    @Test
    @Diagnosis("The interrupt is sent when the lease's listeners hear of the loss: a late or missing interrupt is a "
            + "late or missing loss report (BackendLease.isLost, BackendEvents.leaseLost, §12.1) or validity deadlines "
            + "the backend does not keep (validUntilNanos, §17.2).")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§21.7", kinds = ASYNC)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE}, reason = "the interrupt is the "
            + "engine's, one listener on the lease whatever its kind, tested through the mutex (or the first kind "
            + "declared); that every kind reports its loss in time is §12.1's")
    @DisplayName("§21.6 a loss interrupts work under WHEN_LOST (or WHEN_NOT_HELD) within the bound, and the work ends "
            + "with LeaseLostException")
    default void aLossInterruptsTheWork() throws InterruptedException {
        requireFeature(LockFeature.LOST_NOTIFICATION);
        Kind kind = lossKind();
        requireCapability(TckBackend.Capability.FORCE_LOSS);
        StringBuilder figures = new StringBuilder();
        for (StopWork stop : List.of(StopWork.WHEN_LOST, StopWork.WHEN_NOT_HELD)) {
            String name = uniqueName("stopped-" + kind);
            Acquirable lock = kind.of(openClient(), name);
            CountDownLatch started = new CountDownLatch(1);
            AtomicLong lostAt = new AtomicLong();
            CountDownLatch heard = new CountDownLatch(1);
            AtomicLong interruptedAt = new AtomicLong();
            Async<Throwable> work = Async.start("stopped-work", () -> {
                try {
                    return new AssertionError("returned " + lock.executeLocked(WAIT, stop,
                            waitsForTheInterrupt(started, lostAt, heard, interruptedAt, stop)));
                } catch (Exception e) {
                    return Thread.currentThread().isInterrupted() ? new AssertionError("flag left set", e) : e;
                }
            });
            assertTrue(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the task did not start");
            long forced = System.nanoTime();
            backend().forceLoss(name);
            Throwable outcome = work.get(crashReleaseBound().multipliedBy(2).plus(WAIT));
            LeaseLostException e = assertInstanceOf(LeaseLostException.class, outcome, stop + ": the outcome");
            assertTrue(stop.stops(e.state()), stop + ": stopped by " + e.state());
            assertEquals(name, e.lockName());
            // the task's InterruptedException is kept; stopped at UNCERTAIN, the release may have found the
            // connection down (LockConnectionException, suppressed too: the lease is released locally)
            List<Throwable> suppressed = List.of(e.getSuppressed());
            assertTrue(!suppressed.isEmpty() && suppressed.get(0) instanceof InterruptedException
                    && suppressed.stream().skip(1).allMatch(LockConnectionException.class::isInstance),
                    stop + ": the task's InterruptedException is kept: " + suppressed);
            assertTrue(heard.await(BOUND.toMillis(), TimeUnit.MILLISECONDS), stop + ": the lease's listener did not "
                    + "hear " + e.state() + " within " + BOUND + " of the work's end");
            Duration sinceLoss = Duration.ofNanos(interruptedAt.get() - forced);
            Duration afterListener = Duration.ofNanos(interruptedAt.get() - lostAt.get());
            assertTrue(sinceLoss.compareTo(crashReleaseBound()) <= 0, stop + ": interrupted " + sinceLoss.toMillis()
                    + " ms after forceLoss, more than C = " + crashReleaseBound().toMillis() + " ms");
            assertTrue(afterListener.compareTo(BOUND) <= 0, stop + ": interrupted "
                    + afterListener.toMillis() + " ms after the listener heard " + e.state());
            figures.append(String.format(" %s: forceLoss -> %s %d ms, -> interrupt %d ms (%+d ms from the listener);",
                    stop, e.state(), Duration.ofNanos(lostAt.get() - forced).toMillis(), sinceLoss.toMillis(),
                    afterListener.toMillis()));
            Optional<Lease> next = kind.of(openClient(), name).tryAcquire(crashReleaseBound());
            assertTrue(next.isPresent(), stop + ": another client did not get the lock after the loss");
            next.get().release();
        }
        System.out.printf("[§21 figures] §21.6 provider '%s', T=%d ms, %s:%s%n", provider().name(),
                leaseSpan().toMillis(), kind, figures);
    }

    /**
     * (LOST_NOTIFICATION, FORCE_LOSS; NON_REENTRANT_MUTEX or SEMAPHORE) {@code executeLockedAsync(10 s, WHEN_LOST,
     * task, executor)} of a thread-free kind; the task waits interruptibly on the executor's thread; {@code forceLoss}.
     * Within {@code C} of it the future completes exceptionally with {@code LeaseLostException} (state {@code LOST}),
     * the task having been interrupted; the executor's thread is not left interrupted; another client acquires within
     * {@code C}.
     */
    @Test
    @Diagnosis("As §21.6, for the asynchronous form: the future completes once the interrupted task has ended and the "
            + "lease is released; a future that does not complete means the loss was never reported.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, ASYNC})
    @Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = "executeLockedAsync is for leases no thread owns; the thread-owned "
            + "kinds stop their work as §21.6 does")
    @Inapplicable(kinds = {SEMAPHORE, THREAD_FREE}, reason = "the stop is the engine's, one listener on the future's "
            + "lease whatever its kind, tested through the first thread-free kind declared; that every kind reports "
            + "its loss in time is §12.1's")
    @DisplayName("§21.7 a loss stops asynchronous work under WHEN_LOST: its future completes exceptionally within the "
            + "bound")
    default void aLossStopsAsynchronousWork() throws Exception {
        requireFeature(LockFeature.LOST_NOTIFICATION);
        List<AsyncKind> kinds = AsyncKind.supported(provider().features());
        if (kinds.isEmpty()) {
            requireFeature(LockFeature.NON_REENTRANT_MUTEX); // skips, naming the first of the thread-free kinds
        }
        requireCapability(TckBackend.Capability.FORCE_LOSS);
        AsyncKind kind = kinds.get(0);
        String name = uniqueName("stopped-async-" + kind);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch started = new CountDownLatch(1);
            AtomicLong interruptedAt = new AtomicLong();
            CompletableFuture<String> f = kind.of(openClient(), name).executeLockedAsync(WAIT, StopWork.WHEN_LOST,
                    waitsForTheInterrupt(started, new AtomicLong(), new CountDownLatch(1), interruptedAt,
                            StopWork.WHEN_LOST), pool);
            assertTrue(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the task did not start");
            long forced = System.nanoTime();
            backend().forceLoss(name);
            Throwable failure;
            try {
                failure = new AssertionError("completed with " + f.get(crashReleaseBound().toMillis(),
                        TimeUnit.MILLISECONDS));
            } catch (ExecutionException e) {
                failure = e.getCause();
            } catch (TimeoutException e) {
                failure = new AssertionError("the future did not complete within C = " + crashReleaseBound()
                        + " of forceLoss");
            }
            Duration took = Duration.ofNanos(System.nanoTime() - forced);
            LeaseLostException e = assertInstanceOf(LeaseLostException.class, failure, "the future's failure");
            assertEquals(LeaseState.LOST, e.state());
            assertTrue(interruptedAt.get() != 0, "the task was not interrupted");
            assertFalse(pool.submit(() -> Thread.currentThread().isInterrupted()).get(BOUND.toMillis(),
                    TimeUnit.MILLISECONDS), "the executor's thread was left interrupted");
            System.out.printf("[§21 figures] §21.7 provider '%s', %s: forceLoss -> future failed %d ms%n",
                    provider().name(), kind, took.toMillis());
            Optional<Lease> next = kind.of(openClient(), name).tryAcquire(crashReleaseBound());
            assertTrue(next.isPresent(), "another client did not get the lock after the loss");
            next.get().release();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Without LOST_NOTIFICATION, {@code executeLocked(10 s, WHEN_LOST, task)} and {@code (..., WHEN_NOT_HELD, task)}
     * throw {@code UnsupportedOperationException} within 2 s, the task not run, and the lock is free after;
     * {@code NEVER} runs the task. Skipped for a provider that declares LOST_NOTIFICATION.
     */
    @Test
    @Diagnosis("The refusal is the engine's (a lease of a provider without LOST_NOTIFICATION takes no listener); "
            + "a task that ran means the lock-api on the class path is not the kit's.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "the refusal "
            + "is the engine's, before a provider is asked, in one piece of code for every kind; the kit checks it "
            + "through the first kind declared")
    @DisplayName("§21.8 without LOST_NOTIFICATION, work that asks to be stopped on loss is refused and does not run")
    default void stoppableWorkNeedsLossNotification() throws InterruptedException {
        requireAbsent(provider(), LockFeature.LOST_NOTIFICATION);
        Kind kind = requireSomeKind(provider()).get(0);
        LockService client = openClient();
        String name = uniqueName("unstoppable");
        AtomicInteger runs = new AtomicInteger();
        for (StopWork stop : List.of(StopWork.WHEN_LOST, StopWork.WHEN_NOT_HELD)) {
            throwsWithin(UnsupportedOperationException.class, BOUND, "executeLocked(" + stop + ") without "
                    + "LOST_NOTIFICATION", () -> kind.of(client, name).executeLocked(WAIT, stop, runs::incrementAndGet));
        }
        assertEquals(0, runs.get(), "a task ran that asked to be stopped on a loss nobody reports");
        kind.of(client, name).executeLocked(WAIT, StopWork.NEVER, runs::incrementAndGet);
        assertEquals(1, runs.get());
        Optional<Lease> next = kind.of(openClient(), name).tryAcquire(BOUND);
        assertTrue(next.isPresent(), "the lock was not free after the refusal");
        next.get().release();
    }
}
