package org.lockspi.zookeeper.recipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.LockUri;

/** The shared settings of the ZooKeeper providers: uncertainAfter, the release bound, host resolution. */
class ZkSettingsTest {

    private static ZkSettings settings(String query) {
        return ZkSettings.of(LockUri.parse("zookeeper://127.0.0.1:2181/app?" + query));
    }

    @Test
    void uncertainAfterDefaultsToHalfTheSessionTimeout() {
        ZkSettings s = settings("sessionTimeout=4s");
        assertEquals(Duration.ofSeconds(2), s.uncertainAfter());
        assertEquals(Duration.ofMillis(1500), settings("sessionTimeout=4s&uncertainAfter=1500ms").uncertainAfter());
    }

    @Test
    void uncertainAfterIsCheckedStrictly() {
        IllegalArgumentException notLess = assertThrows(IllegalArgumentException.class,
                () -> settings("sessionTimeout=4s&uncertainAfter=4s"));
        assertEquals("uncertainAfter >= sessionTimeout: PT4S >= PT4S", notLess.getMessage());
        assertThrows(IllegalArgumentException.class, () -> settings("sessionTimeout=4s&uncertainAfter=0s"));
        assertThrows(IllegalArgumentException.class, () -> settings("uncertainAfter=soon"));
    }

    @Test
    void releaseBoundIsTheSmallerOfConnectTimeoutAndHalfTheSession() {
        assertEquals(Duration.ofSeconds(2), settings("sessionTimeout=4s&connectTimeout=5s").releaseBound());
        assertEquals(Duration.ofSeconds(1), settings("sessionTimeout=4s&connectTimeout=1s").releaseBound());
    }

    @Test
    void anUnknownHostFailsAtOnceNamingIt() {
        long start = System.nanoTime();
        LockConnectionException e = assertThrows(LockConnectionException.class,
                () -> ZkConnectFailures.resolve("127.0.0.1:2181,no-such-host.invalid:2181"));
        assertEquals("unknown host 'no-such-host.invalid' in ZooKeeper address 127.0.0.1:2181,"
                + "no-such-host.invalid:2181", e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(2).toNanos(), "at once");
        ZkConnectFailures.resolve("127.0.0.1:2181,[::1]:2181,localhost:2181");
    }
}
