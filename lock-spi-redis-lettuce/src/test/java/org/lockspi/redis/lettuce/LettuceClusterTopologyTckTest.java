package org.lockspi.redis.lettuce;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.ClusterRedisBackend;

/**
 * The conformance kit for {@code redis-lettuce} on a Redis Cluster of three masters, each a {@code redis-server} process started by the build; the same allowances as the Jedis provider's
 * {@code RedisClusterTopologyTckTest}, for the same reasons.
 */
class LettuceClusterTopologyTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new RedisLettuceLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return ClusterRedisBackend.start();
    }

    @Override
    protected String clientParameters() {
        return LettuceTckTest.PARAMETERS;
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return LettuceTopologies.unverifiedRulesAllowed("Cluster");
    }
}
