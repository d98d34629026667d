package org.lockspi.zookeeper.recipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
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

    @Test
    void credentialsMeanCreatorAllAclUnlessAclOpenIsAsked() {
        LockUri withUser = LockUri.parse("zookeeper://alice:pw@127.0.0.1:2181/app");
        assertEquals(ZooDefs.Ids.CREATOR_ALL_ACL, ZkSettings.of(withUser).acl());
        assertEquals(ZooDefs.Ids.OPEN_ACL_UNSAFE, settings("sessionTimeout=4s").acl());
        assertEquals(ZooDefs.Ids.OPEN_ACL_UNSAFE,
                ZkSettings.of(LockUri.parse("zookeeper://alice:pw@127.0.0.1:2181/app?acl=open")).acl());
        IllegalArgumentException noUser = assertThrows(IllegalArgumentException.class, () -> settings("acl=creator"));
        assertTrue(noUser.getMessage().startsWith("acl=creator needs a user"), noUser.getMessage());
        IllegalArgumentException bogus = assertThrows(IllegalArgumentException.class, () -> settings("acl=world"));
        assertEquals("parameter 'acl' is neither creator nor open: 'world' in lock URI: zookeeper://127.0.0.1:2181/app"
                + "?acl=world", bogus.getMessage());
        assertTrue(ZkSettings.of(withUser).toString().contains("acl=creator"));
        assertFalse(ZkSettings.of(withUser).toString().contains("pw"));
    }

    @Test
    void withoutTlsTheStoreParametersAreRefusedAndTheConfigurationIsPlain() {
        assertTrue(settings("tls=false").tls().isEmpty());
        ZKClientConfig plain = settings("sessionTimeout=4s").clientConfig();
        assertFalse(plain.getBoolean(ZKClientConfig.SECURE_CLIENT));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> settings("trustStore=/x.p12&trustStorePassword=s3cret"));
        assertEquals("parameter 'trustStore' needs tls=true in lock URI: zookeeper://127.0.0.1:2181/app"
                + "?trustStore=/x.p12&trustStorePassword=***", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> settings("tls=yes"));
        IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
                () -> settings("tls=true&keyStorePassword=s3cret"));
        assertEquals("parameter 'keyStorePassword' without 'keyStore' in lock URI: zookeeper://127.0.0.1:2181/app"
                + "?tls=true&keyStorePassword=***", alone.getMessage());
    }

    @Test
    void tlsWithTheJvmTrustStoreOnly() {
        ZkSettings s = settings("tls=true");
        ZKClientConfig config = s.clientConfig();
        assertTrue(config.getBoolean(ZKClientConfig.SECURE_CLIENT));
        assertEquals("org.apache.zookeeper.ClientCnxnSocketNetty",
                config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET));
        assertEquals("", config.getProperty("zookeeper.ssl.trustStore.location"));
        assertEquals("ZkTls[trustStore=JVM default, keyStore=none]", s.tls().orElseThrow().toString());
    }
}
