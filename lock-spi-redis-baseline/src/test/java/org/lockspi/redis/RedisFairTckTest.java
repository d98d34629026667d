package org.lockspi.redis;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit for {@code redis-fair} (first come, first served) against a real Redis, as
 * {@link RedisTckTest}, plus the fairness rules (§14.1) that {@code FAIR} turns on.
 */
class RedisFairTckTest extends RedisRecipeTck {

    RedisFairTckTest() {
        super(Server.ONE);
    }

    @Override
    public LockProvider provider() {
        return new RedisFairLockProvider();
    }
}
