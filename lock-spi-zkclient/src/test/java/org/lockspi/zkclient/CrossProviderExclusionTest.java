package org.lockspi.zkclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.zookeeper.raw.RawZooKeeperLockProvider;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * Clients of the zookeeper-raw provider and of this provider contend for the same locks on one server: both use
 * Curator's node layout, so they must exclude each other, as during a rolling migration from one client library to
 * the other. An overlap detector inside each critical section must never see two holders where one is allowed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class CrossProviderExclusionTest {
    private static final int CLIENTS_PER_PROVIDER = 2;
    private static final int THREADS_PER_CLIENT = 2;
    private static final int ROUNDS = 6;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private EmbeddedZooKeeperBackend zk;
    private final List<LockService> clients = new ArrayList<>();
    private ExecutorService pool;

    @BeforeAll
    void startServer() {
        zk = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        zk.close();
    }

    @AfterEach
    void closeClients() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "worker threads ended");
        clients.forEach(LockService::close);
        clients.clear();
    }

    /** Opens the clients, raw and zkclient alternating, and the pool for their threads. */
    private List<LockService> open() {
        String uri = "zookeeper://" + zk.address() + "/cross?sessionTimeout=10s&connectTimeout=5s";
        LockProvider[] providers = {new RawZooKeeperLockProvider(), new ZkClientLockProvider()};
        for (int i = 0; i < CLIENTS_PER_PROVIDER; i++) {
            for (LockProvider provider : providers) {
                clients.add(Locks.open(uri, provider));
            }
        }
        pool = Executors.newFixedThreadPool(clients.size() * THREADS_PER_CLIENT);
        return clients;
    }

    /** A critical section long enough for an overlap to show: there is no event to wait for here. */
    private static void hold() {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }

    @Test
    void mutexExcludesAcrossProviders() throws Exception {
        String name = "mutex";
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);
        AtomicInteger tokenRegressions = new AtomicInteger();
        int[] perProvider = run(open(), client -> client.mutex(name), () -> {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            return null;
        }, lease -> {
            long previous = lastToken.getAndSet(lease.fencingToken());
            if (lease.fencingToken() <= previous) {
                tokenRegressions.incrementAndGet();
            }
            hold();
            inside.decrementAndGet();
        });
        assertEquals(0, overlaps.get(), "times two clients held the mutex at once");
        assertEquals(0, tokenRegressions.get(), "times a holder's fencing token was not above the previous one");
        assertEveryoneAcquired(perProvider);
        assertNoResidue("/cross/" + name);
    }

    @Test
    void readWriteLockAcrossProviders() throws Exception {
        String name = "rw";
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger index = new AtomicInteger();
        // on each client one thread writes and one reads
        int[] perProvider = runChecked(open(), client -> index.getAndIncrement() % 2 == 0, name, readers, writers,
                violations);
        assertEquals(0, violations.get(), "times a writer shared the lock with anyone");
        assertEveryoneAcquired(perProvider);
        assertNoResidue("/cross/" + name);
    }

    @Test
    void semaphoreAcrossProviders() throws Exception {
        String name = "sem";
        int permits = 2;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger overflows = new AtomicInteger();
        int[] perProvider = run(open(), client -> client.semaphore(name, permits), () -> {
            int now = inside.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            if (now > permits) {
                overflows.incrementAndGet();
            }
            return null;
        }, lease -> {
            hold();
            inside.decrementAndGet();
        });
        assertEquals(0, overflows.get(), "times more than " + permits + " clients held a permit (most: "
                + most.get() + ")");
        assertEveryoneAcquired(perProvider);
        assertNoResidue("/cross/" + name + "/leases");
    }

    // ---------------------------------------------------------------------------------------------------------

    private interface Handle {
        Acquirable of(LockService client);
    }

    private interface Inside {
        void run(Lease lease);
    }

    /**
     * Runs {@link #THREADS_PER_CLIENT} threads per client, each acquiring {@link #ROUNDS} times, all released at
     * once by a start gate; {@code enter} and {@code leave} run inside each critical section.
     *
     * @return acquisitions per provider: raw, zkclient
     */
    private int[] run(List<LockService> all, Handle handle, Callable<Void> enter, Inside leave) throws Exception {
        int[] perProvider = new int[2];
        CountDownLatch gate = new CountDownLatch(1);
        List<Future<Integer>> done = new ArrayList<>();
        for (int c = 0; c < all.size(); c++) {
            LockService client = all.get(c);
            for (int t = 0; t < THREADS_PER_CLIENT; t++) {
                Acquirable lock = handle.of(client);
                done.add(pool.submit(() -> {
                    gate.await();
                    for (int r = 0; r < ROUNDS; r++) {
                        try (Lease lease = lock.acquire(WAIT)) {
                            enter.call();
                            leave.run(lease);
                        }
                    }
                    return ROUNDS;
                }));
            }
        }
        gate.countDown();
        for (int i = 0; i < done.size(); i++) {
            int client = i / THREADS_PER_CLIENT;
            perProvider[client % 2] += done.get(i).get(60, TimeUnit.SECONDS);
        }
        return perProvider;
    }

    private interface Role {
        boolean writer(LockService client);
    }

    private int[] runChecked(List<LockService> all, Role role, String name, AtomicInteger readers,
                             AtomicInteger writers, AtomicInteger violations) throws Exception {
        int[] perProvider = new int[2];
        CountDownLatch gate = new CountDownLatch(1);
        List<Future<Integer>> done = new ArrayList<>();
        for (LockService client : all) {
            for (int t = 0; t < THREADS_PER_CLIENT; t++) {
                boolean writer = role.writer(client);
                Acquirable lock = writer ? client.readWriteLock(name).writeLock() : client.readWriteLock(name).readLock();
                done.add(pool.submit(() -> {
                    gate.await();
                    for (int r = 0; r < ROUNDS; r++) {
                        Lease lease = lock.acquire(WAIT);
                        try {
                            if (writer) {
                                if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                                    violations.incrementAndGet();
                                }
                                hold();
                                writers.decrementAndGet();
                            } else {
                                readers.incrementAndGet();
                                if (writers.get() != 0) {
                                    violations.incrementAndGet();
                                }
                                hold();
                                readers.decrementAndGet();
                            }
                        } finally {
                            lease.release();
                        }
                    }
                    return ROUNDS;
                }));
            }
        }
        gate.countDown();
        for (int i = 0; i < done.size(); i++) {
            perProvider[(i / THREADS_PER_CLIENT) % 2] += done.get(i).get(60, TimeUnit.SECONDS);
        }
        return perProvider;
    }

    private static void assertEveryoneAcquired(int[] perProvider) {
        int each = CLIENTS_PER_PROVIDER * THREADS_PER_CLIENT * ROUNDS;
        assertEquals(each, perProvider[0], "acquisitions through zookeeper-raw");
        assertEquals(each, perProvider[1], "acquisitions through zkclient");
    }

    private void assertNoResidue(String path) {
        List<String> children = zk.children(path);
        assertTrue(children.isEmpty(), "nodes left under " + path + ": " + children);
    }
}
