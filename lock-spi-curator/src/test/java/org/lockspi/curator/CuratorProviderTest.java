package org.lockspi.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.ConnectionState;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.DistributedSemaphore;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;

/** The Curator provider against a real in-process ZooKeeper server. */
class CuratorProviderTest extends ZkTestSupport {
    private static final Duration WAIT = Duration.ofSeconds(10);

    // ---- discovery and configuration ----------------------------------------------------------------------------

    @Test
    void discoveredWithNamePriorityFeaturesAndParameters() {
        LockProvider p = Locks.providers().stream().filter(x -> x.name().equals("curator")).findFirst().orElseThrow();
        assertInstanceOf(CuratorLockProvider.class, p);
        assertEquals(20, p.priority());
        assertEquals(java.util.Set.of("zookeeper"), p.schemes());
        assertEquals(java.util.Set.of("sessionTimeout", "connectTimeout", "retryBaseSleep", "retryMaxRetries",
                        "uncertainAfter", "acl", "tls", "trustStore", "trustStorePassword", "keyStore",
                        "keyStorePassword"),
                p.parameters());
        assertTrue(p.features().contains(LockFeature.FENCING_TOKENS));
        assertFalse(p.features().contains(LockFeature.HERD_FREE));
        // the other ZooKeeper providers are on this module's test class path: configuration picks curator
        try (LockService s = Locks.open(uri() + "&provider=curator")) {
            assertEquals("curator", s.providerName());
        }
    }

