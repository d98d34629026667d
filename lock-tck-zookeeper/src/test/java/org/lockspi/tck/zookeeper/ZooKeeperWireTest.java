package org.lockspi.tck.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.support.WireFault;
import org.lockspi.tck.support.WireMessage;
import org.lockspi.tck.support.WirePassage;

/**
 * {@link ZooKeeperWire} read from a real client's traffic to the embedded server, through the kit's proxy; a fault
 * on one message; the server's sessions as the backend lists and ends them.
 */
@Timeout(60)
class ZooKeeperWireTest {
    private static final byte[] NO_DATA = new byte[0];
    private static EmbeddedZooKeeperBackend backend;

    @BeforeAll
    static void start() {
        backend = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    static void stop() {
        backend.close();
    }

    private static ZooKeeper connect(TcpProxy proxy, BlockingQueue<Watcher.Event.KeeperState> states)
            throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper("127.0.0.1:" + proxy.port() + EmbeddedZooKeeperBackend.ROOT, 4_000, e -> {
            if (e.getType() == Watcher.Event.EventType.None) {
                states.add(e.getState());
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS), "connected through " + proxy);
        states.clear(); // the changes from here on
        return zk;
    }

    private static List<String> requests(List<WirePassage> log) {
        return log.stream().filter(p -> p.message().direction() == WireMessage.Direction.REQUEST)
                .map(p -> p.message().operation() + (p.message().traits().isEmpty() ? "" : " "
                        + p.message().traits())).collect(Collectors.toList());
    }

    @Test
    void namesEachOperationAndMatchesEachReplyToItsRequest() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend.uri(), backend.wireProtocol())) {
            ZooKeeper zk = connect(proxy, states);
            try {
                zk.create("/wire", NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
                String node = zk.create("/wire/n-", NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL_SEQUENTIAL, new Stat());
                CountDownLatch deleted = new CountDownLatch(1);
                zk.getData(node, e -> deleted.countDown(), null);
                assertThrows(KeeperException.NoNodeException.class, () -> zk.delete("/wire/none", -1));
                zk.delete(node, -1);
                assertTrue(deleted.await(5, TimeUnit.SECONDS));
            } finally {
                zk.close();
            }
            List<WirePassage> log = proxy.traffic();
            assertEquals(List.of("connect", "createContainer [WRITE]", "create2 [WRITE]", "getData [WAKEUP]",
                    "delete [WRITE]", "delete [WRITE]", "closeSession"), requests(log));
            WireMessage noNode = log.stream().map(WirePassage::message)
                    .filter(m -> m.direction() == WireMessage.Direction.RESPONSE && m.is(WireMessage.Trait.ERROR))
                    .findFirst().orElseThrow();
            assertEquals("NONODE", noNode.detail());
            assertEquals("delete", noNode.operation());
            assertTrue(noNode.request().detail().endsWith("/wire/none"), noNode.request().toString());
            assertTrue(log.stream().anyMatch(p -> p.message().is(WireMessage.Trait.PUSH)
                    && p.message().operation().equals("notification")
                    && p.message().detail().startsWith("NodeDeleted")), log.toString());
            for (WirePassage p : log) {
                WireMessage m = p.message();
                if (m.direction() == WireMessage.Direction.RESPONSE && !m.is(WireMessage.Trait.PUSH)) {
                    assertEquals(m.request().operation(), m.operation(), "each reply answers a request: " + log);
                }
            }
        } finally {
            backend.removeEmptyState("wire");
        }
    }

    @Test
    void aLostCreateAnswerLeavesTheNodeMadeAndTheClientReconnects() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend.uri(), backend.wireProtocol())) {
            ZooKeeper zk = connect(proxy, states);
            try {
                WireFault fault = proxy.arm(WireFault.dropResponse("create2", 1));
                assertThrows(KeeperException.ConnectionLossException.class, () -> zk.create("/lost-", NO_DATA,
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL, new Stat()));
                assertTrue(fault.awaitStruck(Duration.ofSeconds(5)));
                assertEquals(Watcher.Event.KeeperState.Disconnected, states.poll(5, TimeUnit.SECONDS));
                assertEquals(Watcher.Event.KeeperState.SyncConnected, states.poll(5, TimeUnit.SECONDS));
                List<String> made = zk.getChildren("/", false).stream().filter(c -> c.startsWith("lost-"))
                        .collect(Collectors.toList());
                assertEquals(1, made.size(), "the server made the node whose answer was lost: " + made);
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void listsTheSessionsOfAClientAndEndsThem() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend.uri())) {
            ZooKeeper zk = connect(proxy, states);
            try {
                List<TckBackend.Session> mine = backend.openSessions().stream()
                        .filter(s -> proxy.upstreamAddresses().contains(s.peer())).collect(Collectors.toList());
                assertEquals(1, mine.size(), backend.openSessions() + " from " + proxy.upstreamAddresses());
                assertEquals("0x" + Long.toHexString(zk.getSessionId()), mine.get(0).id());
                backend.endSession(mine.get(0));
                Watcher.Event.KeeperState state;
                do {
                    state = states.poll(10, TimeUnit.SECONDS);
                } while (state != null && state != Watcher.Event.KeeperState.Expired);
                assertEquals(Watcher.Event.KeeperState.Expired, state);
                assertFalse(backend.openSessions().contains(mine.get(0)), "the ended session is gone");
            } finally {
                zk.close();
            }
        }
    }
}
