package org.lockspi.zookeeper.raw;

import org.junit.jupiter.api.Test;
import org.lockspi.tck.process.VirtualWaitersMain;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * 10,000 virtual threads wait for one lock on a real ZooKeeper server, in a child JVM on the newest Java runtime
 * installed (21 or newer: the build runs on 17), under JFR: each acquires exactly once, never two inside, and no
 * {@code jdk.VirtualThreadPinned} event has a frame of ours on its stack, other than while the JDK loads a class
 * (it pins a virtual thread then, once per class; such events are counted apart).
 */
class RawZooKeeperVirtualThreadsTest {
    private static final int WAITERS = 10_000;

    @Test
    void tenThousandVirtualThreadWaitersOnOneService() {
        run(1);
    }

    @Test
    void tenThousandVirtualThreadWaitersOnFourServices() {
        run(4);
    }

    private static void run(int services) {
        try (EmbeddedZooKeeperBackend server = EmbeddedZooKeeperBackend.start()) {
            VirtualWaitersMain.assertInChild(server.uri() + "?sessionTimeout=30s&connectTimeout=15s", "zookeeper-raw", WAITERS, services);
        }
    }
}
