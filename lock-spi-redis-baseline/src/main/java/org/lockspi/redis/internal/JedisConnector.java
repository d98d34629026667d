package org.lockspi.redis.internal;

import org.lockspi.redis.recipe.RedisOps;
import org.lockspi.redis.recipe.RedisSettings;

/** Opens the Jedis client of the Redis providers, the one public door into this package. */
public final class JedisConnector {
    private JedisConnector() {
    }

    /**
     * @param settings the URI's settings
     * @return the recipe's operations on a new Jedis client for the settings' topology
     * @throws org.lockspi.redis.recipe.RedisOpsException if no sentinel or seed node answers
     */
    public static RedisOps open(RedisSettings settings) {
        return JedisOps.open(settings);
    }
}
