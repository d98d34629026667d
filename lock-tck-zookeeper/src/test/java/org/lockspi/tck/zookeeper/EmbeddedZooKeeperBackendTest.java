package org.lockspi.tck.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.TckBackend.Capability;

/** The embedded ZooKeeper backend, checked with the plain ZooKeeper client. */
@Timeout(60)
class EmbeddedZooKeeperBackendTest {
    private static final byte[] NO_DATA = new byte[0];
    private static EmbeddedZooKeeperBackend backend;
    private final List<ZooKeeper> clients = new ArrayList<>();

    @BeforeAll
    static void start() {
        backend = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    static void stop() {
        backend.close();
        backend.close(); // idempotent
    }

    @AfterEach
    void closeClients() throws InterruptedException {
        for (ZooKeeper zk : clients) {
            zk.close();
        }
    }

    /** A client on the chroot, connected; its state changes go to {@code states}. */
    private ZooKeeper connect(int sessionMs, BlockingQueue<Watcher.Event.KeeperState> states)
            throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(backend.address() + EmbeddedZooKeeperBackend.ROOT, sessionMs, e -> {
            if (e.getType() == Watcher.Event.EventType.None) {
                if (states != null) {
                    states.add(e.getState());
                }
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            }
        });
        clients.add(zk);
        assertTrue(connected.await(10, TimeUnit.SECONDS), "connected to " + backend);
        return zk;
    }

    private ZooKeeper connect() throws IOException, InterruptedException {
        return connect(4_000, null);
    }

    /** Curator's mutex layout: container parent, protected ephemeral-sequential child. */
    private static String lockNode(ZooKeeper zk, String lock) throws KeeperException, InterruptedException {
        mkdirs(zk, "/" + lock);
        return zk.create("/" + lock + "/_c_0b9d-lock-", NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL);
    }

    private static void mkdirs(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        StringBuilder p = new StringBuilder();
        for (String segment : path.substring(1).split("/")) {
            p.append('/').append(segment);
            try {
                zk.create(p.toString(), NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
            } catch (KeeperException.NodeExistsException e) {
                // there already
            }
        }
    }

    @Test
    void uris() throws IOException {
        assertEquals("zookeeper://" + backend.address() + "/tck", backend.uri());
        assertEquals("zookeeper", backend.scheme());
        assertEquals(EnumSet.complementOf(EnumSet.of(Capability.RESTART_WITHOUT_DATA, Capability.ENSEMBLE)),
                backend.capabilities(), "every capability but a restart that loses the data, and ENSEMBLE");
        LockUri unreachable = LockUri.parse(backend.unreachableUri());
        assertEquals("/tck", unreachable.path());
        String[] hostPort = unreachable.hostList().split(":");
        try (Socket s = new Socket()) {
            assertThrows(ConnectException.class,
                    () -> s.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 2_000));
        }
    }

    @Test
    void residueListsLockAndLeaseNodesButNotParents() throws Exception {
        ZooKeeper zk = connect();
        assertEquals(List.of(), backend.residue("res/a"));
        String first = lockNode(zk, "res/a");
        mkdirs(zk, "/res/a/leases");
        mkdirs(zk, "/res/a/locks");
        String lease = zk.create("/res/a/leases/_c_77-lease-", NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL);
        lockNode(zk, "res/b"); // another lock: not listed

        List<String> expected = new ArrayList<>(List.of("/tck" + first, "/tck" + lease));
        expected.sort(null);
        assertEquals(expected, backend.residue("res/a"));

        zk.delete(first, -1);
        zk.delete(lease, -1);
        assertEquals(List.of(), backend.residue("res/a"));
    }

    @Test
    void forceLossExpiresTheOwningSessionAndTheClientSeesExpired() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        ZooKeeper holder = connect(4_000, states);
        ZooKeeper bystander = connect();
        String node = lockNode(holder, "loss");
        String other = lockNode(bystander, "loss-other");

