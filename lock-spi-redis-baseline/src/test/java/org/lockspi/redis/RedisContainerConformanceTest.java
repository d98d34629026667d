package org.lockspi.redis;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The conformance kit against another Redis version in a container ({@code redis:7.4-alpine} unless
 * {@code -Dlockspi.tck.redis.image=...}). Skipped, with that reason, where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class RedisContainerConformanceTest extends RedisRecipeTck {

    RedisContainerConformanceTest() {
        super(Server.CONTAINER);
    }

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }
}
