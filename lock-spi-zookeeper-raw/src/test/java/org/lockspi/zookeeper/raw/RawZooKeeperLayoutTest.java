package org.lockspi.zookeeper.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * What the conformance kit does not look at: the exact node layout (Curator's), interoperation by layout with a
 * foreign client's nodes, the fencing token being the node's czxid, and parameter checks.
 * The foreign client here is a second plain ZooKeeper session creating Curator-layout nodes by hand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class RawZooKeeperLayoutTest {
    private static final String UUID_RE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    private static final Pattern MUTEX_NODE = Pattern.compile("_c_" + UUID_RE + "-lock-\\d{10}");
    private static final Pattern READ_NODE = Pattern.compile("_c_" + UUID_RE + "-__READ__\\d{10}");
    private static final Pattern WRITE_NODE = Pattern.compile("_c_" + UUID_RE + "-__WRIT__\\d{10}");
    private static final Pattern LEASE_NODE = Pattern.compile("_c_" + UUID_RE + "-lease-\\d{10}");
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final RawZooKeeperLockProvider provider = new RawZooKeeperLockProvider();
    private EmbeddedZooKeeperBackend server;
    private ZooKeeper foreign;
    private LockService locks;

    @BeforeAll
    void startServer() {
        server = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        server.close();
    }

    @BeforeEach
    void open() throws Exception {
        locks = Locks.open(server.uri() + "?sessionTimeout=4s&connectTimeout=5s", provider);
        CountDownLatch connected = new CountDownLatch(1);
        foreign = new ZooKeeper(server.address(), 4_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS), "foreign client connected");
    }

    @AfterEach
    void close() throws InterruptedException {
        locks.close();
        foreign.close();
    }

    private static String name(String base) {
        return base + "-" + NAMES.incrementAndGet() + "-" + Long.toHexString(System.nanoTime());
    }

    private List<String> children(String path) throws KeeperException, InterruptedException {
        return foreign.getChildren(path, false);
    }

    /** Creates a Curator-layout node as another client would. */
    private String foreignNode(String parent, String base) throws KeeperException, InterruptedException {
        String path = parent + "/_c_" + UUID.randomUUID() + "-" + base;
        for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
            try {
                foreign.create(path.substring(0, slash), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.CONTAINER);
            } catch (KeeperException.NodeExistsException e) {
                // there already
            }
        }
        return foreign.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
    }

    @Test
    void mutexNodeHasCuratorsNameAndItsCzxidIsTheToken() throws Exception {
        String name = name("layout/mutex");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        try (Lease lease = locks.mutex(name).acquire(Duration.ofSeconds(5))) {
            List<String> nodes = children(path);
            assertEquals(1, nodes.size(), "nodes " + nodes);
            assertTrue(MUTEX_NODE.matcher(nodes.get(0)).matches(), "Curator mutex name: " + nodes.get(0));
            Stat stat = foreign.exists(path + "/" + nodes.get(0), false);
            assertTrue(stat.getEphemeralOwner() != 0, "ephemeral");
            assertEquals(stat.getCzxid(), lease.fencingToken(), "fencing token is the node's czxid");
        }
        assertEquals(List.of(), children(path), "released");
    }

    @Test
    void readWriteNodesShareOneParent() throws Exception {
        String name = name("layout-rw");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        var rw = locks.readWriteLock(name);
        try (Lease write = rw.writeLock().acquire(Duration.ofSeconds(5));
             Lease read = rw.readLock().acquire(Duration.ofSeconds(5))) { // downgrade: granted at once
            List<String> nodes = children(path);
            assertEquals(2, nodes.size(), "nodes " + nodes);
            assertEquals(1, nodes.stream().filter(n -> WRITE_NODE.matcher(n).matches()).count(), "write " + nodes);
            assertEquals(1, nodes.stream().filter(n -> READ_NODE.matcher(n).matches()).count(), "read " + nodes);
            assertTrue(read.fencingToken() > write.fencingToken(), "the read node came later");
            // Curator's layout since CURATOR-621: the downgraded read carries the write node's sequence number
            assertEquals(1, nodes.stream().map(n -> n.substring(n.length() - 10)).distinct().count(),
                    "the downgraded read node carries the write node's sequence: " + nodes);
        }
        assertEquals(List.of(), children(path), "released");
    }

    @Test
    void semaphoreLeaseLivesUnderLeasesAndTheInternalMutexIsFreed() throws Exception {
        String name = name("layout-sem");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        try (Lease lease = locks.semaphore(name, 2).acquire(Duration.ofSeconds(5));
             Lease mutex = locks.nonReentrantMutex(name + "-nr").acquire(Duration.ofSeconds(5))) {
            List<String> leases = children(path + "/leases");
            assertEquals(1, leases.size(), "leases " + leases);
            assertTrue(LEASE_NODE.matcher(leases.get(0)).matches(), "Curator lease name: " + leases.get(0));
            assertEquals(foreign.exists(path + "/leases/" + leases.get(0), false).getCzxid(), lease.fencingToken());
            assertEquals(List.of(), children(path + "/locks"), "internal mutex released after acquiring");
            assertEquals(1, children(path + "-nr/leases").size(), "non-reentrant mutex: a one-lease semaphore");
        }
        assertEquals(List.of(), children(path + "/leases"), "released");
    }

    @Test
    void foreignMutexNodeBlocksUsUntilItGoes() throws Exception {
        String name = name("interop-mutex");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        String theirs = foreignNode(path, "lock-");
        long theirToken = foreign.exists(theirs, false).getCzxid();
        assertEquals(Optional.empty(), locks.mutex(name).tryAcquire(), "held by the foreign node");
        assertEquals(List.of(theirs.substring(path.length() + 1)), children(path), "the failed try left nothing");
        CompletableFuture<Long> ours = waitForMutex(name);
        awaitChildren(path, 2); // our node is queued behind theirs
        // the server announces no watch; look at its watch table briefly: our waiter's watch on the node ahead of it
        // (awaitChildren's own child watch on the lock's path aside)
        String node = name + "/" + theirs.substring(path.length() + 1);
        Poll.until("watches on " + theirs, 1, () -> server.wakeupRegistrations(node), Duration.ofSeconds(5));
        assertFalse(ours.isDone(), "still waiting behind the foreign node");
        foreign.delete(theirs, -1);
        long token = ours.get(10, TimeUnit.SECONDS);
        assertTrue(token > theirToken, "our token " + token + " follows the foreign holder's " + theirToken);
    }

    @Test
    void foreignWriteNodeBlocksReadersAndForeignReadNodeBlocksWriters() throws Exception {
        String name = name("interop-rw");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        var rw = locks.readWriteLock(name);
        String writer = foreignNode(path, "__WRIT__");
        assertEquals(Optional.empty(), rw.readLock().tryAcquire(), "a foreign writer blocks readers");
        foreign.delete(writer, -1);
        String reader = foreignNode(path, "__READ__");
        try (Lease read = rw.readLock().acquire(Duration.ofSeconds(5))) {
            assertTrue(read.isHeld(), "readers share with a foreign reader");
        }
        assertEquals(Optional.empty(), rw.writeLock().tryAcquire(), "a foreign reader blocks writers");
        foreign.delete(reader, -1);
        try (Lease write = rw.writeLock().acquire(Duration.ofSeconds(5))) {
            assertTrue(write.isHeld());
        }
    }

    @Test
    void foreignLeasesCountAgainstOurPermits() throws Exception {
        String name = name("interop-sem");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        String first = foreignNode(path + "/leases", "lease-");
        foreignNode(path + "/leases", "lease-");
        assertEquals(Optional.empty(), locks.semaphore(name, 2).tryAcquire(), "both permits taken");
        assertEquals(List.of(), children(path + "/locks"), "the failed try released the internal mutex");
        assertEquals(2, children(path + "/leases").size(), "the failed try left no lease");
        foreign.delete(first, -1);
        try (Lease lease = locks.semaphore(name, 2).acquire(Duration.ofSeconds(5))) {
            assertTrue(lease.isHeld());
        }
    }

    @Test
    void foreignInternalMutexHolderBlocksSemaphore() throws Exception {
        String name = name("interop-sem-lock");
        String path = EmbeddedZooKeeperBackend.ROOT + "/" + name;
        String lock = foreignNode(path + "/locks", "lock-");
        assertEquals(Optional.empty(), locks.nonReentrantMutex(name).tryAcquire(),
                "a foreign client inside the semaphore's internal mutex keeps us out");
        foreign.delete(lock, -1);
        try (Lease lease = locks.nonReentrantMutex(name).acquire(Duration.ofSeconds(5))) {
            assertTrue(lease.isHeld());
        }
    }

    @Test
    void parametersAreCheckedAtOnce() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(server.uri() + "?sessionTimeout=soon", provider));
        assertTrue(e.getMessage().contains("sessionTimeout"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(server.uri() + "?connectTimeout=0s", provider));
        assertTrue(e.getMessage().contains("connectTimeout"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(server.uri() + "?retries=3", provider));
        assertTrue(e.getMessage().contains("retries"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("zookeeper://" + server.address() + "/apps/./x?connectTimeout=5s", provider));
        assertTrue(e.getMessage().contains("/apps/./x"), e.getMessage());
    }

    @Test
    void discoveredByServiceLoaderAsThePreferredZooKeeperProviderHere() {
        assertTrue(Locks.providers().stream().anyMatch(p -> p.name().equals("zookeeper-raw") && p.priority() == 30),
                "installed: " + Locks.providers());
        try (LockService service = Locks.open(server.uri() + "?connectTimeout=5s", "zookeeper-raw")) {
            assertEquals("zookeeper-raw", service.providerName());
        }
    }

    private CompletableFuture<Long> waitForMutex(String name) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (Lease lease = locks.mutex(name).acquire(Duration.ofSeconds(20))) {
                result.complete(lease.fencingToken());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "waiter-" + name);
        t.start();
        return result;
    }

    /** Waits, on child watches, until {@code path} has {@code count} children. */
    private void awaitChildren(String path, int count) throws KeeperException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            CountDownLatch changed = new CountDownLatch(1);
            List<String> now = foreign.getChildren(path, e -> changed.countDown());
            if (now.size() == count) {
                return;
            }
            long left = end - System.nanoTime();
            assertTrue(left > 0 && changed.await(left, TimeUnit.NANOSECONDS),
                    path + " has " + count + " children in time; has " + now);
        }
    }
}
