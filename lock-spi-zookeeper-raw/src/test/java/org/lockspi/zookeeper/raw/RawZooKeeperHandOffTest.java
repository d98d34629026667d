package org.lockspi.zookeeper.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;
import org.lockspi.zookeeper.recipe.scenarios.ZkProviderScenarios;

/**
 * Hand-offs between threads of one client, where the waiter behind one of the client's own granted nodes holds
 * without listing the queue again: still exclusive, and never on a node that is gone.
 */
@Timeout(120)
class RawZooKeeperHandOffTest extends ZkProviderScenarios {
    @Override
    protected LockProvider provider() {
        return new RawZooKeeperLockProvider();
    }

    @Test
    void threadsOfOneClientTakeTurnsExclusively() throws Exception {
        String name = "handoff/threads-" + System.nanoTime();
        int threads = 16;
        int rounds = 20;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        try (LockService locks = open()) {
            DistributedLock mutex = locks.mutex(name);
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < rounds; i++) {
                        try (Lease lease = mutex.acquire(Duration.ofSeconds(60))) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            Thread.yield();
                            inside.decrementAndGet();
                            done.incrementAndGet();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    }
                }, r -> new Thread(r, "handoff-worker").start()));
            }
            CompletableFuture.allOf(workers.toArray(new CompletableFuture[0])).get(100, TimeUnit.SECONDS);
            assertEquals(0, overlaps.get(), "two threads inside at once");
            assertEquals(threads * rounds, done.get(), "completed sections");
            Poll.until("nodes left behind", List.of(), () -> server.residue(name), Duration.ofSeconds(10));
        }
    }

    @Test
    void waiterWhoseNodeWasDeletedDoesNotHoldWithoutIt() throws Exception {
        String name = "handoff/deleted-" + System.nanoTime();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper foreign = new ZooKeeper(server.address(), 4_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        // two clients: a client's own second thread would wait in its local queue, with no node to delete
        try (LockService locks = open(); LockService other = open()) {
            assertTrue(connected.await(10, TimeUnit.SECONDS), "foreign client connected");
            DistributedLock mutex = other.mutex(name);
            Lease first = locks.mutex(name).acquire(Duration.ofSeconds(5));
            // what the waiter saw when it acquired, if it did: its token and the czxids of the nodes then
            CompletableFuture<Optional<long[]>> second = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    Optional<Lease> got = mutex.tryAcquire(Duration.ofSeconds(20));
                    if (got.isEmpty()) {
                        second.complete(Optional.empty());
                        return;
                    }
                    try (Lease lease = got.get()) {
                        List<String> nodes = server.residue(name);
                        long[] seen = new long[nodes.size() + 1];
                        seen[0] = lease.fencingToken();
                        for (int i = 0; i < nodes.size(); i++) {
                            Stat stat = foreign.exists(nodes.get(i), false);
                            seen[i + 1] = stat == null ? -1 : stat.getCzxid();
                        }
                        second.complete(Optional.of(seen));
                    }
                } catch (Exception e) {
                    second.completeExceptionally(e);
                }
            }, "handoff-waiter");
            waiter.start();
            Poll.until("nodes queued", 2, () -> server.residue(name).size(), Duration.ofSeconds(10));
            String waiting = server.residue(name).stream()
                    .max(java.util.Comparator.comparing(p -> p.substring(p.length() - 10))).orElseThrow();
            foreign.delete(waiting, -1); // the waiter's node goes while it waits behind our own granted node
            first.release();
            Optional<long[]> seen;
            try {
                seen = second.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                seen = Optional.empty(); // refused: fine, as long as it did not hold without a node
            }
            if (seen.isPresent()) {
                long[] s = seen.get();
                assertEquals(2, s.length, "one node, the holder's, while it held");
                assertEquals(s[1], s[0], "held on a node that exists: its token is that node's czxid");
            }
            waiter.join(10_000);
        } finally {
            foreign.close();
        }
    }
}
