package org.lockspi.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * A plain Curator application (its recipes used directly on absolute paths, no lockspi) and lockspi clients of
 * all three ZooKeeper providers (zookeeper-raw, zkclient, curator) contend for the same locks; a detector in the
 * critical sections never sees a forbidden overlap. This is what makes a rolling migration between client
 * libraries safe.
 */
class CuratorInteropTest extends ZkTestSupport {
    private static final int ROUNDS = 8;
    private static final long TIMEOUT_MS = 30_000;

    private final List<CuratorFramework> apps = new ArrayList<>();
    private ExecutorService pool;

    @BeforeEach
    void startApps() throws InterruptedException {
        // two "processes" of the plain application: a client each, no namespace
        apps.add(CuratorProviderTest.rawClient(null));
        apps.add(CuratorProviderTest.rawClient(null));
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stopApps() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        apps.forEach(CuratorFramework::close);
    }

    /** Counts holders; remembers the most seen at once. */
    private static final class Detector {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final AtomicInteger entries = new AtomicInteger();

        void enter() {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            entries.incrementAndGet();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // the guarded work
        }

        void exit() {
            inside.decrementAndGet();
        }
    }

    @FunctionalInterface
    private interface Round {
        void run() throws Exception;
    }

    private void runAll(List<Round> workers) throws Exception {
        List<Future<?>> done = new ArrayList<>();
        for (Round worker : workers) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    worker.run();
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void mutexSharedByAllProvidersAndInterProcessMutex() throws Exception {
        assertExclusionShared("interop-mutex", app -> new InterProcessMutex(app, path("interop-mutex")),
                s -> s.mutex("interop-mutex"));
    }

    @Test
    void aNameOutsideTheReadableFormIsSharedWithInterProcessMutexAtItsDocumentedKey() throws Exception {
        String name = "user:alice@example.com/interop";
        // what a plain Curator application computes, as LockKeys documents it
        String key = "~" + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(org.lockspi.spi.LockKeys.key(name), key);
        assertExclusionShared(key, app -> new InterProcessMutex(app, path(key)), s -> s.mutex(name));
    }

    @Test
    void readWriteSharedByAllProvidersAndInterProcessReadWriteLock() throws Exception {
        String name = "interop-rw";
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger mostReaders = new AtomicInteger();
        Round readWork = () -> {
            int r = readers.incrementAndGet();
            mostReaders.accumulateAndGet(r, Math::max);
            if (writers.get() != 0) {
                violations.incrementAndGet();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            readers.decrementAndGet();
        };
        Round writeWork = () -> {
            if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                violations.incrementAndGet();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            writers.decrementAndGet();
        };
        List<Round> workers = new ArrayList<>();
        for (CuratorFramework app : apps) {
            InterProcessReadWriteLock rw = new InterProcessReadWriteLock(app, path(name));
            workers.add(() -> {
                assertTrue(rw.readLock().acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS));
                try {
                    readWork.run();
                } finally {
                    rw.readLock().release();
                }
            });
            workers.add(() -> {
                assertTrue(rw.writeLock().acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS));
                try {
                    writeWork.run();
                } finally {
                    rw.writeLock().release();
                }
            });
        }
        for (LockService s : oneClientOfEachZooKeeperProvider()) {
            workers.add(() -> {
                try (org.lockspi.Lease lease = s.readWriteLock(name).readLock().acquire(Duration.ofMillis(TIMEOUT_MS))) {
                    readWork.run();
                }
            });
            workers.add(() -> {
                try (org.lockspi.Lease lease = s.readWriteLock(name).writeLock().acquire(Duration.ofMillis(TIMEOUT_MS))) {
                    writeWork.run();
                }
            });
        }
        runAll(workers);
        assertEquals(0, violations.get());
        assertEquals(List.of(), server.residue(name));
    }

