package org.lockspi.redis.lettuce;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.util.Objects;
import org.lockspi.LockService;
import org.lockspi.redis.lettuce.internal.LettuceOps;
import org.lockspi.redis.recipe.RedisRecipeProvider;
import org.lockspi.redis.recipe.RedisSettings;

/**
 * The Redis baseline on Lettuce, {@code redis-lettuce}: the same locks as {@code redis-baseline} (Jedis), with the
 * same URIs ({@code redis}, {@code rediss}, {@code redis-sentinel}, {@code rediss-sentinel}, {@code redis-cluster},
 * {@code rediss-cluster}), parameters, keys, scripts and messages (the Redis lock recipe, {@code lock-redis-recipe}):
 * a Jedis client and a Lettuce client exclude each other on one lock, so a fleet can move from one client library
 * to the other while it runs. {@link RedisLettuceFairLockProvider} ({@code redis-lettuce-fair}) is the
 * first-come first-served variant, wire-compatible with {@code redis-fair}.
 *
 * <p>What differs is the client: every call of a service goes over one multiplexed connection (per cluster node)
 * that Lettuce reconnects by itself, so {@code poolSize} sets nothing; a call made while it is down waits for the
 * reconnection, at most {@code socketTimeout}. Waiters are woken by pub/sub on one subscriber connection, with the
 * polling fallback, as on Jedis. Lettuce 6.6 to 7.x.
 *
 * <p>Revocation ({@code LockFeature.REVOCATION}) is the recipe's, as on {@code redis-baseline} (its class comment
 * says how the request travels and the bound): a Jedis operator revokes a Lettuce holder and the other way round.
 *
 * <p>Priority -2: below {@code redis-baseline} and {@code redis-fair}, so that an application with both client
 * libraries on the class path keeps what it had until it pins a provider ({@code provider=redis-lettuce}); alone on
 * the class path it serves the Redis URIs unpinned.
 *
 * <p>An application that has a Lettuce client already (Spring Boot's Redis starter makes one) opens a service on
 * it with {@link #open(RedisClient, String)} or {@link #open(RedisClusterClient, String)} ({@code openFair} for
 * {@code redis-lettuce-fair}): no second client, no second set of event loops.
 */
public final class RedisLettuceLockProvider extends RedisRecipeProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "redis-lettuce";

    /**
     * For {@link java.util.ServiceLoader}; cheap, connects nothing. A service's client is a Lettuce
     * {@code RedisClient} (one instance, Sentinel) or {@code RedisClusterClient} with event loops of its own.
     */
    public RedisLettuceLockProvider() {
        super(NAME, -2, false, LettuceOps::open);
    }

    /**
     * A lock service on an application's Lettuce client (one instance or a Sentinel master, through the
     * client's default URI), with the Redis providers' lock parameters ({@code leaseTime=10s&keyPrefix=app:};
     * {@code socketTimeout} is the timeout of the service's own connections). The service opens its own
     * connections on the client (a data connection and a subscriber connection) and closes them when it closes;
     * the client stays open, and its address, credentials, TLS and connect timeout are the ones used.
     *
     * @param client     the application's client, created with its default {@link io.lettuce.core.RedisURI}
     * @param parameters lock parameters in URI query form, with the engine's ({@code failFast}), or {@code ""}
     * @return the service, {@code redis-lettuce}
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if a parameter is unknown, malformed or out of range, or
     *                                             belongs to the client (TLS, Sentinel)
     * @throws org.lockspi.LockConnectionException if the client does not connect
     */
    public static LockService open(RedisClient client, String parameters) {
        return open(new RedisLettuceLockProvider(), client, parameters);
    }

    /**
     * A lock service on an application's Lettuce cluster client, as {@link #open(RedisClient, String)}.
     *
     * @param client     the application's cluster client
     * @param parameters lock parameters in URI query form, with the engine's ({@code failFast}), or {@code ""}
     * @return the service, {@code redis-lettuce}
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if a parameter is unknown, malformed or out of range
     * @throws org.lockspi.LockConnectionException if the client does not connect
     */
    public static LockService open(RedisClusterClient client, String parameters) {
        return open(new RedisLettuceLockProvider(), client, parameters);
    }

    /**
     * A first-come first-served lock service ({@link RedisLettuceFairLockProvider}, {@code redis-lettuce-fair}) on
     * an application's Lettuce client, as {@link #open(RedisClient, String)}.
     *
     * @param client     the application's client, created with its default {@link io.lettuce.core.RedisURI}
     * @param parameters lock parameters in URI query form, with the engine's ({@code failFast}), or {@code ""}
     * @return the service, {@code redis-lettuce-fair}
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if a parameter is unknown, malformed or out of range, or
     *                                             belongs to the client (TLS, Sentinel)
     * @throws org.lockspi.LockConnectionException if the client does not connect
     */
    public static LockService openFair(RedisClient client, String parameters) {
        return open(new RedisLettuceFairLockProvider(), client, parameters);
    }

    /**
     * A first-come first-served lock service on an application's Lettuce cluster client, as
     * {@link #openFair(RedisClient, String)}.
     *
     * @param client     the application's cluster client
     * @param parameters lock parameters in URI query form, with the engine's ({@code failFast}), or {@code ""}
     * @return the service, {@code redis-lettuce-fair}
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if a parameter is unknown, malformed or out of range
     * @throws org.lockspi.LockConnectionException if the client does not connect
     */
    public static LockService openFair(RedisClusterClient client, String parameters) {
        return open(new RedisLettuceFairLockProvider(), client, parameters);
    }

    /** The open of both Lettuce providers on an application's client. */
    private static LockService open(RedisRecipeProvider provider, AbstractRedisClient client, String parameters) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(parameters, "parameters");
        boolean cluster = client instanceof RedisClusterClient;
        RedisSettings settings = RedisSettings.ofClient(cluster, parameters, "Redis" + (cluster ? " Cluster" : "")
                + " through the application's Lettuce " + client.getClass().getSimpleName());
        return provider.openOn(settings, parameters, () -> LettuceOps.onClient(client, settings));
    }
}
