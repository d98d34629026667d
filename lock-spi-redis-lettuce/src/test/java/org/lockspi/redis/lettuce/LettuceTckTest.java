package org.lockspi.redis.lettuce;

import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;

/**
 * The conformance kit for {@code redis-lettuce} against a real Redis: the embedded server, or the one named by
 * {@code -Dlockspi.tck.uri=redis://host:port/db}; the parameters and allowances of every Redis provider
 * ({@link RedisRecipeTck}), the Jedis ones included.
 */
class LettuceTckTest extends RedisRecipeTck {

    LettuceTckTest() {
        super(Server.ONE);
    }

    @Override
    public LockProvider provider() {
        return new RedisLettuceLockProvider();
    }
}
