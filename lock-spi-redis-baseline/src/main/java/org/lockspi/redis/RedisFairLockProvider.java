package org.lockspi.redis;

import org.lockspi.redis.internal.JedisConnector;
import org.lockspi.redis.recipe.RedisRecipeProvider;

/**
 * The first-come first-served Redis provider, {@code redis-fair}: the {@linkplain RedisLockProvider Redis baseline}
 * (same URIs, parameters, keys and guarantees) whose mutex waiters queue on the server, so that a free lock goes to
 * the one that has waited longest. Select it by name, e.g. {@code Locks.open(uri, "redis-fair")}: both providers
 * serve {@code redis://} and {@code rediss://}.
 *
 * <p>A waiting acquisition adds its owner token to {@code <keyPrefix>{N}:queue}, a sorted set scored by the
 * server time of its first failed attempt, and keeps its kind in its waiter key. A free mutex or write lock goes
 * to the head of the queue only; a reader comes in while only readers are ahead of it (a reader never overtakes a
 * queued writer, and the readers at the head come in together); a permit goes to a waiter with fewer live waiters
 * ahead of it than permits are free. An entry whose waiter key expired (a dead waiter) is dropped when met, so a
 * {@code tryAcquire} without waiting fails while a live waiter queues. A release publishes the head's owner token
 * (everyone's, if the head is a reader) on the lock's channel, so only that waiter tries again. Fairness costs one
 * more command inside the acquiring script when nobody waits (reading the queue), and a hand-off waits for the
 * head, however slow, where the baseline gives the lock to whichever waiter asks first.
 *
 * <p>Revocation works as on the baseline (same request, channel and bound); a revoked holder lets go with the
 * fair release, which names the head of the queue.
 *
 * <p>The features are fixed (spec §9.8); that is why first-come first-served is a provider of its own rather than
 * a URI parameter of {@code redis-baseline}.
 */
public final class RedisFairLockProvider extends RedisRecipeProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "redis-fair";

    /**
     * For {@link java.util.ServiceLoader}; cheap, connects nothing. Priority -1, below {@code redis-baseline}: an
     * unpinned {@code redis://} URI keeps opening the baseline.
     */
    public RedisFairLockProvider() {
        super(NAME, -1, true, JedisConnector::open);
    }
}
