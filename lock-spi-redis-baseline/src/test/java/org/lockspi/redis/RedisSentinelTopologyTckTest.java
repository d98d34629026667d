package org.lockspi.redis;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit through Redis Sentinel ({@code redis-sentinel://s1,s2,s3/lockspi}): a master, a replica and
 * three sentinels, each a {@code redis-server} process started by the build. The sentinels fail over after 5 s of
 * silence, longer than any stall of a loaded build machine; the failover itself is measured by
 * {@link RedisSentinelFailoverTopologyTest}.
 */
class RedisSentinelTopologyTckTest extends RedisRecipeTck {

    RedisSentinelTopologyTckTest() {
        super(Server.SENTINEL);
    }

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }
}
