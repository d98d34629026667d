package org.lockspi.redis.recipe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.LockUri;

/** Parsing and validation of the three topologies' URIs, without a server. */
class RedisSettingsTest {

    private static RedisSettings parse(String uri) {
        return RedisSettings.parse(LockUri.parse(uri));
    }

    private static String refused(String uri) {
        return assertThrows(IllegalArgumentException.class, () -> parse(uri)).getMessage();
    }

    @Test
    void single() {
        RedisSettings s = parse("redis://:pw@cache:6380/2");
        assertEquals(RedisSettings.Topology.SINGLE, s.topology());
        assertEquals(List.of(new RedisSettings.Node("cache", 6380)), s.nodes());
        assertEquals(2, s.database());
        assertEquals("Redis at cache:6380 db 2", s.toString());
        assertTrue(refused("redis://a:1,b:2").contains("use redis-sentinel:// with the sentinels or "
                + "redis-cluster:// with seed nodes"));
    }

    @Test
    void sentinel() {
        RedisSettings s = parse("redis-sentinel://u:pw@s1,s2:26380,[::1]:26381/mymaster/3?sentinelPassword=spw"
                + "&sentinelUser=su");
        assertEquals(RedisSettings.Topology.SENTINEL, s.topology());
        assertEquals(List.of(new RedisSettings.Node("s1", 26379), new RedisSettings.Node("s2", 26380),
                new RedisSettings.Node("::1", 26381)), s.nodes());
        assertEquals("mymaster", s.masterName());
        assertEquals(3, s.database());
        assertEquals("su", s.sentinelUser());
        assertEquals("spw", s.sentinelPassword());
        assertEquals("pw", s.password());
        assertEquals("Redis Sentinel master 'mymaster' via s1:26379,s2:26380,[::1]:26381 db 3", s.toString());
        assertEquals("mymaster", parse("redis-sentinel://s1/mymaster").masterName());
        assertEquals(0, parse("redis-sentinel://s1/mymaster").database());
        assertTrue(refused("redis-sentinel://s1,s2").contains("/<master name>[/<db>]"));
        assertTrue(refused("redis-sentinel://s1/my$master").contains("/<master name>[/<db>]"));
        assertTrue(refused("redis-sentinel://s1/m/1/2").contains("/<master name>[/<db>]"));
        assertTrue(refused("redis-sentinel://s1/m/x").contains("database"));
    }

    @Test
    void cluster() {
        RedisSettings s = parse("redis-cluster://n1:7000,n2:7001,n3");
        assertEquals(RedisSettings.Topology.CLUSTER, s.topology());
        assertEquals(List.of(new RedisSettings.Node("n1", 7000), new RedisSettings.Node("n2", 7001),
                new RedisSettings.Node("n3", 6379)), s.nodes());
        assertEquals("Redis Cluster via n1:7000,n2:7001,n3:6379", s.toString());
        assertTrue(refused("redis-cluster://n1:7000/1").contains("database 0 only"));
        assertEquals(0, parse("redis-cluster://n1:7000/0").database());
    }

    @Test
    void parametersOfOneTopologyOrTlsAreRefusedElsewhere() {
        assertTrue(refused("redis://h?sentinelPassword=x").contains("parameter 'sentinelPassword' applies to "
                + "redis-sentinel:// and rediss-sentinel:// URIs only"));
        assertTrue(refused("redis-cluster://h?sentinelUser=x").contains("'sentinelUser'"));
        assertTrue(refused("redis-sentinel://s/m?trustStore=/x").contains("parameter 'trustStore' needs TLS: use "
                + "rediss-sentinel://"));
        assertTrue(refused("rediss://h?trustStorePassword=x").contains("parameter 'trustStorePassword' needs "
                + "'trustStore'"));
        assertTrue(refused("rediss://h?keyStoreType=JKS").contains("needs 'keyStore'"));
        assertTrue(refused("rediss://h?trustStore=/no/such/file.p12").contains("names no readable file: "
                + "/no/such/file.p12"));
        assertTrue(refused("rediss://h?verifyHostname=maybe").contains("verifyHostname"));
        assertTrue(refused("redis-sentinel://s/m?sentinelPasword=x").contains("unknown parameter 'sentinelPasword'"));
    }

    @Test
    void tlsSchemes() {
        RedisSettings plain = parse("rediss-cluster://n1:7000");
        assertTrue(plain.ssl());
        assertNull(plain.tls().trustStore());
        assertTrue(plain.tls().verifyHostname());
        assertEquals("Redis Cluster via n1:7000 (TLS)", plain.toString());
        assertNull(plain.tls().socketFactory(), "no store: the JVM's default trust");
        assertFalse(parse("redis-sentinel://s/m").ssl());
        assertTrue(parse("rediss-sentinel://s/m?verifyHostname=false").ssl());
        assertFalse(parse("rediss-sentinel://s/m?verifyHostname=false").tls().verifyHostname());
    }

    @Test
    void everyParameterIsDeclaredAndSecretsAreMasked() {
        assertTrue(RedisSettings.PARAMETERS.containsAll(Set.of("sentinelUser", "sentinelPassword", "trustStore",
                "trustStoreType", "trustStorePassword", "keyStore", "keyStoreType", "keyStorePassword",
                "verifyHostname")));
        Set<String> secret = RedisSettings.PARAMETERS.stream().filter(LockUri::isSecretParameter).collect(Collectors.toSet());
        assertEquals(Set.of("sentinelPassword", "trustStorePassword", "keyStorePassword"), secret);
        String message = refused("redis://h?sentinelPassword=s3cretValue");
        assertFalse(message.contains("s3cretValue"), message);
    }

    /**
     * A script may touch several keys only if they share a slot: in a cluster it fails otherwise (CROSSSLOT). A
     * cluster hashes only the hash tag of a key, the text between its first '{' and the next '}' if not empty, so
     * keys with one tag share a slot. (The Cluster topology TCK runs the scripts on a real cluster.)
     */
    @Test
    void everyKeyOfOneLockHasTheLocksHashTag() {
        for (String name : List.of("orders", "a/b/c", "~x-y_z.1", "#YWJj")) {
            RedisKeys keys = new RedisKeys("lockspi:", name);
            assertEquals(name, hashTag(keys.lock));
            for (String key : List.of(keys.readers, keys.permits, keys.fence, keys.waitingWriters, keys.queue,
                    keys.channel, keys.waiter("owner:1"))) {
                assertEquals(name, hashTag(key), key + " vs " + keys.lock);
            }
        }
    }

    /** The part of a key Redis Cluster hashes (the cluster specification's rule). */
    private static String hashTag(String key) {
        int open = key.indexOf('{');
        int close = open < 0 ? -1 : key.indexOf('}', open + 1);
        return close > open + 1 ? key.substring(open + 1, close) : key;
    }
}
