package org.lockspi.zookeeper.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * Waiters through connection trouble: a waiter whose session expires queues again in its new session and still
 * gets the lock; a waiter whose server restarts keeps its place (its session and watch survive).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class RawZooKeeperRecoveryTest {
    private final RawZooKeeperLockProvider provider = new RawZooKeeperLockProvider();
    private EmbeddedZooKeeperBackend server;

    @BeforeAll
    void startServer() {
        server = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        server.close();
    }

    private LockService open() {
        return Locks.open(server.uri() + "?sessionTimeout=4s&connectTimeout=5s", provider);
    }

    private static CompletableFuture<Lease> acquireInBackground(LockService service, String name) {
        CompletableFuture<Lease> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(service.nonReentrantMutex(name).acquire(Duration.ofSeconds(30)));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "waiter-" + name);
        t.start();
        return result;
    }

    @Test
    void waiterWhoseSessionExpiresQueuesAgainAndAcquires() throws Exception {
        String name = "recovery-expiry-" + System.nanoTime();
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = holder.mutex(name).acquire(Duration.ofSeconds(5));
            CountDownLatch lost = new CountDownLatch(1);
            held.addListener((lease, previous, current) -> {
                if (current == LeaseState.LOST) {
                    lost.countDown();
                }
            });
            CompletableFuture<Lease> waiting = new CompletableFuture<>();
            CountDownLatch releaseNow = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try (Lease lease = waiter.mutex(name).acquire(Duration.ofSeconds(30))) {
                    waiting.complete(lease);
                    releaseNow.await(); // a mutex lease is released by its own thread
                } catch (Throwable e) {
                    waiting.completeExceptionally(e);
                }
            });
            t.start();
            Poll.until("entries of " + name, 2, () -> server.residue(name).size(), Duration.ofSeconds(5));

            server.forceLoss(name); // expires both sessions: the holder's and the waiter's

            assertTrue(lost.await(15, TimeUnit.SECONDS), "the holder hears that its lease is lost");
            assertEquals(LeaseState.LOST, held.state());
            Lease got = waiting.get(20, TimeUnit.SECONDS);
            assertTrue(got.isHeld(), "the waiter acquired in its new session: " + got.state() + " " + got.validFor());
            assertEquals(1, server.residue(name).size(), "only the new holder's node: " + server.residue(name));
            releaseNow.countDown();
            t.join(10_000);
            assertEquals(LeaseState.RELEASED, got.state());
            held.release(); // harmless on a lost lease
            assertEquals(0, server.residue(name).size(), "nothing left: " + server.residue(name));
        }
    }

    @Test
    void waiterKeepsItsPlaceAcrossAServerRestart() throws Exception {
        String name = "recovery-restart-" + System.nanoTime();
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = holder.nonReentrantMutex(name).acquire(Duration.ofSeconds(5));
            CountDownLatch restored = new CountDownLatch(1);
            held.addListener((lease, previous, current) -> {
                if (previous == LeaseState.UNCERTAIN && current == LeaseState.HELD) {
                    restored.countDown();
                }
            });
            CompletableFuture<Lease> waiting = acquireInBackground(waiter, name);
            // the holder's lease, and the waiter inside the internal mutex with its own lease node
            Poll.until("entries of " + name, 3, () -> server.residue(name).size(), Duration.ofSeconds(5));

            server.restart(); // sessions survive: both clients reconnect well within 4 s

            assertTrue(restored.await(10, TimeUnit.SECONDS), "the holder's lease went UNCERTAIN and back to HELD");
            assertFalse(waiting.isDone(), "still waiting while the holder holds");
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);
            assertTrue(got.isHeld());
            assertTrue(got.fencingToken() > held.fencingToken(), "later holder, larger token");
            got.release();
            assertEquals(0, server.residue(name).size(), "nothing left: " + server.residue(name));
        }
    }

    @Test
    void acquisitionsRacingAServerRestartAllCompleteExcludeAndLeaveNothing() throws Exception {
        String name = "recovery-race-" + System.nanoTime();
        int threads = 4;
        int rounds = 15;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger releasesNotTold = new AtomicInteger();
        CountDownLatch warmedUp = new CountDownLatch(threads * 3);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (LockService a = open(); LockService b = open()) {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                LockService service = i % 2 == 0 ? a : b;
                results.add(pool.submit(() -> {
                    int acquired = 0;
                    for (int r = 0; r < rounds; r++) {
                        Lease lease = service.mutex(name).acquire(Duration.ofSeconds(20));
                        acquired++;
                        if (inside.incrementAndGet() > 1) {
                            overlaps.incrementAndGet();
                        }
                        inside.decrementAndGet();
                        try {
                            lease.release();
                        } catch (LockConnectionException e) {
                            releasesNotTold.incrementAndGet(); // allowed: deleted when the connection returns
                        }
                        warmedUp.countDown();
                    }
                    return acquired;
                }));
            }
            assertTrue(warmedUp.await(20, TimeUnit.SECONDS), "acquisitions under way");
            server.restart();
            for (Future<Integer> f : results) {
                assertEquals(rounds, f.get(40, TimeUnit.SECONDS), "every acquisition completed");
            }
            assertEquals(0, overlaps.get(), "never two holders");
            // releases the server missed are retried on reconnection: the server state drains to nothing
            Poll.until("entries of " + name + " (" + releasesNotTold.get() + " releases retried)", 0,
                    () -> server.residue(name).size(), Duration.ofSeconds(10));
        } finally {
            pool.shutdownNow();
        }
    }
}