        long started = System.nanoTime();
        backend.forceLoss("loss");
        assertEquals(List.of(), backend.residue("loss"), "ephemeral nodes of the expired session are gone");

        Watcher.Event.KeeperState state;
        do {
            state = states.poll(10, TimeUnit.SECONDS);
            assertNotNull(state, "the holder learns of the expiry within 10 s");
        } while (state != Watcher.Event.KeeperState.Expired);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(4),
                "expired at once, not by timeout");
        assertNull(bystander.exists(node, false));
        assertNotNull(bystander.exists(other, false), "a session without nodes below the lock is untouched");
    }

    @Test
    void restartKeepsDataAndSessionsAndZxidsGrow() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        ZooKeeper zk = connect(6_000, states);
        String node = lockNode(zk, "restart");
        long before = zk.exists(node, false).getCzxid();
        long session = zk.getSessionId();
        states.clear();

        backend.restart();

        Watcher.Event.KeeperState state;
        do {
            state = states.poll(10, TimeUnit.SECONDS);
            assertNotNull(state, "the client reconnects within 10 s");
            assertTrue(state != Watcher.Event.KeeperState.Expired, "session survived the restart");
        } while (state != Watcher.Event.KeeperState.SyncConnected);
        assertEquals(session, zk.getSessionId());
        Stat stat = zk.exists(node, false);
        assertNotNull(stat, "the ephemeral node survived the restart");
        assertEquals(session, stat.getEphemeralOwner());
        String next = lockNode(zk, "restart");
        long after = zk.exists(next, false).getCzxid();
        assertTrue(after > before, "zxids grow across the restart");
        // COUNTERS_ABOVE_32_BITS: every start begins a new epoch, so the high word goes up and the low word starts again
        assertTrue(before > TckBackend.COUNTER_FLOOR, "a zxid above 2^32: 0x" + Long.toHexString(before));
        assertEquals((before >>> 32) + 1, after >>> 32, "the restart begins the next epoch: 0x"
                + Long.toHexString(before) + ", then 0x" + Long.toHexString(after));
        assertTrue((int) after < (int) before, "the low 32 bits start again, so a token cut to them would go "
                + "down: 0x" + Long.toHexString(before) + ", then 0x" + Long.toHexString(after));
        assertEquals(2, backend.residue("restart").size());
    }

    @Test
    void stopServerRefusesClientsUntilStartServerOnTheSamePortWithTheSameData() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        ZooKeeper zk = connect(20_000, states);
        String node = lockNode(zk, "stopped");
        int port = backend.port();
        states.clear();

        backend.stopServer();
        try {
            backend.stopServer(); // idempotent
            assertEquals(Watcher.Event.KeeperState.Disconnected, states.poll(10, TimeUnit.SECONDS));
            assertThrows(ConnectException.class, () -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                }
            }, "nothing listens while stopped");
            assertThrows(IllegalStateException.class, () -> backend.residue("stopped"));
        } finally {
            backend.startServer();
        }
        backend.startServer(); // running: nothing to do
        assertEquals(port, backend.port());

        Watcher.Event.KeeperState state;
        do {
            state = states.poll(10, TimeUnit.SECONDS);
            assertNotNull(state, "the client reconnects within 10 s");
            assertTrue(state != Watcher.Event.KeeperState.Expired, "session survived the stop");
        } while (state != Watcher.Event.KeeperState.SyncConnected);
        assertNotNull(zk.exists(node, false), "the ephemeral node survived the stop");
        assertEquals(List.of(node.substring(node.lastIndexOf('/') + 1)),
                backend.children(EmbeddedZooKeeperBackend.ROOT + "/stopped"));
    }

    @Test
    void expireAllSessionsExpiresEverySession() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> first = new LinkedBlockingQueue<>();
        BlockingQueue<Watcher.Event.KeeperState> second = new LinkedBlockingQueue<>();
        ZooKeeper a = connect(4_000, first);
        ZooKeeper b = connect(4_000, second);
        lockNode(a, "all-a");
        lockNode(b, "all-b");

        backend.expireAllSessions();

        assertEquals(List.of(), backend.residue("all-a"));
        assertEquals(List.of(), backend.residue("all-b"));
        for (BlockingQueue<Watcher.Event.KeeperState> states : List.of(first, second)) {
            Watcher.Event.KeeperState state;
            do {
                state = states.poll(10, TimeUnit.SECONDS);
                assertNotNull(state, "each client learns of the expiry within 10 s");
            } while (state != Watcher.Event.KeeperState.Expired);
        }
    }

    @Test
    void serverWideWatchCountContainersAndChildren() throws Exception {
        ZooKeeper zk = connect();
        String node = lockNode(zk, "inspect/deep");
        String parent = EmbeddedZooKeeperBackend.ROOT + "/inspect/deep";
        assertTrue(backend.containers().contains(parent), backend.containers().toString());
        assertTrue(backend.containers().contains(EmbeddedZooKeeperBackend.ROOT + "/inspect"));
        assertEquals(List.of(node.substring(node.lastIndexOf('/') + 1)), backend.children(parent));
        assertEquals(List.of(), backend.children(EmbeddedZooKeeperBackend.ROOT + "/no-such-node"));

        int before = backend.watchCount();
        zk.getData(node, true, null);
        zk.getChildren("/inspect", true);
        assertEquals(before + 2, backend.watchCount(), "a data watch and a child watch");
        zk.setData(node, NO_DATA, -1); // fires and drops the data watch
        assertEquals(before + 1, backend.watchCount(), "the child watch is left");
    }

    @Test
    void watchCountCountsDataAndChildWatchesBelowTheLock() throws Exception {
        ZooKeeper holder = connect();
        ZooKeeper waiter = connect();
        String node = lockNode(holder, "watch");
        assertEquals(0, backend.wakeupRegistrations("watch"));
        CountDownLatch deleted = new CountDownLatch(1);
        Watcher onDelete = (WatchedEvent e) -> {
            if (e.getType() == Watcher.Event.EventType.NodeDeleted) {
                deleted.countDown();
            }
        };
        waiter.getData(node, onDelete, null);
        holder.getData(node, onDelete, null);
        assertEquals(2, backend.wakeupRegistrations("watch"));
        assertEquals(0, backend.wakeupRegistrations("watch-other"), "only paths below the lock count");
        waiter.getChildren(node.substring(0, node.lastIndexOf('/')), e -> { });
        assertEquals(3, backend.wakeupRegistrations("watch"), "a child watch on the lock's path counts too");

        holder.delete(node, -1);
        assertTrue(deleted.await(5, TimeUnit.SECONDS));
        assertEquals(0, backend.wakeupRegistrations("watch"), "fired watches are gone, the child watch with them");
    }

    @Test
    void removeEmptyParentsRestartsSequenceNumbersButNotZxids() throws Exception {
        ZooKeeper zk = connect();
        String first = lockNode(zk, "parents/p");
        lockNode(zk, "parents/p");
        mkdirs(zk, "/parents/p/leases");

        backend.removeEmptyState("parents/p");
        assertNotNull(zk.exists("/parents/p", false), "kept while lock nodes are left");

        long czxid = zk.exists(first, false).getCzxid();
        for (String child : zk.getChildren("/parents/p", false)) {
            if (!child.equals("leases")) {
                zk.delete("/parents/p/" + child, -1);
            }
        }
        backend.removeEmptyState("parents/p");
        assertNull(zk.exists("/parents/p", false));
        assertNull(zk.exists("/parents", false), "empty ancestors go too");
        assertNotNull(zk.exists("/", false), "the chroot stays");

        String again = lockNode(zk, "parents/p");
        assertEquals(first, again, "the sequence starts again");
        assertTrue(zk.exists(again, false).getCzxid() > czxid, "the czxid does not");
    }
}
