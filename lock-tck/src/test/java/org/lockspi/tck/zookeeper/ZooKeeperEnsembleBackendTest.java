package org.lockspi.tck.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.tck.TckBackend.Capability;

/** The three-member ensemble: it starts, elects, survives the death of its leader or a follower, and rejoins. */
class ZooKeeperEnsembleBackendTest {

    @Test
    @Timeout(120)
    void survivesLeaderAndFollowerDeathAndRejoins() throws Exception {
        long t0 = System.nanoTime();
        try (ZooKeeperEnsembleBackend zk = ZooKeeperEnsembleBackend.start()) {
            System.out.printf("ensemble up in %d ms: %s%n", ms(t0), zk.description());
            assertTrue(zk.capabilities().contains(Capability.ENSEMBLE));
            assertFalse(zk.capabilities().contains(Capability.RESTART));
            assertEquals(3, zk.uri().split(",").length, zk.uri());
            assertThrows(UnsupportedOperationException.class, () -> zk.forceLoss("a"));

            String name = "inspect";
            String node = ZooKeeperEnsembleBackend.ROOT + "/" + name + "/n-0000000000";
            PlainClient.run(zk.connectString(), "test", c -> {
                c.create(ZooKeeperEnsembleBackend.ROOT + "/" + name, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
                c.create(node, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            });
            assertEquals(List.of(node), zk.residue(name));

            long kill = System.nanoTime();
            String leader = zk.killLeader();
            zk.awaitQuorum();
            System.out.printf("new leader %d ms after killing %s%n", ms(kill), leader);
            assertEquals(List.of(node), zk.residue(name), "the data survives the leader");
            assertThrows(IllegalStateException.class, zk::killFollower, "one member down at a time");

            long restart = System.nanoTime();
            zk.restartKilled();
            System.out.printf("killed member rejoined in %d ms%n", ms(restart));
            String follower = zk.killFollower();
            assertNotEquals("", follower);
            long quorum = System.nanoTime();
            zk.awaitQuorum();
            System.out.printf("quorum %d ms after killing follower %s%n", ms(quorum), follower);
            CountDownLatch done = new CountDownLatch(1);
            PlainClient.run(zk.connectString(), "test", c -> {
                c.delete(node, -1);
                done.countDown();
            });
            assertTrue(done.await(1, TimeUnit.SECONDS));
            assertEquals(List.of(), zk.residue(name));
            zk.restartKilled();
        }
    }

    private static long ms(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }
}
