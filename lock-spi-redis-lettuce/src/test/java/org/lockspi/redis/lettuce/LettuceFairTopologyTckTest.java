package org.lockspi.redis.lettuce;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * The conformance kit for {@code redis-lettuce-fair} (first-come first-served) on one embedded Redis. Named a
 * topology test so that it runs in the {@code topologies} profile beside the Sentinel and Cluster runs: the main
 * build runs the Lettuce baseline's kit only ({@link LettuceTckTest}), and {@code redis-fair} on Jedis proves the
 * queue's scripts, which are the same.
 */
class LettuceFairTopologyTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new RedisLettuceFairLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return EmbeddedRedisBackend.start();
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
        return LettuceTckTest.UNVERIFIABLE;
    }
}
