package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryProvider;

/** {@link StopWork}: locked work interrupted when its lease is lost (or uncertain), and nothing more. */
class StopWorkTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
    }

    /** A task that waits interruptibly until stopped, after saying it started. */
    private static LockedTask<String, InterruptedException> waitsUntilStopped(CountDownLatch started) {
        return lease -> {
            started.countDown();
            Thread.sleep(WAIT.toMillis() * 2);
            return "not stopped";
        };
    }

    /** Loses the last lease granted once the task has started, from another thread. */
    private void loseOnceStarted(CountDownLatch started) {
        start("loser", () -> {
            assertTrue(started.await(5, TimeUnit.SECONDS));
            backend.lose(backend.lastGranted());
            return null;
        });
    }

    @Test
    void stopsTellsWhichStatesStopWork() {
        assertEquals(List.of(false, false, true, false), statesStopping(StopWork.WHEN_LOST));
        assertEquals(List.of(false, true, true, false), statesStopping(StopWork.WHEN_NOT_HELD));
        assertEquals(List.of(false, false, false, false), statesStopping(StopWork.NEVER));
        assertThrows(NullPointerException.class, () -> StopWork.WHEN_LOST.stops(null));
    }

    private static List<Boolean> statesStopping(StopWork stop) {
        return List.of(LeaseState.values()).stream().map(stop::stops).toList();
    }

    @Test
    void aLossInterruptsTheTaskAndEndsTheWorkWithLeaseLostException() {
        CountDownLatch started = new CountDownLatch(1);
        loseOnceStarted(started);
        long start = System.nanoTime();
        LeaseLostException e = assertThrows(LeaseLostException.class,
                () -> service.mutex("job").executeLocked(WAIT, StopWork.WHEN_LOST, waitsUntilStopped(started)));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(WAIT) < 0, "stopped, not timed out");
        assertEquals(LeaseState.LOST, e.state());
        assertEquals("job", e.lockName());
        assertInstanceOf(InterruptedException.class, e.getSuppressed()[0], "the task's own exception is kept");
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt does not outlive the task");
        assertEquals(1, backend.releaseCalls(), "the lease is released");
        assertFalse(service.mutex("job").isHeldByCurrentThread());
    }

    @Test
    void anUncertainLeaseStopsOnlyWhenNotHeld() throws InterruptedException {
        AtomicInteger steps = new AtomicInteger();
        String value = service.mutex("u").executeLocked(WAIT, StopWork.WHEN_LOST, lease -> {
            backend.events().connectionSuspended();
            assertEquals(LeaseState.UNCERTAIN, lease.state());
            Thread.sleep(50); // not interrupted: UNCERTAIN is not LOST
            backend.events().connectionRestored();
            steps.incrementAndGet();
            return "done";
        });
        assertEquals("done", value);
        assertEquals(1, steps.get());

        CountDownLatch started = new CountDownLatch(1);
        start("suspender", () -> {
            assertTrue(started.await(5, TimeUnit.SECONDS));
            backend.events().connectionSuspended();
            return null;
        });
        LeaseLostException e = assertThrows(LeaseLostException.class,
                () -> service.mutex("u").executeLocked(WAIT, StopWork.WHEN_NOT_HELD, waitsUntilStopped(started)));
        assertEquals(LeaseState.UNCERTAIN, e.state());
        assertFalse(Thread.interrupted());
        backend.events().connectionRestored();
    }

    @Test
    void neverLeavesTheTaskRunningAsBefore() throws InterruptedException {
        String value = service.mutex("n").executeLocked(WAIT, StopWork.NEVER, lease -> {
            backend.lose(backend.lastGranted());
            Thread.sleep(50); // not interrupted
            return lease.state().toString();
        });
        assertEquals("LOST", value);
    }

    @Test
    void aTaskThatIgnoresTheInterruptIsStillReportedStopped() {
        LeaseLostException e = assertThrows(LeaseLostException.class,
                () -> service.nonReentrantMutex("busy").executeLocked(WAIT, StopWork.WHEN_LOST, lease -> {
                    backend.lose(backend.lastGranted());
                    long end = System.nanoTime() + WAIT.toNanos();
                    while (!Thread.currentThread().isInterrupted() && System.nanoTime() - end < 0) {
                        Thread.onSpinWait(); // a computation that looks at the flag
                    }
                    return "returned";
                }));
        assertEquals(0, e.getSuppressed().length, "the task returned: nothing to keep");
        assertFalse(Thread.interrupted());
    }

    /** The loss races the task's return: either the work is reported stopped or it returned, never an interrupt left. */
    @Test
    void aLossAtTheEndOfTheTaskNeverLeavesAnInterruptBehind() throws InterruptedException {
        int stopped = 0;
        for (int i = 0; i < 200; i++) {
            try {
                service.nonReentrantMutex("race").executeLocked(WAIT, StopWork.WHEN_LOST, lease -> {
                    org.lockspi.fixture.MemoryBackend.MemoryLease granted = backend.lastGranted();
                    start("loser-" + lease.fencingToken(), () -> {
                        backend.lose(granted);
                        return null;
                    });
                    return null;
                });
            } catch (LeaseLostException e) {
                stopped++;
            }
            assertFalse(Thread.interrupted(), "round " + i + ": an interrupt outlived the task");
        }
        System.out.println("[stop-work] the loss stopped " + stopped + " of 200 tasks that were returning");
    }

    @Test
    void withoutLossNotificationTheTaskDoesNotRun() throws InterruptedException {
        MemoryProvider silent = new MemoryProvider("silent", Set.of("mem"), 0,
                EnumSet.of(LockFeature.REENTRANT_MUTEX, LockFeature.FENCING_TOKENS));
        try (LockService s = Locks.open("mem://silent", silent)) {
            AtomicInteger runs = new AtomicInteger();
            assertTrue(assertThrows(UnsupportedOperationException.class,
                    () -> s.mutex("a").executeLocked(WAIT, StopWork.WHEN_LOST, runs::incrementAndGet)).getMessage()
                    .contains("LOST_NOTIFICATION"));
            assertEquals(0, runs.get());
            assertFalse(s.mutex("a").isHeldByCurrentThread());
            assertEquals(1, silent.lastBackend().releaseCalls());
            assertEquals(Integer.valueOf(7), s.mutex("a").executeLocked(WAIT, StopWork.NEVER, lease -> 7));
        }
    }

    @Test
    void callRefusesALeaseThatAlreadyStopsWork() throws InterruptedException {
        Lease lease = service.mutex("c").acquire(WAIT);
        backend.lose(backend.lastGranted());
        AtomicInteger runs = new AtomicInteger();
        assertEquals(LeaseState.LOST, assertThrows(LeaseLostException.class,
                () -> StopWork.WHEN_LOST.call(lease, l -> runs.incrementAndGet())).state());
        assertEquals(0, runs.get());
        assertThrows(NullPointerException.class, () -> StopWork.WHEN_LOST.call(null, l -> 1));
        lease.release();
    }

    // ---- the asynchronous form ---------------------------------------------------------------------------------

    @Test
    void theAsyncFormCompletesWithTheValueAfterTheRelease() throws Exception {
        CompletableFuture<Long> f = service.semaphore("s", 1).executeLockedAsync(WAIT, StopWork.WHEN_LOST,
                Lease::fencingToken, pool);
        assertTrue(f.get(5, TimeUnit.SECONDS) > 0);
        assertEquals(1, backend.releaseCalls());
        assertThrows(NullPointerException.class,
                () -> service.semaphore("s", 1).executeLockedAsync(WAIT, StopWork.WHEN_LOST, l -> 1, null));
        assertThrows(IllegalArgumentException.class, () -> service.semaphore("s", 1)
                .executeLockedAsync(Duration.ofMillis(-1), StopWork.WHEN_LOST, l -> 1, pool));
    }

    @Test
    void theAsyncFormIsStoppedByALossAndItsThreadIsLeftClean() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        loseOnceStarted(started);
        CompletableFuture<String> f = service.nonReentrantMutex("async").executeLockedAsync(WAIT,
                StopWork.WHEN_LOST, waitsUntilStopped(started), pool);
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
        LeaseLostException lost = assertInstanceOf(LeaseLostException.class, e.getCause());
        assertEquals(LeaseState.LOST, lost.state());
        assertInstanceOf(InterruptedException.class, lost.getSuppressed()[0]);
        assertEquals(1, backend.releaseCalls());
        assertFalse(pool.submit(() -> Thread.currentThread().isInterrupted()).get(5, TimeUnit.SECONDS),
                "the executor's thread is not left interrupted");
    }

    @Test
    void cancellingTheAsyncFormInterruptsTheTaskAndReleasesWhenItEnds() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch mayEnd = new CountDownLatch(1);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        CompletableFuture<String> f = service.nonReentrantMutex("cancel").executeLockedAsync(WAIT, StopWork.NEVER,
                lease -> {
                    started.countDown();
                    try {
                        Thread.sleep(WAIT.toMillis() * 2);
                    } catch (InterruptedException e) {
                        seen.set(e);
                    }
                    mayEnd.await(); // a task that cleans up before it ends: the lock is still its own
                    return "ended";
                }, pool);
        assertTrue(started.await(5, TimeUnit.SECONDS));
        assertTrue(f.cancel(true));
        LockService other = otherClient();
        long end = System.nanoTime() + WAIT.toNanos();
        while (seen.get() == null && System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
        assertInstanceOf(InterruptedException.class, seen.get(), "the task's thread was interrupted");
        assertTrue(other.nonReentrantMutex("cancel").tryAcquire().isEmpty(), "held until the task ends");
        mayEnd.countDown();
        assertTrue(other.nonReentrantMutex("cancel").tryAcquire(WAIT).isPresent(), "released once it ended");
    }

    @Test
    void theAsyncFormTimesOutWithoutRunning() throws Exception {
        Lease held = otherClient().nonReentrantMutex("t").acquire();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Integer> f = service.nonReentrantMutex("t").executeLockedAsync(Duration.ofMillis(50),
                StopWork.WHEN_LOST, l -> runs.incrementAndGet(), pool);
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
        assertInstanceOf(LockTimeoutException.class, e.getCause());
        assertEquals(0, runs.get());
        held.release();
    }
}