    @Test
    void semaphoreSharedByAllProvidersAndInterProcessSemaphoreV2() throws Exception {
        String name = "interop-sem";
        int permits = 2;
        Detector d = new Detector();
        List<Round> workers = new ArrayList<>();
        for (CuratorFramework app : apps) {
            for (int t = 0; t < 2; t++) {
                InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(app, path(name), permits);
                workers.add(() -> {
                    Lease lease = semaphore.acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    assertTrue(lease != null);
                    try {
                        d.enter();
                        d.exit();
                    } finally {
                        semaphore.returnLease(lease);
                    }
                });
            }
        }
        for (LockService s : oneClientOfEachZooKeeperProvider()) {
            for (int t = 0; t < 2; t++) {
                workers.add(() -> {
                    try (org.lockspi.Lease lease = s.semaphore(name, permits).acquire(Duration.ofMillis(TIMEOUT_MS))) {
                        d.enter();
                        d.exit();
                    }
                });
            }
        }
        runAll(workers);
        assertTrue(d.most.get() <= permits, "at most " + permits + " holders, saw " + d.most.get());
        assertEquals(10 * ROUNDS, d.entries.get());
        assertEquals(List.of(), server.residue(name));
    }

    @Test
    void nonReentrantMutexSharedByAllProvidersAndInterProcessSemaphoreMutex() throws Exception {
        assertExclusionShared("interop-nr", app -> new InterProcessSemaphoreMutex(app, path("interop-nr")),
                s -> s.nonReentrantMutex("interop-nr"));
    }

