package org.lockspi.spring;

import org.junit.jupiter.api.BeforeAll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** Two applications on a real (embedded) ZooKeeper. */
class ZooKeeperNodesTest extends TwoNodesTestBase {

    @BeforeAll
    static void startBackend() {
        backend = EmbeddedZooKeeperBackend.start();
    }

    @Override
    String parameters() {
        return "sessionTimeout=4s&connectTimeout=5s";
    }
}
