package org.lockspi.curator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** An ephemeral create interrupted before its reply still tells the node it made, on a real server. */
class SettledCreateZooKeeperTest {
    private static EmbeddedZooKeeperBackend server;
    private static ZooKeeper zk;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedZooKeeperBackend.start();
        CountDownLatch connected = new CountDownLatch(1);
        zk = SettledCreateZooKeeper.FACTORY.newZooKeeper(server.address(), 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, false);
        assertTrue(connected.await(30, TimeUnit.SECONDS), "no connection to " + server.address());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        zk.close();
        server.close();
    }

    @Test
    void anInterruptedCreateReturnsItsNodeWithTheInterruptFlagSet() throws Exception {
        String parent = zk.create("/settled-" + UUID.randomUUID(), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.CONTAINER);
        String prefix = parent + "/_c_" + UUID.randomUUID() + "-lock-";
        Thread.currentThread().interrupt(); // the request goes out, its wait ends at once
        String node = zk.create(prefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL,
                new Stat(), -1);
        assertTrue(Thread.interrupted(), "the interrupt flag is set again");
        assertTrue(node.startsWith(prefix) && node.length() == prefix.length() + 10, node);
        assertNotNull(zk.exists(node, false), node + " exists");
        assertEquals(1, zk.getChildren(parent, false).size());
    }

    @Test
    void anInterruptedCreateThatMadeNothingThrowsTheInterrupt() throws Exception {
        String missing = "/settled-missing-" + UUID.randomUUID();
        Thread.currentThread().interrupt();
        Exception thrown = assertThrows(Exception.class, () -> zk.create(missing + "/_c_" + UUID.randomUUID()
                + "-lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL, new Stat(), -1));
        if (thrown instanceof InterruptedException) {
            assertFalse(Thread.currentThread().isInterrupted(), "the interrupt is thrown, not left set");
        } else {
            // the reply came before the caller waited for it: the create's own failure, the flag untouched
            assertTrue(thrown instanceof KeeperException.NoNodeException, thrown.toString());
            assertTrue(Thread.interrupted());
        }
        assertEquals(null, zk.exists(missing, false));
    }

    @Test
    void anUninterruptedCreateStoresTheStat() throws Exception {
        String parent = zk.create("/settled-" + UUID.randomUUID(), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.CONTAINER);
        Stat stat = new Stat();
        String node = zk.create(parent + "/_c_" + UUID.randomUUID() + "-lock-", new byte[0],
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL, stat, -1);
        assertEquals(zk.exists(node, false).getCzxid(), stat.getCzxid());
        assertEquals(zk.getSessionId(), stat.getEphemeralOwner());
        zk.delete(node, -1);
    }
}