    /**
     * Two Curator clients with {@code curatorLock} and one lockspi client of each ZooKeeper provider with
     * {@code ours}, {@link #ROUNDS}
     * rounds each on the lock {@code name}: never two inside at once, every round entered, nothing left behind.
     */
    private void assertExclusionShared(String name, Function<CuratorFramework, InterProcessLock> curatorLock,
            Function<LockService, Acquirable> ours) throws Exception {
        Detector d = new Detector();
        List<Round> workers = new ArrayList<>();
        for (CuratorFramework app : apps) {
            InterProcessLock mutex = curatorLock.apply(app);
            workers.add(() -> {
                assertTrue(mutex.acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS));
                try {
                    d.enter();
                    d.exit();
                } finally {
                    mutex.release();
                }
            });
        }
        for (LockService s : oneClientOfEachZooKeeperProvider()) {
            workers.add(() -> {
                try (org.lockspi.Lease lease = ours.apply(s).acquire(Duration.ofMillis(TIMEOUT_MS))) {
                    d.enter();
                    d.exit();
                }
            });
        }
        runAll(workers);
        assertEquals(1, d.most.get());
        assertEquals(5 * ROUNDS, d.entries.get());
        assertEquals(List.of(), server.residue(name));
    }

    /**
     * With credentials: lockspi clients of every ZooKeeper provider create the lock's nodes with
     * {@code CREATOR_ALL_ACL}, and plain Curator applications authenticated as the same identity (one with Curator's
     * default ACLs, one with a {@code CREATOR_ALL_ACL} provider of its own) still share the lock with them; a Curator
     * application of another identity is refused by the server.
     */
    @Test
    void mutexWithCredentialsSharedByAllProvidersAndCuratorApplicationsOfTheSameIdentity() throws Exception {
        String name = "interop-acl-" + System.nanoTime() + "/mutex";
        String uri = "zookeeper://alice:s3cret@" + server.address() + BASE + "?sessionTimeout=2s&connectTimeout=2s";
        List<LockService> clients = new ArrayList<>();
        for (String provider : List.of("zookeeper-raw", "zkclient", "curator")) {
            clients.add(closeLater(Locks.open(uri, provider)));
        }
        clients.get(0).mutex(name).acquire(Duration.ofSeconds(10)).release(); // creates the parents, locked down
        CuratorFramework secured = authenticated("alice:s3cret", true);
        CuratorFramework plain = authenticated("alice:s3cret", false);
        List<ACL> parentAcl = secured.getACL().forPath(path(name));
        assertEquals(1, parentAcl.size(), "the lock's parent: " + parentAcl);
        assertEquals("digest", parentAcl.get(0).getId().getScheme(), "the lock's parent: " + parentAcl);
        assertEquals(ZooDefs.Perms.ALL, parentAcl.get(0).getPerms(), "the lock's parent: " + parentAcl);

        Detector d = new Detector();
        List<Round> workers = new ArrayList<>();
        for (CuratorFramework app : List.of(secured, plain)) {
            InterProcessMutex mutex = new InterProcessMutex(app, path(name));
            workers.add(() -> {
                assertTrue(mutex.acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS));
                try {
                    d.enter();
                    d.exit();
                } finally {
                    mutex.release();
                }
            });
        }
        for (LockService s : clients) {
            workers.add(() -> {
                try (org.lockspi.Lease lease = s.mutex(name).acquire(Duration.ofMillis(TIMEOUT_MS))) {
                    d.enter();
                    d.exit();
                }
            });
        }
        runAll(workers);
        assertEquals(1, d.most.get());
        assertEquals(5 * ROUNDS, d.entries.get());
        assertEquals(List.of(), server.residue(name));

        CuratorFramework other = authenticated("mallory:other", false);
        assertThrows(KeeperException.NoAuthException.class,
                () -> new InterProcessMutex(other, path(name)).acquire(5, TimeUnit.SECONDS));
    }

    /** A started plain Curator client with digest credentials; closed after the test. */
    private CuratorFramework authenticated(String credentials, boolean creatorAcl) throws InterruptedException {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(server.address())
                .sessionTimeoutMs(3000).connectionTimeoutMs(3000).retryPolicy(new RetryOneTime(100))
                .authorization("digest", credentials.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        if (creatorAcl) {
            builder.aclProvider(new ACLProvider() {
                @Override
                public List<ACL> getDefaultAcl() {
                    return ZooDefs.Ids.CREATOR_ALL_ACL;
                }

                @Override
                public List<ACL> getAclForPath(String path) {
                    return ZooDefs.Ids.CREATOR_ALL_ACL;
                }
            });
        }
        CuratorFramework c = builder.build();
        apps.add(c);
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS));
        return c;
    }

    @Test
    void aPlainCuratorApplicationsHoldersShowInEveryProvidersInspection() throws Exception {
        String base = "interop-inspect-" + System.nanoTime();
        CuratorFramework app = apps.get(0);
        InterProcessMutex mutex = new InterProcessMutex(app, path(base + "/mutex"));
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(app, path(base + "/rw"));
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(apps.get(1), path(base + "/sem"), 3);
        assertTrue(mutex.acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        assertTrue(rw.readLock().acquire(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        java.util.Collection<Lease> leases = semaphore.acquire(2, TIMEOUT_MS, TimeUnit.MILLISECONDS);
        try {
            List<String> nodes = app.getChildren().forPath(path(base + "/mutex"));
            assertEquals(1, nodes.size(), "the mutex's node: " + nodes);
            long czxid = app.checkExists().forPath(path(base + "/mutex") + "/" + nodes.get(0)).getCzxid();
            for (LockService s : oneClientOfEachZooKeeperProvider()) {
                org.lockspi.LockInfo m = s.inspect(base + "/mutex");
                assertEquals(org.lockspi.LockInfo.Kind.MUTEX, m.kind(), s.providerName() + ": " + m);
                assertEquals(1, m.holders().size(), s.providerName() + ": " + m);
                assertEquals(czxid, m.holders().get(0).fencingToken().getAsLong(), s.providerName() + ": " + m);
                assertTrue(m.holders().get(0).since().isPresent() && !m.holders().get(0).own(), s.providerName()
                        + ": " + m);
                org.lockspi.LockInfo r = s.inspect(base + "/rw");
                assertEquals(org.lockspi.LockInfo.Kind.READ_WRITE, r.kind(), s.providerName() + ": " + r);
                assertEquals(org.lockspi.LockInfo.Mode.READ, r.holders().get(0).mode(), s.providerName() + ": " + r);
                org.lockspi.LockInfo sem = s.inspect(base + "/sem");
                assertEquals(2, sem.permitsInUse(), s.providerName() + ": " + sem);
                assertEquals(List.of(base + "/mutex", base + "/rw", base + "/sem"), s.list(base + "/"),
                        s.providerName());
            }
        } finally {
            semaphore.returnAll(leases);
            rw.readLock().release();
            mutex.release();
        }
        for (LockService s : oneClientOfEachZooKeeperProvider()) {
            assertEquals(List.of(), s.list(base), s.providerName() + " after the releases");
        }
    }
}
