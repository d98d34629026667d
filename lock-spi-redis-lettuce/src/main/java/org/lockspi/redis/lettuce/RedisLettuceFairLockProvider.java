package org.lockspi.redis.lettuce;

import org.lockspi.redis.lettuce.internal.LettuceOps;
import org.lockspi.redis.recipe.RedisRecipeProvider;

/**
 * The first-come first-served Redis provider on Lettuce, {@code redis-lettuce-fair}: {@code redis-fair}'s queue per
 * lock (and its keys and messages) on the client of {@link RedisLettuceLockProvider}; a {@code redis-fair} client on
 * Jedis and this one queue in one line, and revoke each other's holders. Select it by name:
 * {@code Locks.open(uri, "redis-lettuce-fair")}; on an application's own Lettuce client,
 * {@link RedisLettuceLockProvider#openFair(io.lettuce.core.RedisClient, String)}.
 */
public final class RedisLettuceFairLockProvider extends RedisRecipeProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "redis-lettuce-fair";

    /**
     * For {@link java.util.ServiceLoader}; cheap, connects nothing. Priority -3, below every other Redis one. A
     * service's client is made as {@link RedisLettuceLockProvider}'s.
     */
    public RedisLettuceFairLockProvider() {
        super(NAME, -3, true, LettuceOps::open);
    }
}
