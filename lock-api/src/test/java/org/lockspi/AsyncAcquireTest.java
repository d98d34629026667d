package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AsyncAcquireTest extends EngineTestBase {
    private static final Duration LONG = Duration.ofSeconds(30);

    private static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(5, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletableFuture<?> f) throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
        return e.getCause();
    }

    /** A name outside the readable form reaches the backend as its key, for the thread-free halves too (§2.8). */
    @Test
    void threadFreeHalvesAskTheBackendForTheNamesKey() throws Exception {
        String name = "user:ann@example.com";
        ThreadFreeReadWriteLock lock = service.threadFreeReadWriteLock(name);
        get(lock.writeLock().acquireAsync(LONG)).release();
        lock.readLock().acquire().release();
        List<String> asked = backend.requests().stream().map(org.lockspi.spi.AcquireRequest::name).toList();
        assertEquals(List.of(org.lockspi.spi.LockKeys.key(name), org.lockspi.spi.LockKeys.key(name)), asked);
    }

    @Test
    void grantedFutureHoldsALeaseAnyThreadReleases() throws Throwable {
        for (AsyncAcquirable lock : List.of(service.nonReentrantMutex("m"), service.semaphore("s", 1),
                service.threadFreeReadWriteLock("rw").writeLock(), service.threadFreeReadWriteLock("rw").readLock())) {
            Lease lease = get(lock.acquireAsync(LONG));
            assertEquals(LeaseState.HELD, lease.state(), lock.toString());
            inOtherThread(() -> {
                lease.release();
                return null;
            });
            assertEquals(LeaseState.RELEASED, lease.state());
            assertEquals(0, backend.server().holderCount(lock.name()), lock.toString());
            Optional<Lease> again = get(lock.tryAcquireAsync(Duration.ZERO));
            assertTrue(again.isPresent());
            again.get().release();
        }
    }

    @Test
    void timedFutureFailsWithTimeoutOrEmpty() throws Exception {
        Lease held = otherClient().nonReentrantMutex("m").acquire();
        AsyncAcquirable lock = service.nonReentrantMutex("m");
        long start = System.nanoTime();
        Throwable timedOut = failure(lock.acquireAsync(Duration.ofMillis(100)));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertInstanceOf(LockTimeoutException.class, timedOut);
        assertEquals(Duration.ofMillis(100), ((LockTimeoutException) timedOut).timeout());
        assertTrue(took >= 100 && took < 800, "took " + took + " ms");
        assertEquals(Optional.empty(), get(lock.tryAcquireAsync(Duration.ofMillis(50))));
        assertEquals(1, backend.server().holderCount("m"));
        held.release();
    }

    @Test
    void argumentsAndClosedServiceFailAtOnce() {
        AsyncAcquirable lock = service.semaphore("s", 2);
        assertThrows(NullPointerException.class, () -> lock.acquireAsync(null));
        assertThrows(IllegalArgumentException.class, () -> lock.tryAcquireAsync(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> lock.acquireAsync(Acquirable.MAX_TIMEOUT.plusDays(1)));
        service.close();
        assertThrows(IllegalStateException.class, () -> lock.acquireAsync(LONG));
    }

    @Test
    void cancelEndsTheWaitAndLeavesNothing() throws Exception {
        Lease held = otherClient().nonReentrantMutex("m").acquire();
        CompletableFuture<Lease> waiting = service.nonReentrantMutex("m").acquireAsync(LONG);
        backend.server().awaitWaiting(1);
        assertTrue(waiting.cancel(true));
        assertThrows(CancellationException.class, waiting::join);
        awaitNoAsyncThreads();
        held.release();
        assertEquals(0, backend.server().holderCount("m"));
        Lease next = service.nonReentrantMutex("m").tryAcquire().orElseThrow();
        next.release();
    }

    @Test
    void orTimeoutEndsTheWaitToo() throws Exception {
        Lease held = otherClient().semaphore("s", 1).acquire();
        CompletableFuture<Lease> waiting = service.semaphore("s", 1).acquireAsync(LONG).orTimeout(50, TimeUnit.MILLISECONDS);
        assertInstanceOf(java.util.concurrent.TimeoutException.class, failure(waiting));
        awaitNoAsyncThreads();
        held.release();
        assertEquals(0, backend.server().holderCount("s"));
    }

    @Test
    void aGrantRacingTheCancelIsNeverLeaked() throws Exception {
        AsyncAcquirable other = otherClient().nonReentrantMutex("m");
        AsyncAcquirable mine = service.nonReentrantMutex("m");
        int granted = 0;
        for (int i = 0; i < 300; i++) {
            Lease held = other.acquire();
            CompletableFuture<Lease> waiting = mine.acquireAsync(LONG);
            CountDownLatch go = new CountDownLatch(1);
            Thread canceller = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                waiting.cancel(true);
            });
            canceller.start();
            go.countDown();
            held.release();
            canceller.join();
            if (!waiting.isCancelled()) {
                get(waiting).release();
                granted++;
            }
            awaitNoAsyncThreads();
            assertEquals(0, backend.server().holderCount("m"), "round " + i + ": a lease was left");
        }
        System.out.println("[async] grant raced the cancel and won " + granted + " of 300 rounds");
    }

    @Test
    void closeFailsPendingFuturesAndJoinsTheirThreads() throws Exception {
        Lease held = otherClient().nonReentrantMutex("m").acquire();
        List<CompletableFuture<Lease>> pending = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pending.add(service.nonReentrantMutex("m").acquireAsync(LONG));
        }
        backend.server().awaitWaiting(1); // one goes to the server, the others queue in the service
        awaitParkedAsyncThreads(20);
        service.close();
        for (CompletableFuture<Lease> f : pending) {
            assertInstanceOf(IllegalStateException.class, failure(f));
        }
        assertEquals(0, asyncThreads(), "threads alive after close");
        held.release();
        assertEquals(0, backend.server().holderCount("m"));
    }

    @Test
    void threadFreeReadWriteSharesAndExcludes() throws Exception {
        ThreadFreeReadWriteLock mine = service.threadFreeReadWriteLock("rw");
        ThreadFreeReadWriteLock theirs = otherClient().threadFreeReadWriteLock("rw");
        assertSame(mine, service.threadFreeReadWriteLock("rw"));
        assertSame(mine.readLock(), mine.readLock());
        Lease r1 = mine.readLock().acquire();
        Lease r2 = mine.readLock().tryAcquire().orElseThrow(); // readers share, in one client too
        Lease r3 = theirs.readLock().tryAcquire().orElseThrow();
        assertFalse(theirs.writeLock().tryAcquire().isPresent());
        assertFalse(mine.writeLock().tryAcquire().isPresent());
        CompletableFuture<Lease> writer = theirs.writeLock().acquireAsync(LONG);
        r1.release();
        r2.release();
        assertFalse(writer.isDone());
        r3.release();
        Lease w = get(writer);
        assertFalse(mine.readLock().tryAcquire().isPresent()); // a writer excludes
        assertFalse(mine.writeLock().tryAcquire().isPresent());
        w.release();
        assertThrows(IllegalArgumentException.class, () -> service.readWriteLock("rw"));
        service.mutex("m2");
        assertThrows(IllegalArgumentException.class, () -> service.threadFreeReadWriteLock("m2"));
    }

    @Test
    void threadFreeReadWriteNeedsReadWrite() {
        org.lockspi.fixture.MemoryProvider plain = new org.lockspi.fixture.MemoryProvider("plain", java.util.Set.of("mem"),
                0, java.util.EnumSet.of(LockFeature.NON_REENTRANT_MUTEX));
        try (LockService s = Locks.open("mem://engine/plain", plain)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> s.threadFreeReadWriteLock("rw"));
            assertTrue(e.getMessage().contains("READ_WRITE"), e.getMessage());
        }
    }

    private static void awaitParkedAsyncThreads(int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < end) {
            long parked = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("lockspi-async-") && t.getState() == Thread.State.WAITING
                            || t.getState() == Thread.State.TIMED_WAITING && t.getName().startsWith("lockspi-async-"))
                    .count();
            if (parked >= n) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("fewer than " + n + " acquisitions waiting");
    }

    @Test
    void oneServiceSendsOneExclusiveWaiterToTheServer() throws Throwable {
        Lease held = otherClient().nonReentrantMutex("m").acquire();
        List<CompletableFuture<Lease>> pending = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pending.add(service.nonReentrantMutex("m").acquireAsync(LONG));
        }
        awaitParkedAsyncThreads(5);
        assertEquals(1, backend.requests().size(), "requests that reached the server: " + backend.requests());
        held.release();
        for (CompletableFuture<Lease> f : pending) { // FIFO within the service; each releases for the next
            get(f).release();
        }
        assertEquals(5, backend.requests().size());
        assertEquals(0, backend.server().holderCount("m"));
        // a semaphore of 2 lets two through at a time
        Lease h1 = otherClient().semaphore("s", 2).acquire();
        Lease h2 = otherClient().semaphore("s", 2).acquire();
        int before = backend.requests().size();
        List<CompletableFuture<Lease>> sem = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sem.add(service.semaphore("s", 2).acquireAsync(LONG));
        }
        awaitParkedAsyncThreads(4);
        backend.awaitRequests(before + 2);
        assertEquals(before + 2, backend.requests().size());
        h1.release();
        h2.release();
        for (CompletableFuture<Lease> f : sem) {
            get(f).release();
        }
        // a timed acquisition waiting in the local queue times out there
        Lease mine = service.nonReentrantMutex("m").acquire();
        assertEquals(Optional.empty(), service.nonReentrantMutex("m").tryAcquire(Duration.ofMillis(50)));
        mine.release();
    }

    /** Joins the acquisition threads (their end is the event awaited), at most 5 s in all. */
    private void awaitNoAsyncThreads() throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (t.getName().startsWith("lockspi-async-") && left > 0) {
                t.join(left);
            }
        }
        assertEquals(0, asyncThreads(), "acquisition threads still alive");
    }

    private static int asyncThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("lockspi-async-") && t.isAlive()).count();
    }
}
