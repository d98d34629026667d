package org.lockspi.redis.lettuce;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit for {@code redis-lettuce} through Redis Sentinel (a master, a replica and three sentinels,
 * each a {@code redis-server} process started by the build), with the allowances of the Jedis provider's run.
 */
class LettuceSentinelTopologyTckTest extends RedisRecipeTck {

    LettuceSentinelTopologyTckTest() {
        super(Server.SENTINEL);
    }

    @Override
    public LockProvider provider() {
        return new RedisLettuceLockProvider();
    }
}
