package org.lockspi.redis.lettuce;

import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import org.lockspi.LockService;
import org.lockspi.redis.lettuce.internal.LettuceOps;
import org.lockspi.redis.recipe.RedisOps;
import org.lockspi.redis.recipe.RedisRecipeProvider;
import org.lockspi.redis.recipe.RedisSettings;

/**
 * The first-come first-served Redis provider on Lettuce, {@code redis-lettuce-fair}: {@code redis-fair}'s queue per
 * lock (and its keys and messages) on the client of {@link RedisLettuceLockProvider}; a {@code redis-fair} client on
 * Jedis and this one queue in one line. Select it by name: {@code Locks.open(uri, "redis-lettuce-fair")}.
 */
public final class RedisLettuceFairLockProvider extends RedisRecipeProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "redis-lettuce-fair";

    /** For {@link java.util.ServiceLoader}; cheap, connects nothing. Priority -3, below every other Redis one. */
    public RedisLettuceFairLockProvider() {
        super(NAME, -3, true);
    }

    /** Creates a Lettuce client as {@link RedisLettuceLockProvider} does. */
    @Override
    protected RedisOps connect(RedisSettings settings) {
        return LettuceOps.open(settings);
    }

    /**
     * A first-come first-served lock service on an application's Lettuce client, as
     * {@link RedisLettuceLockProvider#open(RedisClient, String)}.
     *
     * @param client     the application's client, created with its default {@link io.lettuce.core.RedisURI}
     * @param parameters lock parameters in URI query form, or {@code ""}
     * @return the service, {@code redis-lettuce-fair}
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if a parameter is unknown, malformed or out of range
     * @throws org.lockspi.LockConnectionException if the client does not connect
     */
    public static LockService open(RedisClient client, String parameters) {
        return RedisLettuceLockProvider.open(new RedisLettuceFairLockProvider(), client, parameters);
    }

    /**
     * As {@link #open(RedisClient, String)}, on a cluster client.
     *
     * @param client     the application's cluster client
     * @param parameters lock parameters in URI query form, or {@code ""}
     * @return the service, {@code redis-lettuce-fair}
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if a parameter is unknown, malformed or out of range
     * @throws org.lockspi.LockConnectionException if the client does not connect
     */
    public static LockService open(RedisClusterClient client, String parameters) {
        return RedisLettuceLockProvider.open(new RedisLettuceFairLockProvider(), client, parameters);
    }
}
