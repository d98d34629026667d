package org.lockspi.inmemory.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.inmemory.InMemoryLockProvider;
import org.lockspi.inmemory.InMemoryLocks;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockServices;
import org.lockspi.spi.LockUri;

/** The space's queue, seen from inside: a release wakes the one waiter it grants, no other (HERD_FREE). */
class SpaceTest {

    /** The standard conduct, counting the waiters it makes and the wake-ups they get. */
    private static final class Counting extends Conduct {
        final AtomicInteger waiters = new AtomicInteger();
        final AtomicInteger wakeUps = new AtomicInteger();

        @Override
        protected Waiter newWaiter(ReentrantLock spaceLock) {
            Waiter parked = super.newWaiter(spaceLock);
            waiters.incrementAndGet();
            return new Waiter() {
                @Override
                public void await(Deadline deadline) throws InterruptedException {
                    parked.await(deadline);
                }

                @Override
                public void wake() {
                    wakeUps.incrementAndGet();
                    parked.wake();
                }
            };
        }
    }

    private static LockService open(String uri, Conduct conduct) {
        return LockServices.create(new InMemoryLockProvider(), uri,
                events -> Spaces.connect(LockUri.parse(uri), false, events, conduct));
    }

    @Test
    @Timeout(30)
    void eachReleaseWakesOnlyTheWaiterItGrants() throws Exception {
        String uri = InMemoryLocks.newSpace();
        Counting conduct = new Counting();
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<LockService> services = new ArrayList<>();
        try (LockService holder = open(uri, conduct)) {
            Lease held = holder.nonReentrantMutex("herd").acquire(Duration.ofSeconds(5));
            List<Future<Lease>> waiting = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                LockService s = open(uri, conduct);
                services.add(s);
                waiting.add(pool.submit(() -> s.nonReentrantMutex("herd").acquire(Duration.ofSeconds(20))));
                int expected = i + 1;
                // a waiter is made and parks under one hold of the space's lock: once it exists, its thread waits
                while (conduct.waiters.get() < expected) {
                    Thread.onSpinWait();
                }
            }
            Space space = Spaces.find(LockUri.parse(uri).hosts().get(0));
            assertEquals(n + 1, space.residue("herd").size(), "the holder and " + n + " waiters: "
                    + space.residue("herd"));
            assertEquals(0, conduct.wakeUps.get(), "nobody was woken while the lock was held");

            held.release();
            for (int i = 0; i < n; i++) {
                Lease got = waiting.get(i).get(10, TimeUnit.SECONDS);
                assertEquals(i + 1, conduct.wakeUps.get(), "releases so far wake one waiter each");
                for (int j = i + 1; j < n; j++) {
                    assertTrue(!waiting.get(j).isDone(), "waiter " + j + " still waits while waiter " + i + " holds");
                }
                got.release();
            }
            assertEquals(List.of(), space.residue("herd"));
        } finally {
            services.forEach(LockService::close);
            pool.shutdownNow();
        }
    }
}
