package org.lockspi.spring;

import org.junit.jupiter.api.BeforeAll;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/** Two applications on a real (embedded) Redis, with the Jedis version Spring Boot manages. */
class RedisNodesTest extends TwoNodesTestBase {

    @BeforeAll
    static void startBackend() {
        backend = EmbeddedRedisBackend.start();
    }

    @Override
    String parameters() {
        return "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    }
}
