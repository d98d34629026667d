package org.lockspi.tck.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.tck.EnsembleBackend;
import org.lockspi.tck.TckBackend.Capability;

/** The three-member ensemble: it starts, elects, survives the death of its leader or a follower, and rejoins. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ZooKeeperEnsembleBackendTest {
    private static final String ROOT = ZooKeeperEnsembleBackend.ROOT;
    private ZooKeeperEnsembleBackend zk;

    @BeforeAll
    void start() {
        long t0 = System.nanoTime();
        zk = ZooKeeperEnsembleBackend.start();
        System.out.printf("ensemble up in %d ms: %s%n", ms(t0), zk.description());
    }

    @AfterAll
    void stop() {
        zk.close();
        zk.close(); // idempotent
    }

    @Test
    void describesItself() {
        assertEquals(EnumSet.of(Capability.ENSEMBLE, Capability.INSPECT, Capability.OTHER_PROCESSES,
                Capability.ENDS_SILENT_SESSIONS),
                zk.capabilities());
        assertEquals(3, zk.uri().split(",").length, zk.uri());
        assertTrue(zk.uri().startsWith("zookeeper://127.0.0.1:") && zk.uri().endsWith(ROOT), zk.uri());
        assertThrows(UnsupportedOperationException.class, () -> zk.forceLoss("a"));
        assertThrows(UnsupportedOperationException.class, zk::restart);
        assertThrows(IllegalArgumentException.class, () -> zk.residue("/a"));
    }

    @Test
    void survivesTheDeathOfItsLeaderAndRejoins() throws Exception {
        String node = ROOT + "/leader-death/n-0000000000";
        run(zk.connectString(), c -> {
            c.create(ROOT + "/leader-death", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            c.create(node, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        });
        assertEquals(List.of(node), zk.residue("leader-death"));

        String leader = zk.leaderAddress();
        long kill = System.nanoTime();
        EnsembleBackend.Killed killed = zk.killLeader();
        assertEquals(leader, killed.address());
        assertTrue(killed.holderCut(), "a leader's death cuts every client");
        assertTrue(killed.nanoTime() - kill >= 0);
        zk.awaitQuorum();
        System.out.printf("new leader %d ms after killing %s%n", ms(kill), leader);
        assertNotEquals(leader, zk.leaderAddress());
        assertEquals(List.of(node), zk.residue("leader-death"), "the data survives the leader");
        assertThrows(IllegalStateException.class, zk::killFollower, "one member down at a time");

        long restart = System.nanoTime();
        zk.restartKilled();
        System.out.printf("killed member rejoined in %d ms%n", ms(restart));
        zk.restartKilled(); // nothing down: does nothing
    }

    @Test
    void killsTheFollowerTheHolderIsConnectedTo() throws Exception {
        zk.restartKilled();
        String leader = zk.leaderAddress();
        List<String> followers = new ArrayList<>(Arrays.asList(zk.connectString().split(",")));
        followers.remove(leader);
        String lock = ROOT + "/follower-death";
        run(zk.connectString(), c -> c.create(lock, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT));
        // the holder (lowest sequence number) on the second follower, a waiter on the first
        try (ZooKeeper holder = connect(followers.get(1)); ZooKeeper waiter = connect(followers.get(0))) {
            holder.create(lock + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
            waiter.create(lock + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
            assertEquals(2, zk.residue("follower-death").size());
            EnsembleBackend.Killed killed = zk.killFollower("follower-death");
            assertEquals(followers.get(1), killed.address());
            assertTrue(killed.holderCut(), "the holder's server died");
            zk.awaitQuorum();
            assertEquals(leader, zk.leaderAddress(), "a follower's death does not change the leader");
        }
        zk.restartKilled();
        // nobody of the lock on a follower: any follower dies, and the holder was not cut
        EnsembleBackend.Killed any = zk.killFollower("no-such-lock");
        assertFalse(any.holderCut());
        assertTrue(followers.contains(any.address()), any + " is one of " + followers);
        zk.restartKilled();
    }

    private interface Work {
        void run(ZooKeeper zk) throws Exception;
    }

    private static void run(String connect, Work work) throws Exception {
        try (ZooKeeper c = connect(connect)) {
            work.run(c);
        }
    }

    private static ZooKeeper connect(String connect) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper c = new ZooKeeper(connect, 10_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS), "connected to " + connect);
        return c;
    }

    private static long ms(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }
}
