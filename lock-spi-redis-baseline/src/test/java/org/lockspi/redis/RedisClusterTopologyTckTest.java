package org.lockspi.redis;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit on a Redis Cluster of three masters ({@code redis-cluster://n1,n2,n3}), each a
 * {@code redis-server} process started by the build and joined with {@code CLUSTER ADDSLOTS} and
 * {@code CLUSTER MEET}. Lock names spread over the three masters; every script runs on the master of its lock's
 * slot (a script touching two slots would fail with {@code CROSSSLOT}).
 */
class RedisClusterTopologyTckTest extends RedisRecipeTck {

    RedisClusterTopologyTckTest() {
        super(Server.CLUSTER);
    }

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }
}
