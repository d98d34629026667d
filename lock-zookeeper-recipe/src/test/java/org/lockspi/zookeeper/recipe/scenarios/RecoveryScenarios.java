package org.lockspi.zookeeper.recipe.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockspi.Acquirable;
import org.lockspi.ConnectionState;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Poll;

/**
 * Waiters and holders through connection trouble, on a real server: a session that expires loses its lease for good
 * (also once the client has a new session, which ZkClient opens by itself, silently to a caller that only uses its
 * operations) and its waiter queues again in the new session; a server restart within the session timeout keeps
 * sessions, leases and a waiter's place; acquisitions racing a restart all complete, exclude each other and leave
 * nothing behind.
 */
@Timeout(60)
public abstract class RecoveryScenarios extends ZkProviderScenarios {

    /**
     * These scenarios follow the recipe through an outage, so their acquisitions wait it out: {@code failFast} is
     * longer than any outage here (with the default, 250 ms, an acquisition under way fails fast, spec §16.3, which
     * the TCK shows).
     */
    @Override
    protected LockService open() {
        return Locks.open(server.uri() + "?sessionTimeout=4s&connectTimeout=5s&failFast=30s", provider());
    }

    @Test
    void anExpiredSessionLosesItsLeaseForGoodAndItsWaiterQueuesAgain() throws Exception {
        String name = "recovery-expiry-" + System.nanoTime();
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = holder.mutex(name).acquire(Duration.ofSeconds(5));
            List<LeaseState> states = new CopyOnWriteArrayList<>();
            CountDownLatch lost = new CountDownLatch(1);
            held.addListener((lease, previous, current) -> {
                states.add(current);
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
            }, "recovery-waiter");
            t.start();
            Poll.until("entries of " + name, 2, () -> server.residue(name).size(), Duration.ofSeconds(5));

            server.forceLoss(name); // expires both sessions: the holder's and the waiter's

            assertTrue(lost.await(15, TimeUnit.SECONDS), "the holder hears that its lease is lost");
            assertEquals(LeaseState.LOST, held.state());
            Lease got = waiting.get(20, TimeUnit.SECONDS);
            assertTrue(got.isHeld(), "the waiter acquired in its new session: " + got.state() + " " + got.validFor());
            assertTrue(got.fencingToken() > held.fencingToken(), "later holder, larger token");
            assertEquals(1, server.residue(name).size(), "only the new holder's node: " + server.residue(name));

            // the holder's client is connected again, in a new session: the old lease must not come back
            try (Lease again = holder.mutex(name + "-other").acquire(Duration.ofSeconds(10))) {
                assertTrue(again.isHeld(), "the holder's client works in its new session");
            }
            assertEquals(LeaseState.LOST, held.state());
            assertFalse(held.isHeld());
            assertFalse(states.contains(LeaseState.HELD), "the lost lease was never reported HELD again: " + states);

            releaseNow.countDown();
            t.join(10_000);
            assertEquals(LeaseState.RELEASED, got.state());
            held.release(); // harmless on a lost lease, and leaves the new holder's node alone
            assertEquals(0, server.residue(name).size(), "nothing left: " + server.residue(name));
        }
    }

    /** The semaphore of one, through either handle: the recipe's internal mutex and lease node. */
    private static Function<LockService, Acquirable> semaphoreOfOne(String kind, String name) {
        return kind.equals("semaphore") ? s -> s.semaphore(name, 1) : s -> s.nonReentrantMutex(name);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"non-reentrant mutex", "semaphore"})
    void aLeaseAndAWaiterSurviveAQuickServerRestart(String kind) throws Exception {
        String name = "recovery-restart-" + System.nanoTime();
        Function<LockService, Acquirable> lock = semaphoreOfOne(kind, name);
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = lock.apply(holder).acquire(Duration.ofSeconds(5));
            CountDownLatch restored = new CountDownLatch(1);
            held.addListener((lease, previous, current) -> {
                if (previous == LeaseState.UNCERTAIN && current == LeaseState.HELD) {
                    restored.countDown();
                }
            });
            CompletableFuture<Lease> waiting = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    waiting.complete(lock.apply(waiter).acquire(Duration.ofSeconds(30)));
                } catch (Throwable e) {
                    waiting.completeExceptionally(e);
                }
            }, "recovery-waiter");
            t.start();
            // the holder's lease, and the waiter inside the internal mutex with its own lease node
            Poll.until("entries of " + name, 3, () -> server.residue(name).size(), Duration.ofSeconds(5));

            server.restart(); // sessions survive: both clients reconnect well within 4 s

            assertTrue(restored.await(10, TimeUnit.SECONDS), "the holder's lease went UNCERTAIN and back to HELD");
            assertFalse(waiting.isDone(), "still waiting while the holder holds");
            assertEquals(3, server.residue(name).size(), "the same entries: " + server.residue(name));
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);
            assertTrue(got.isHeld());
            assertTrue(got.fencingToken() > held.fencingToken(), "later holder, larger token");
            got.release();
            t.join(10_000);
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

    /**
     * Waiters that give up all the time remove their watches all the time; a server stopped while such a removal
     * is under way must still be reported. (ZooKeeper's client, given a watch removal that is also to be done
     * locally and that the connection loss fails, queues a watch-removed event in the Disconnected state and then
     * drops the real Disconnected event as a repeat: a provider that asked for local removals heard of no outage,
     * so its acquisitions waited for the client's reconnection attempts, seconds, instead of failing fast.) Holders
     * that release all the time meanwhile: a release whose delete is under way when the connection drops returns
     * once the drop is known, well within the release bound (2 s here), not at it.
     */
    @Test
    void aServerStopIsReportedWhileWaitersGiveUpAllTheTime() throws Exception {
        String name = "recovery-churn-" + System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(10);
        AtomicLong longestRelease = new AtomicLong();
        try (LockService holder = open(); LockService waiters = open()) {
            Lease held = holder.mutex(name).acquire(Duration.ofSeconds(5));
            AtomicInteger attempts = new AtomicInteger();
            for (int i = 0; i < 2; i++) {
                String own = name + "-own-" + i;
                pool.submit(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            Optional<Lease> lease = holder.mutex(own).tryAcquire(Duration.ofMillis(20));
                            if (lease.isPresent()) {
                                long start = System.nanoTime();
                                try {
                                    lease.get().release();
                                } finally {
                                    longestRelease.accumulateAndGet(System.nanoTime() - start, Math::max);
                                }
                            }
                        } catch (InterruptedException e) {
                            return;
                        } catch (RuntimeException e) {
                            // the outage's failures, and the closed service at the end
                        }
                    }
                });
            }
            for (int i = 0; i < 8; i++) {
                pool.submit(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            waiters.mutex(name).tryAcquire(Duration.ofMillis(20)).ifPresent(Lease::release);
                            attempts.incrementAndGet();
                        } catch (InterruptedException e) {
                            return;
                        } catch (RuntimeException e) {
                            // the outage's failures, and the closed service at the end
                        }
                    }
                });
            }
            for (int round = 1; round <= 4; round++) {
                int before = attempts.get();
                Poll.until("waiters giving up, round " + round, true, () -> attempts.get() >= before + 50,
                        Duration.ofSeconds(10));
                server.stopServer();
                try {
                    Poll.until("the waiters' service suspended, round " + round, ConnectionState.SUSPENDED,
                            waiters::connectionState, Duration.ofSeconds(1));
                    Poll.until("the holder's service suspended, round " + round, ConnectionState.SUSPENDED,
                            holder::connectionState, Duration.ofSeconds(1));
                } finally {
                    server.startServer();
                }
                for (LockService service : List.of(holder, waiters)) {
                    Poll.until("connected again, round " + round, ConnectionState.CONNECTED,
                            service::connectionState, Duration.ofSeconds(10));
                }
            }
            held.release();
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the waiters ended");
        }
        assertTrue(longestRelease.get() < TimeUnit.SECONDS.toNanos(1),
                "the longest release took " + TimeUnit.NANOSECONDS.toMillis(longestRelease.get()) + " ms");
    }
}
