package org.lockspi.redis;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.SentinelRedisBackend;

/**
 * The conformance kit through Redis Sentinel ({@code redis-sentinel://s1,s2,s3/lockspi}): a master, a replica and
 * three sentinels, each a {@code redis-server} process started by the build. The sentinels fail over after 5 s of
 * silence, longer than any stall of a loaded build machine; the failover itself is measured by
 * {@link RedisSentinelFailoverTopologyTest}.
 */
class RedisSentinelTopologyTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return SentinelRedisBackend.start(Duration.ofSeconds(5));
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
        return RedisTopologies.unverifiedRulesAllowed("Sentinel");
    }
}
