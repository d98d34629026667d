package org.lockspi.redis;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.ClusterRedisBackend;

/**
 * The conformance kit on a Redis Cluster of three masters ({@code redis-cluster://n1,n2,n3}), each a
 * {@code redis-server} process started by the build and joined with {@code CLUSTER ADDSLOTS} and
 * {@code CLUSTER MEET}. Lock names spread over the three masters; every script runs on the master of its lock's
 * slot (a script touching two slots would fail with {@code CROSSSLOT}).
 */
class RedisClusterTopologyTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return ClusterRedisBackend.start();
    }

    @Override
    protected String clientParameters() {
        return RedisTckTest.PARAMETERS;
    }

    /** The lease time of {@link #clientParameters()}. */
    @Override
    public Duration leaseSpan() {
        return Duration.ofSeconds(3);
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return RedisTopologies.unverifiedRulesAllowed("Cluster");
    }
}
