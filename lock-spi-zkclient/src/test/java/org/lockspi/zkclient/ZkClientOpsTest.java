package org.lockspi.zkclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.EphemeralType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.LockConnectionException;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;
import org.lockspi.zkclient.internal.ZkClientOps;
import org.lockspi.zookeeper.recipe.ZkOps;

/** ZkClientOps against a real ZooKeeper server: node creation, watches left on the server, connection events. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class ZkClientOpsTest {
    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final Duration CONNECT = Duration.ofSeconds(5);

    private EmbeddedZooKeeperBackend zk;

    @BeforeAll
    void startServer() {
        zk = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        zk.close();
    }

    private ZkClientOps open() {
        return ZkClientOps.connect(zk.address(), SESSION, CONNECT, null);
    }

    /** A plain ZooKeeper client, to look at what the provider left. */
    private ZooKeeper plain() throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper plain = new ZooKeeper(zk.address(), 4000, e -> {
            if (e.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS), "plain client connected");
        return plain;
    }

    @Test
    void createsEphemeralSequentialUnderContainerParentsWithItsCzxid() throws Exception {
        try (ZkClientOps ops = open()) {
            ZkOps.Node node = ops.createEphemeralSequential("/ops-create/a/b/_c_1234-lock-");
            assertTrue(node.path().matches("/ops-create/a/b/_c_1234-lock-\\d{10}"), node.path());
            ZooKeeper plain = plain();
            try {
                Stat stat = plain.exists(node.path(), false);
                assertNotNull(stat, "node exists");
                assertEquals(stat.getCzxid(), node.czxid(), "czxid");
                assertEquals(EphemeralType.NORMAL, EphemeralType.get(stat.getEphemeralOwner()), "ephemeral");
                assertEquals(0, plain.getData(node.path(), false, null).length,
                        "no data: ZkClient's Java serialisation is not used");
                for (String parent : new String[] {"/ops-create", "/ops-create/a", "/ops-create/a/b"}) {
                    assertNotNull(plain.exists(parent, false), parent);
                    // clients see 0 as a container's ephemeral owner; the server knows better
                    assertTrue(zk.containers().contains(parent), parent + " is a container node");
                }
                assertEquals(node.czxid(), ops.czxid(node.path()));
                assertEquals(-1, ops.czxid("/ops-create/a/b/none"));
                assertEquals(List.of(node.path().substring("/ops-create/a/b/".length())),
                        ops.children("/ops-create/a/b"));
                ops.delete(node.path());
                assertThrows(KeeperException.NoNodeException.class, () -> ops.delete(node.path()));
                assertThrows(KeeperException.NoNodeException.class, () -> ops.children("/ops-create/none"));
            } finally {
                plain.close();
            }
        }
    }

    @Test
    void watchOnMissingNodeIsRefusedAndLeavesNoWatch() throws Exception {
        try (ZkClientOps ops = open()) {
            int before = zk.watchCount();
            assertFalse(ops.watchNode("/ops-missing", () -> { }), "no such node");
            assertEquals(before, zk.watchCount(), "watches on the server");
            assertThrows(KeeperException.NoNodeException.class, () -> ops.watchChildren("/ops-missing", () -> { }));
            assertEquals(before, zk.watchCount(), "watches on the server");
        }
    }

    @Test
    void deletedNodeFiresOnceAndLeavesNoWatch() throws Exception {
        try (ZkClientOps ops = open()) {
            ZkOps.Node node = ops.createEphemeralSequential("/ops-fire/_c_1-lock-");
            int before = zk.watchCount();
            CountDownLatch fired = new CountDownLatch(1);
            assertTrue(ops.watchNode(node.path(), fired::countDown));
            assertEquals(before + 1, zk.watchCount(), "one data watch");
            ops.delete(node.path());
            assertTrue(fired.await(10, TimeUnit.SECONDS), "fired on delete");
            // ZkClient re-arms a watch before it calls the listener; with exists() that would stay forever
            assertEquals(before, zk.watchCount(), "watches left on the server after the delete");
        }
    }

    @Test
    void unwatchDropsTheWatchOnTheServer() throws Exception {
        try (ZkClientOps ops = open()) {
            ZkOps.Node node = ops.createEphemeralSequential("/ops-unwatch/_c_1-lock-");
            int before = zk.watchCount();
            Runnable never = () -> { throw new AssertionError("fired after unwatch"); };
            assertTrue(ops.watchNode(node.path(), never));
            List<String> children = ops.watchChildren("/ops-unwatch", never);
            assertEquals(1, children.size());
            assertEquals(before + 2, zk.watchCount(), "a data watch and a child watch");
            ops.unwatch(node.path(), never);
            ops.unwatch("/ops-unwatch", never);
            assertEquals(before, zk.watchCount(), "watches left on the server after unwatch");
            ops.delete(node.path()); // would fire the callbacks if they were still there
            ops.unwatch(node.path(), never); // nothing to drop: harmless
        }
    }

    @Test
    void childWatchFiresOnNewChild() throws Exception {
        try (ZkClientOps ops = open()) {
            ZkOps.Node first = ops.createEphemeralSequential("/ops-children/_c_1-lease-");
            CountDownLatch fired = new CountDownLatch(1);
            Runnable callback = fired::countDown;
            assertEquals(1, ops.watchChildren("/ops-children", callback).size());
            ZkOps.Node second = ops.createEphemeralSequential("/ops-children/_c_2-lease-");
            assertTrue(fired.await(10, TimeUnit.SECONDS), "fired on a new child");
            ops.unwatch("/ops-children", callback);
            assertEquals(0, zk.watchCount(), "watches left on the server");
            ops.delete(first.path());
            ops.delete(second.path());
        }
    }

    @Test
    void connectionEventsInOrderAndFailFastWhileDisconnected() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (ZkClientOps ops = open()) {
            ops.connectionListener(new Recorder(events));
            ZkOps.Node node = ops.createEphemeralSequential("/ops-conn/_c_1-lock-");
            zk.stopServer();
            assertEquals("disconnected", events.poll(10, TimeUnit.SECONDS));
            long start = System.nanoTime();
            assertThrows(KeeperException.ConnectionLossException.class, () -> ops.children("/ops-conn"));
            assertThrows(KeeperException.ConnectionLossException.class,
                    () -> ops.createEphemeralSequential("/ops-conn/_c_2-lock-"));
            assertThrows(KeeperException.ConnectionLossException.class, () -> ops.watchNode(node.path(), () -> { }));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(tookMs < 500, "operations fail at once while disconnected, not after ZkClient's retries: "
                    + tookMs + " ms");
            zk.startServer();
            assertEquals("reconnected", events.poll(10, TimeUnit.SECONDS));
            assertEquals(node.czxid(), ops.czxid(node.path()), "the session and its node survived");

            zk.expireAllSessions();
            assertEquals("disconnected", events.poll(10, TimeUnit.SECONDS));
            assertEquals("sessionExpired", events.poll(10, TimeUnit.SECONDS));
            assertEquals("newSession", events.poll(10, TimeUnit.SECONDS));
            assertEquals(-1, ops.czxid(node.path()), "the old session's node is gone");
            ZkOps.Node again = ops.createEphemeralSequential("/ops-conn/_c_3-lock-");
            assertTrue(again.czxid() > node.czxid(), "usable in the new session");
            assertEquals(null, events.poll(200, TimeUnit.MILLISECONDS), "no further events");
        }
    }

    @Test
    void unreachableServerFailsWithinConnectTimeoutAndLeavesNoThread() throws InterruptedException {
        String address = "127.0.0.1:" + Ports.freeLoopbackPort();
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        long start = System.nanoTime();
        LockConnectionException e = assertThrows(LockConnectionException.class,
                () -> ZkClientOps.connect(address, SESSION, Duration.ofMillis(700), null));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(e.getMessage().contains(address), e.getMessage());
        assertTrue(tookMs >= 600 && tookMs < 3_000, "failed after " + tookMs + " ms");
        assertNoNewClientThreads(before);
    }

    @Test
    void interruptedConnectFailsAndLeavesNoThread() throws InterruptedException {
        String address = "127.0.0.1:" + Ports.freeLoopbackPort();
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread opener = new Thread(() -> {
            try {
                ZkClientOps.connect(address, SESSION, Duration.ofSeconds(30), null).close();
            } catch (Throwable t) {
                thrown.set(t);
            }
            flag.set(Thread.currentThread().isInterrupted());
        }, "tck-opener");
        opener.start();
        // the opener waits on ZkClient's connection condition; there is no event to wait for instead
        while (opener.getState() != Thread.State.TIMED_WAITING && opener.isAlive()) {
            Thread.onSpinWait();
        }
        opener.interrupt();
        opener.join(10_000);
        assertFalse(opener.isAlive(), "open returned after the interrupt");
        assertTrue(thrown.get() instanceof LockConnectionException, "LockConnectionException, not " + thrown.get());
        assertTrue(thrown.get().getMessage().contains(address), thrown.get().getMessage());
        assertEquals(Boolean.TRUE, flag.get(), "the interrupt flag is kept");
        before.add(opener);
        assertNoNewClientThreads(before);
    }

    /** ZkClient's event thread and ZooKeeper's send and event threads started after {@code before} all end. */
    private static void assertNoNewClientThreads(Set<Thread> before) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (!before.contains(t) && (n.startsWith("ZkClient-EventThread") || n.contains("-SendThread(")
                    || n.endsWith("-EventThread"))) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
                if (t.isAlive()) {
                    left.add(n + " " + t.getState());
                }
            }
        }
        assertTrue(left.isEmpty(), "client threads still alive: " + left);
    }

    private static final class Recorder implements ZkOps.ConnectionListener {
        private final BlockingQueue<String> events;

        Recorder(BlockingQueue<String> events) {
            this.events = events;
        }

        @Override
        public void disconnected() {
            events.add("disconnected");
        }

        @Override
        public void reconnected() {
            events.add("reconnected");
        }

        @Override
        public void sessionExpired() {
            events.add("sessionExpired");
        }

        @Override
        public void newSession() {
            events.add("newSession");
        }
    }

}
