package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.DistributedSemaphore;
import org.lockspi.tck.internal.Async;

/** §7.1-§7.6 Semaphore: at most N leases across clients; leases released by any thread, once. */
public interface SemaphoreContracts extends TckContext {

    @Test
    @DisplayName("§7.1 a semaphore of N permits grants N leases across clients, and no more until one is released")
    default void exactlyNPermits() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("permits");
        int permits = 3;
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < permits; i++) {
            Optional<Lease> lease = openClient().semaphore(name, permits).tryAcquire();
            assertTrue(lease.isPresent(), "client " + i + " got no permit of " + permits + " with " + i + " taken");
            leases.add(lease.get());
        }
        DistributedSemaphore extra = openClient().semaphore(name, permits);
        assertTrue(extra.tryAcquire().isEmpty(), "a client got permit " + (permits + 1) + " of " + permits);
        assertTrue(extra.tryAcquire(SHORT).isEmpty(), "the same with a timeout");
        leases.get(1).release();
        Optional<Lease> freed = extra.tryAcquire(WAIT);
        assertTrue(freed.isPresent(), "a released permit could not be taken");
        assertTrue(openClient().semaphore(name, permits).tryAcquire().isEmpty(), "more than " + permits + " held");
        freed.get().release();
        leases.forEach(Lease::release);
    }

    @Test
    @DisplayName("§7.2 clients x threads hammering a semaphore: never more than N inside, every section completes")
    default void neverMoreThanN() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("sem-hammer");
        int permits = 2;
        int clients = 3;
        int threadsPerClient = 2;
        int rounds = 6;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Async<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            DistributedSemaphore semaphore = openClient().semaphore(name, permits);
            for (int t = 0; t < threadsPerClient; t++) {
                workers.add(Async.start("permit-" + c + "-" + t, () -> {
                    assertTrue(start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                    for (int r = 0; r < rounds; r++) {
                        try (Lease lease = semaphore.acquire(WAIT)) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
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
        assertTrue(most.get() <= permits, most.get() + " holders inside a semaphore of " + permits + " permits");
        assertEquals(clients * threadsPerClient * rounds, completed.get(), "completed sections");
    }

    @Test
    @DisplayName("§7.3 every acquisition takes a permit, also by one thread of one client; it is not reentrant")
    default void permitPerAcquisition() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        DistributedSemaphore semaphore = openClient().semaphore(uniqueName("per-acquisition"), 2);
        Lease first = semaphore.acquire(WAIT);
        Lease second = semaphore.tryAcquire().orElseThrow(() -> new AssertionError("second permit refused"));
        assertTrue(semaphore.tryAcquire().isEmpty(), "one thread got a third permit of two");
        first.release();
        second.release();
    }

    @Test
    @DisplayName("§7.4 a semaphore lease may be released by another thread")
    default void semaphoreReleaseFromAnotherThread() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("sem-handover");
        Lease lease = openClient().semaphore(name, 1).acquire(WAIT);
        Async.start("releaser", () -> {
            lease.release();
            return null;
        }).get(BOUND);
        assertEquals(LeaseState.RELEASED, lease.state());
        Optional<Lease> next = openClient().semaphore(name, 1).tryAcquire(WAIT);
        assertTrue(next.isPresent(), "a permit released by another thread was not freed");
        next.get().release();
    }

    @Test
    @DisplayName("§7.5 releasing a semaphore lease twice frees one permit only")
    default void semaphoreDoubleReleaseFreesOnePermit() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("sem-twice");
        DistributedSemaphore semaphore = openClient().semaphore(name, 2);
        Lease first = semaphore.acquire(WAIT);
        Lease second = semaphore.acquire(WAIT);
        first.release();
        first.release();
        first.close();
        assertEquals(LeaseState.RELEASED, first.state());
        assertEquals(LeaseState.HELD, second.state(), "a second release of one lease released another");
        Optional<Lease> a = openClient().semaphore(name, 2).tryAcquire(WAIT);
        assertTrue(a.isPresent(), "the released permit was not freed");
        assertTrue(openClient().semaphore(name, 2).tryAcquire().isEmpty(),
                "releasing one lease twice freed two permits");
        a.get().release();
        second.release();
    }

    @Test
    @DisplayName("§7.6 permits < 1 and other permits for a name in use are refused with IllegalArgumentException")
    default void permitsChecked() {
        requireFeature(LockFeature.SEMAPHORE);
        LockService client = openClient();
        String name = uniqueName("sem-args");
        IllegalArgumentException zero = throwsWithin(IllegalArgumentException.class, BOUND, "semaphore(name, 0)",
                () -> client.semaphore(name, 0));
        assertEquals("permits < 1: 0", zero.getMessage());
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "semaphore(name, -1)",
                () -> client.semaphore(name, -1)), "-1");
        throwsWithin(NullPointerException.class, BOUND, "semaphore(null, 1)", () -> client.semaphore(null, 1));
        DistributedSemaphore three = client.semaphore(name, 3);
        assertEquals(3, three.permits());
        assertEquals(name, three.name());
        assertSame(three, client.semaphore(name, 3), "the same name and permits must give the same instance");
        IllegalArgumentException other = throwsWithin(IllegalArgumentException.class, BOUND,
                "semaphore(name, 2) after semaphore(name, 3)", () -> client.semaphore(name, 2));
        assertNames(other, name);
    }
}
