package org.lockspi.redis.lettuce;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit for {@code redis-lettuce} on a Redis Cluster of three masters, each a {@code redis-server}
 * process started by the build, with the allowances of the Jedis provider's run.
 */
class LettuceClusterTopologyTckTest extends RedisRecipeTck {

    LettuceClusterTopologyTckTest() {
        super(Server.CLUSTER);
    }

    @Override
    public LockProvider provider() {
        return new RedisLettuceLockProvider();
    }
}