    @Test
    void badParametersFailAtOnce() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(uri() + "&bogus=1", "curator"));
        assertTrue(unknown.getMessage().contains("bogus"), unknown.getMessage());
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("zookeeper://" + server.address() + "/x?sessionTimeout=soon", "curator"));
        assertTrue(malformed.getMessage().contains("sessionTimeout"), malformed.getMessage());
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("zookeeper://" + server.address() + "/x?retryMaxRetries=30", "curator"));
        assertTrue(range.getMessage().contains("retryMaxRetries"), range.getMessage());
    }

    @Test
    void unreachableServerFailsWithinConnectTimeoutAndLeavesNoThreads() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        open().close(); // class loading and warm-up are not part of the connect timeout
        List<Thread> before = clientThreads();
        long start = System.nanoTime();
        LockConnectionException e = assertThrows(LockConnectionException.class, () -> Locks.open(
                "zookeeper://127.0.0.1:" + port + "/x?connectTimeout=300ms", "curator"));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        // the connect timeout, then closing a client that never connected (ZooKeeper's send thread sleeps <= 1 s)
        assertTrue(millis < 2500, "took " + millis + " ms");
        assertNoNewClientThreads(before);
    }

    @Test
    void closeLeavesNoClientThreads() throws Exception {
        List<Thread> before = clientThreads();
        LockService s = Locks.open(uri(), "curator");
        s.mutex("threads").acquire().release();
        s.close();
        s.close(); // idempotent
        assertNoNewClientThreads(before);
    }

    private static void assertNoNewClientThreads(List<Thread> before) throws InterruptedException {
        for (Thread t : clientThreads()) {
            if (!before.contains(t)) {
                t.join(5000);
                assertFalse(t.isAlive(), "client thread left running: " + t.getName());
            }
        }
    }

    // ---- mutex ----------------------------------------------------------------------------------------------------

    @Test
    void mutexExcludesAcrossClientsAndTokensGrow() throws Exception {
        LockService a = open();
        LockService b = open();
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger maxHolders = new AtomicInteger();
        AtomicLong lastToken = new AtomicLong(-1);
        AtomicInteger tokenErrors = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (LockService s : List.of(a, b, a, b)) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        try (Lease lease = s.mutex("counter").acquire(WAIT)) {
                            maxHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
                            if (lease.fencingToken() <= lastToken.get()) {
                                tokenErrors.incrementAndGet();
                            }
                            lastToken.set(lease.fencingToken());
                            holders.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, maxHolders.get());
        assertEquals(0, tokenErrors.get());
        assertEquals(List.of(), server.residue("counter"));
    }

    @Test
    void reentrantHoldIsOneNodeInCuratorLayout() throws Exception {
        LockService a = open();
        DistributedLock m = a.mutex("reentrant");
        Lease outer = m.acquire();
        Lease inner = m.acquire();
        assertEquals(2, m.holdCount());
        assertEquals(outer.fencingToken(), inner.fencingToken());
        List<String> nodes = server.residue("reentrant");
        assertEquals(1, nodes.size(), nodes.toString());
        assertTrue(nodes.get(0).matches(path("reentrant") + "/_c_[0-9a-f-]{36}-lock-\\d{10}"), nodes.toString());
        inner.release();
        assertEquals(1, server.residue("reentrant").size());
        outer.release();
        assertEquals(List.of(), server.residue("reentrant"));
    }

    @Test
    void timeoutAndTryLeaveNothingBehind() throws Exception {
        LockService a = open();
        LockService b = open();
        try (Lease held = a.mutex("timeout").acquire();
             Lease rw = a.readWriteLock("timeout-rw").readLock().acquire();
             Lease sem = a.semaphore("timeout-s", 1).acquire()) {
            long start = System.nanoTime();
            assertEquals(Optional.empty(), b.mutex("timeout").tryAcquire(Duration.ofMillis(300)));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 290 && millis < 2000, "took " + millis + " ms");
            assertEquals(Optional.empty(), b.mutex("timeout").tryAcquire());
            assertEquals(1, server.residue("timeout").size());
            assertEquals(Optional.empty(), b.readWriteLock("timeout-rw").writeLock().tryAcquire());
            assertEquals(Optional.empty(), b.semaphore("timeout-s", 1).tryAcquire(Duration.ofMillis(100)));
            assertEquals(1, server.residue("timeout-rw").size());
            assertEquals(1, server.residue("timeout-s").size());
        }
        assertEquals(List.of(), server.residue("timeout"));
        assertEquals(List.of(), server.residue("timeout-rw"));
        assertEquals(List.of(), server.residue("timeout-s"));
    }

    @Test
    void interruptedWaitersLeaveNothingBehind() throws Exception {
        LockService a = open();
        LockService b = open();
        interruptWhileWaiting(a.mutex("int-m"), b.mutex("int-m"), "int-m", 1);
        interruptWhileWaiting(a.readWriteLock("int-rw").writeLock(), b.readWriteLock("int-rw").readLock(), "int-rw", 1);
        // a semaphore waiter holds Curator's internal lock node and its own lease node while it waits
        interruptWhileWaiting(a.semaphore("int-s", 1), b.semaphore("int-s", 1), "int-s", 2);
        interruptWhileWaiting(a.nonReentrantMutex("int-n"), b.nonReentrantMutex("int-n"), "int-n", 2);
        LockService c = open();
        try (Lease first = a.semaphore("int-q", 1).acquire()) {
            // a second waiter queues on Curator's internal lock: interrupt it there
            Thread head = new Thread(() -> {
                try {
                    b.semaphore("int-q", 1).acquire(WAIT).release();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            head.start();
            awaitResidue("int-q", 3);
            interruptWhileWaiting(null, c.semaphore("int-q", 1), "int-q", 1);
            assertEquals(3, server.residue("int-q").size());
            first.release();
            head.join(10_000);
        }
        assertEquals(List.of(), server.residue("int-q"));
    }

    private void interruptWhileWaiting(Acquirable holder, Acquirable waiter, String name, int waiterNodes)
            throws Exception {
        if (holder == null) {
            interruptWaiter(waiter, name, waiterNodes);
            return;
        }
        try (Lease held = holder.acquire()) {
            interruptWaiter(waiter, name, waiterNodes);
        }
        assertEquals(List.of(), server.residue(name), name);
    }

    /**
     * Interrupts an acquisition of {@code waiter} once it waits ({@code waiterNodes} nodes of it on the server), and
     * checks it fails with InterruptedException and leaves the lock's nodes as they were.
     */
    static void interruptWaiter(Acquirable waiter, String name, int waiterNodes) throws Exception {
        {
            List<String> heldNodes = server.residue(name);
            BlockingQueue<Throwable> outcome = new ArrayBlockingQueue<>(1);
            Thread t = new Thread(() -> {
                try {
                    waiter.acquire();
                    outcome.add(new AssertionError("acquired"));
                } catch (Throwable e) {
                    outcome.add(e);
                }
            });
            t.start();
            awaitResidue(name, heldNodes.size() + waiterNodes);
            t.interrupt();
            Throwable e = outcome.poll(10, TimeUnit.SECONDS);
            assertInstanceOf(InterruptedException.class, e, String.valueOf(e));
            assertEquals(heldNodes, server.residue(name), name);
        }
    }

    @Test
    void closeFailsWaitingAcquisitionWithIllegalState() throws Exception {
        LockService a = open();
        LockService b = open();
        try (Lease held = a.mutex("close").acquire()) {
            BlockingQueue<Throwable> outcome = new ArrayBlockingQueue<>(1);
            Thread t = new Thread(() -> {
                try {
                    b.mutex("close").acquire();
                    outcome.add(new AssertionError("acquired"));
                } catch (Throwable e) {
                    outcome.add(e);
                }
            });
            t.start();
            awaitResidue("close", 2);
            b.close();
            Throwable e = outcome.poll(10, TimeUnit.SECONDS);
            assertInstanceOf(IllegalStateException.class, e, String.valueOf(e));
            t.join(5000);
            assertEquals(1, server.residue("close").size());
        }
    }

    // ---- read-write -----------------------------------------------------------------------------------------------

    @Test
    void readersShareWritersExcludeDowngradeWorksUpgradeRefused() throws Exception {
        LockService a = open();
        LockService b = open();
        DistributedReadWriteLock ra = a.readWriteLock("rw");
        DistributedReadWriteLock rb = b.readWriteLock("rw");
        try (Lease r1 = ra.readLock().acquire(); Lease r2 = rb.readLock().acquire(WAIT)) {
            assertTrue(r1.isHeld() && r2.isHeld());
            assertEquals(Optional.empty(), open().readWriteLock("rw").writeLock().tryAcquire(Duration.ofMillis(100)));
            assertThrows(IllegalMonitorStateException.class, () -> ra.writeLock().acquire(Duration.ofSeconds(1)));
        }
        Lease w = ra.writeLock().acquire(WAIT);
        assertEquals(Optional.empty(), rb.readLock().tryAcquire(Duration.ofMillis(100)));
        // downgrade: our own write is ahead of the read node, Curator grants it because this thread owns the write
        Lease r = ra.readLock().acquire(Duration.ZERO);
        assertTrue(r.fencingToken() > w.fencingToken());
        w.release();
        try (Lease other = rb.readLock().acquire(WAIT)) {
            assertTrue(other.isHeld());
        }
        r.release();
        assertEquals(List.of(), server.residue("rw"));
    }

    @Test
    void waitingWriterBlocksLaterReaders() throws Exception {
        LockService a = open();
        LockService b = open();
        LockService c = open();
        Lease r = a.readWriteLock("fifo").readLock().acquire();
        CountDownLatch writerIn = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (Lease w = b.readWriteLock("fifo").writeLock().acquire(WAIT)) {
                writerIn.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        writer.start();
        awaitResidue("fifo", 2);
        assertEquals(Optional.empty(), c.readWriteLock("fifo").readLock().tryAcquire(Duration.ofMillis(100)));
        r.release();
        assertTrue(writerIn.await(10, TimeUnit.SECONDS));
        writer.join(5000);
    }

    // ---- semaphore and non-reentrant mutex -----------------------------------------------------------------------

    @Test
    void semaphoreCountsPermitsAndAnyThreadReleases() throws Exception {
        LockService a = open();
        LockService b = open();
        LockService c = open();
        DistributedSemaphore sa = a.semaphore("sem", 2);
        Lease l1 = sa.acquire();
        Lease l2 = b.semaphore("sem", 2).acquire(WAIT);
        assertEquals(Optional.empty(), c.semaphore("sem", 2).tryAcquire(Duration.ofMillis(100)));
        assertNotEquals(l1.fencingToken(), l2.fencingToken());
        Thread other = new Thread(l1::release);
        other.start();
        other.join(5000);
        assertEquals(LeaseState.RELEASED, l1.state());
        try (Lease l3 = c.semaphore("sem", 2).acquire(WAIT)) {
            assertTrue(l3.fencingToken() > l2.fencingToken());
            List<String> nodes = server.residue("sem");
            assertEquals(2, nodes.size());
            assertTrue(nodes.stream().allMatch(n -> n.matches(path("sem") + "/leases/_c_[0-9a-f-]{36}-lease-\\d{10}")),
                    nodes.toString());
        }
        l2.release();
        assertEquals(List.of(), server.residue("sem"));
    }

    @Test
    void nonReentrantMutexBlocksItsOwnThread() throws Exception {
        LockService a = open();
        Acquirable m = a.nonReentrantMutex("nr");
        Lease first = m.acquire();
        assertEquals(Optional.empty(), m.tryAcquire(Duration.ofMillis(100)));
        Thread other = new Thread(first::release);
        other.start();
        other.join(5000);
        try (Lease second = m.tryAcquire().orElseThrow()) {
            assertTrue(second.fencingToken() > first.fencingToken());
        }
        assertEquals(List.of(), server.residue("nr"));
    }

    // ---- failures -------------------------------------------------------------------------------------------------

    @Test
    void sessionExpiryMakesLeasesLostAndOthersAcquire() throws Exception {
        LockService a = open();
        LockService b = open();
        Lease mutex = a.mutex("lost").acquire();
        Lease sem = a.semaphore("lost-s", 1).acquire();
        Lease write = a.readWriteLock("lost-rw").writeLock().acquire();
        BlockingQueue<LeaseState> states = new ArrayBlockingQueue<>(10);
        mutex.addListener((lease, previous, current) -> states.add(current));
        CountDownLatch allLost = new CountDownLatch(2);
        sem.addListener((lease, previous, current) -> {
            if (current == LeaseState.LOST) {
                allLost.countDown();
            }
        });
        write.addListener((lease, previous, current) -> {
            if (current == LeaseState.LOST) {
                allLost.countDown();
            }
        });
        server.forceLoss("lost");
        LeaseState s;
        do {
            s = states.poll(10, TimeUnit.SECONDS);
        } while (s != null && s != LeaseState.LOST);
        assertEquals(LeaseState.LOST, s);
        assertTrue(allLost.await(10, TimeUnit.SECONDS));
        assertEquals(LeaseState.LOST, mutex.state());
        assertFalse(a.mutex("lost").isHeldByCurrentThread());
        try (Lease other = b.mutex("lost").acquire(WAIT)) {
            assertTrue(other.fencingToken() > mutex.fencingToken());
            mutex.release(); // harmless: removes nothing of the new holder
            assertEquals(1, server.residue("lost").size());
            assertTrue(other.isHeld());
        }
        // the old client works again on its new session, Curator's old state does not fake a hold
        try (Lease again = a.mutex("lost").acquire(WAIT)) {
            assertTrue(again.isHeld());
            assertEquals(1, server.residue("lost").size());
        }
        sem.release();
        write.release();
    }

    @Test
    void serverRestartSuspendsThenRestoresAndTokensKeepGrowing() throws Exception {
        LockService a = open("5s");
        Lease held = a.mutex("restart").acquire();
        BlockingQueue<LeaseState> states = new ArrayBlockingQueue<>(10);
        held.addListener((lease, previous, current) -> states.add(current));
        long before = held.fencingToken();
        server.restart();
        assertEquals(LeaseState.UNCERTAIN, states.poll(10, TimeUnit.SECONDS));
        assertEquals(LeaseState.HELD, states.poll(10, TimeUnit.SECONDS));
        held.release();
        // the container parent may be gone and sequences restart; the czxid still grows
        try (CuratorFramework raw = rawClient(null)) {
            raw.delete().quietly().forPath(path("restart"));
        }
        try (Lease next = a.mutex("restart").acquire(WAIT)) {
            assertTrue(next.fencingToken() > before, next.fencingToken() + " <= " + before);
        }
    }

    @Test
    void timedWaitDuringOutageEndsNearItsDeadline() throws Exception {
        LockService a = open("5s");
        LockService b = open("5s");
        Lease held = a.mutex("outage").acquire();
        BlockingQueue<Object> outcome = new ArrayBlockingQueue<>(1);
        Duration timeout = Duration.ofMillis(1500);
        Thread t = new Thread(() -> {
            try {
                outcome.add(b.mutex("outage").tryAcquire(timeout));
            } catch (Throwable e) {
                outcome.add(e);
            }
        });
        long start = System.nanoTime();
        t.start();
        awaitResidue("outage", 2);
        server.stopServer();
        try {
            Object result = outcome.poll(20, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // Curator waits for the connection per operation (connectTimeout, 2 s here): the operation running
            // when the deadline passes, the one retry begun before it, and the clean-up delete may each wait once
            assertTrue(millis < timeout.toMillis() + 3 * 2000 + 1000, "took " + millis + " ms");
            assertTrue(Optional.empty().equals(result) || result instanceof LockConnectionException,
                    String.valueOf(result));
        } finally {
            server.startServer();
        }
        // back within the session timeout: the holder's session and lease survive, the waiter's node goes
        awaitResidue("outage", 1);
        // the holder's client reconnects on its own schedule (the waiter's may be back first): a release before
        // then is left to the reconnection and says so
        Poll.until("the holder connected again", ConnectionState.CONNECTED, a::connectionState,
                Duration.ofSeconds(10));
        held.release();
        awaitResidue("outage", 0);
    }

    // ---- an application's own client ------------------------------------------------------------------------------

    @Test
    void serviceOnExistingClientUsesItsNamespaceAndLeavesItOpen() throws Exception {
        try (CuratorFramework app = rawClient("tck/appns")) {
            LockService s = CuratorLockProvider.open(app);
            assertEquals("curator", s.providerName());
            Lease l = s.mutex("existing").acquire();
            assertEquals(1, server.residue("appns/existing").size());
            Lease sem = s.semaphore("existing-s", 3).acquire();
            assertEquals(1, server.residue("appns/existing-s").size());
            Lease released = s.mutex("existing-released").acquire();
            released.release(); // the release's own delete, in the client's namespace
            assertEquals(List.of(), server.residue("appns/existing-released"));
            s.close();
            assertEquals(LeaseState.RELEASED, l.state());
            assertEquals(List.of(), server.residue("appns/existing"));
            assertEquals(List.of(), server.residue("appns/existing-s"));
            assertEquals(LeaseState.RELEASED, sem.state());
            assertEquals(org.apache.curator.framework.imps.CuratorFrameworkState.STARTED, app.getState());
            assertTrue(app.checkExists().forPath("/existing") != null);
        }
        try (CuratorFramework app = rawClient(null);
             LockService s = CuratorLockProvider.open(app, BASE + "/base")) {
            try (Lease l = s.mutex("x").acquire()) {
                assertEquals(1, server.residue("base/x").size());
            }
        }
    }

    @Test
    void existingClientMustBeStarted() {
        try (CuratorFramework app = CuratorFrameworkFactory.newClient(server.address(), new RetryOneTime(10))) {
            assertThrows(IllegalArgumentException.class, () -> CuratorLockProvider.open(app));
        }
        assertThrows(IllegalArgumentException.class, () -> CuratorLockProvider.open(rawClientUnstarted(), "no-slash"));
    }

    private static CuratorFramework rawClientUnstarted() {
        return CuratorFrameworkFactory.newClient(server.address(), new RetryOneTime(10));
    }

    static CuratorFramework rawClient(String namespace) throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.address())
                .sessionTimeoutMs(3000).connectionTimeoutMs(3000).retryPolicy(new RetryOneTime(100))
                .namespace(namespace).build();
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS));
        return c;
    }

    /** Waits until the server shows {@code n} nodes of acquisitions under lock {@code name} (a waiter has queued). */
    static void awaitResidue(String name, int n) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.residue(name).size() != n) {
            assertTrue(System.nanoTime() < end, "expected " + n + " nodes under " + path(name) + ": "
                    + server.residue(name));
            Thread.sleep(10); // server state has no event to wait on
        }
    }
}
