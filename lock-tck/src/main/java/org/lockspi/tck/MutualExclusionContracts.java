package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Async;

/** §3 Mutual exclusion: separate services are separate clients, and one of them at a time holds a mutex. */
public interface MutualExclusionContracts extends TckContext {

    @Test
    @DisplayName("§3.1 a held mutex excludes every other client until it is released")
    default void heldMutexExcludesOtherClients() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("excl");
        LockService a = openClient();
        LockService b = openClient();
        LockService c = openClient();
        Lease held = a.mutex(name).acquire(WAIT);
        assertTrue(b.mutex(name).tryAcquire().isEmpty(), "client b got a mutex client a holds");
        assertTrue(c.mutex(name).tryAcquire(SHORT).isEmpty(), "client c got a mutex client a holds");
        assertFalse(b.mutex(name).isHeldByCurrentThread());
        held.release();
        Optional<Lease> next = b.mutex(name).tryAcquire(WAIT);
        assertTrue(next.isPresent(), "client b could not get the mutex after client a released it");
        assertTrue(c.mutex(name).tryAcquire().isEmpty(), "client c got a mutex client b holds");
        next.get().release();
    }

    @Test
    @DisplayName("§3.2 two services used by one thread are two clients: they exclude each other")
    default void servicesInOneThreadExclude() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("same-thread");
        LockService a = openClient();
        LockService b = openClient();
        try (Lease held = a.mutex(name).acquire(WAIT)) {
            assertTrue(b.mutex(name).tryAcquire().isEmpty(),
                    "a second service in the holding thread got the mutex: services must not share ownership");
            assertTrue(b.mutex(name).tryAcquire(SHORT).isEmpty(), "the same with a timeout");
            assertEquals(0, b.mutex(name).holdCount());
            assertEquals(1, a.mutex(name).holdCount());
        }
    }

    @Test
    @DisplayName("§3.3 clients x threads hammering one mutex: never two holders, every section completes")
    default void neverTwoHolders() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("hammer");
        int clients = 3;
        int threadsPerClient = 2;
        int rounds = 10;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Async<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            DistributedLock lock = openClient().mutex(name);
            for (int t = 0; t < threadsPerClient; t++) {
                workers.add(Async.start("hammer-" + c + "-" + t, () -> {
                    assertTrue(start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                    for (int r = 0; r < rounds; r++) {
                        try (Lease lease = lock.acquire(WAIT)) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            Thread.yield();
                            inside.decrementAndGet();
                            completed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
        }
        start.countDown();
        for (Async<Void> worker : workers) {
            worker.get(Duration.ofSeconds(40));
        }
        assertEquals(0, overlaps.get(), "two holders were inside the critical section at once");
        assertEquals(clients * threadsPerClient * rounds, completed.get(), "completed critical sections");
    }

    @Test
    @DisplayName("§3.4 a waiting client gets the mutex when the holder releases it")
    default void waiterGetsReleasedMutex() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("handoff");
        LockService a = openClient();
        LockService b = openClient();
        Lease held = a.mutex(name).acquire(WAIT);
        Async<Lease> waiter = Async.startWaiter("waiter", backend(), name, () -> b.mutex(name).acquire(WAIT));
        long released = System.nanoTime();
        held.release();
        Lease got = waiter.get(WAIT);
        Duration handoff = Duration.ofNanos(System.nanoTime() - released);
        assertTrue(handoff.compareTo(BOUND) <= 0, "the waiter took " + handoff.toMillis() + " ms to get the released "
                + "mutex, more than " + BOUND.toMillis() + " ms");
        assertTrue(a.mutex(name).tryAcquire().isEmpty(), "client a got the mutex back while b holds it");
        assertEquals(name, got.lockName());
    }
}
