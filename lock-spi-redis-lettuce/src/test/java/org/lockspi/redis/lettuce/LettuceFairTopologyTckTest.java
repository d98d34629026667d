package org.lockspi.redis.lettuce;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit for {@code redis-lettuce-fair} (first come, first served) on one embedded Redis. Named a
 * topology test so that it runs in the {@code topologies} profile beside the Sentinel and Cluster runs: the main
 * build runs the Lettuce baseline's kit ({@link LettuceTckTest}), and {@code redis-fair} on Jedis proves the
 * queue's scripts, which are the same.
 */
class LettuceFairTopologyTckTest extends RedisRecipeTck {

    LettuceFairTopologyTckTest() {
        super(Server.ONE);
    }

    @Override
    public LockProvider provider() {
        return new RedisLettuceFairLockProvider();
    }
}
