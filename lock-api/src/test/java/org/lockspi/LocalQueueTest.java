package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The thread-owned exclusive locks (the mutex, the write half) queue a service's threads locally in front of the
 * server, as the thread-free ones do (AsyncAcquireTest): one thread at a time asks the server, in the order they
 * asked, and the queue's waits end as any wait does (timeout, interrupt, close).
 */
class LocalQueueTest extends EngineTestBase {
    private static final Duration LONG = Duration.ofSeconds(30);
    private static final int THREADS = 5;

    @Test
    void threadsOfOneServiceSendOneMutexWaiterToTheServer() throws Exception {
        oneWaiterAtTheServer(s -> s.mutex("m"));
    }

    @Test
    void threadsOfOneServiceSendOneWriterToTheServer() throws Exception {
        oneWaiterAtTheServer(s -> s.readWriteLock("rw").writeLock());
    }

    private void oneWaiterAtTheServer(Function<LockService, DistributedLock> lockOf) throws Exception {
        Lease held = lockOf.apply(otherClient()).acquire();
        int before = backend.requests().size();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Thread t = new Thread(() -> {
                try (Lease lease = lockOf.apply(service).acquire(LONG)) {
                    if (inside.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    inside.decrementAndGet();
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "local-" + i);
            threads.add(t);
            t.start();
        }
        backend.awaitRequests(before + 1);
        awaitParked(threads);
        assertEquals(before + 1, backend.requests().size(),
                "one of " + THREADS + " waiting threads asked the server: " + backend.requests());
        held.release();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertTrue(failures.isEmpty(), () -> "failures: " + failures);
        assertEquals(0, overlaps.get(), "two threads held at once");
        assertEquals(before + THREADS, backend.requests().size(), "each thread asked the server once, in turn");
        assertEquals(0, backend.server().holderCount(lockOf.apply(service).name()));
    }

    @Test
    void aWaitInTheLocalQueueEndsByTimeoutInterruptAndClose() throws Throwable {
        Lease mine = service.mutex("m").acquire();
        // another thread of the same service waits in the local queue, not at the server
        int before = backend.requests().size();
        assertEquals(Optional.empty(), inOtherThread(() -> service.mutex("m").tryAcquire(Duration.ofMillis(50))));
        assertEquals(before, backend.requests().size(), "the timed wait ended in the local queue");

        Thread waiter = new Thread(() -> {
            try {
                service.mutex("m").acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the expected way out
            }
        }, "local-interrupted");
        waiter.start();
        awaitParked(List.of(waiter));
        waiter.interrupt();
        waiter.join(5_000);
        assertTrue(!waiter.isAlive(), "the interrupted waiter left the queue");

        mine.release();
        assertTrue(inOtherThread(() -> {
            try (Lease again = service.mutex("m").tryAcquire().orElseThrow()) {
                return again.isHeld();
            }
        }), "the interrupted waiter left no place behind in the queue");

        Lease held = service.mutex("m").acquire();
        ConcurrentLinkedQueue<Throwable> outcome = new ConcurrentLinkedQueue<>();
        Thread queued = new Thread(() -> {
            try {
                service.mutex("m").acquire(LONG);
            } catch (Throwable e) {
                outcome.add(e);
            }
        }, "local-closed");
        queued.start();
        awaitParked(List.of(queued));
        service.close();
        queued.join(5_000);
        assertInstanceOf(IllegalStateException.class, outcome.peek(), "closing fails the local queue: " + outcome);
        assertTrue(held.state().isTerminal());
    }

    /** Waits until every thread is parked (in the local queue's condition or the backend's wait), 5 s at most. */
    private static void awaitParked(List<Thread> threads) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() - end < 0) {
            if (threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING
                    || t.getState() == Thread.State.TIMED_WAITING)) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("not every thread parked: " + threads.stream().map(Thread::getState).toList());
    }
}
