package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.process.ChildJvm;
import org.lockspi.tck.process.VirtualWaitersMain;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * 10,000 virtual threads wait for one lock on a real Redis server, in a child JVM on the newest Java runtime
 * installed (21 or newer: the build runs on 17), under JFR: each acquires exactly once, never two inside, and no
 * {@code jdk.VirtualThreadPinned} event has a frame of ours on its stack.
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
        Optional<Path> java = ChildJvm.newestJava(21);
        Assumptions.assumeTrue(java.isPresent(), "no Java 21 or newer under /usr/lib/jvm or lockspi.tck.jvmRoot:"
                + " virtual threads need one");
        try (EmbeddedRedisBackend redis = EmbeddedRedisBackend.start();
             ChildJvm child = ChildJvm.start(java.get(), List.of("-Xmx1g", "-XX:TieredStopAtLevel=4"),
                     VirtualWaitersMain.class, redis.uri(), "redis-baseline",
                     String.valueOf(WAITERS), String.valueOf(services), "vt/one-lock-" + services)) {
            String result = child.awaitLine(Duration.ofSeconds(300), "RESULT ", "ERROR ");
            String pinned = child.awaitLine(Duration.ofSeconds(60), "PINNED ");
            child.awaitExit(Duration.ofSeconds(30));
            System.out.println("[virtual threads] java " + java.get() + ", " + services + " service(s): " + result
                    + "; " + pinned);
            assertEquals("RESULT waiters=" + WAITERS + " services=" + services + " finished=true acquiredOnce="
                    + WAITERS + " overlaps=0 failures=0", result.substring(0, result.indexOf(" maxWaiting=")), result);
            assertEquals("PINNED ours=0", pinned.substring(0, pinned.indexOf(" total=")), pinned);
        }
    }
}
