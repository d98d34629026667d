package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.ConfigurableApplicationContext;

/** Two applications on a real (embedded) ZooKeeper; health follows a server outage. */
class ZooKeeperNodesTest extends TwoNodesTestBase {

    @BeforeAll
    static void startBackend() {
        backend = EmbeddedZooKeeperBackend.start();
    }

    @Override
    String parameters() {
        return "sessionTimeout=4s&connectTimeout=5s";
    }

    @Test
    void healthIsOutOfServiceWhileTheServerIsDown() {
        ConfigurableApplicationContext a = node("a", "none");
        assertEquals(Status.UP, health(a));
        backend.stopServer();
        try {
            Poll.until("health while the server is down", Status.OUT_OF_SERVICE, () -> health(a), WAIT);
        } finally {
            backend.startServer();
        }
        Poll.until("health once the server is back", Status.UP, () -> health(a), WAIT);
    }
}
