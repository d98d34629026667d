package org.lockspi.redis;

import org.junit.jupiter.api.Test;
import org.lockspi.tck.process.VirtualWaitersMain;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * 10,000 virtual threads wait for one lock on a real Redis server, in a child JVM on the newest Java runtime
 * installed (21 or newer: the build runs on 17), under JFR: each acquires exactly once, never two inside, and no
 * {@code jdk.VirtualThreadPinned} event has a frame of ours on its stack, other than while the JDK loads a class
 * (it pins a virtual thread then, once per class; such events are counted apart).
 */
class RedisVirtualThreadsTest {
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
        try (EmbeddedRedisBackend server = EmbeddedRedisBackend.start()) {
            VirtualWaitersMain.assertInChild(server.uri(), "redis-baseline", WAITERS, services);
        }
    }
}
