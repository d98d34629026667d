package org.lockspi.redis.recipe;

/**
 * One subscriber connection of {@link RedisOps#openWatches}: it notices a server that closes its connections at
 * once (its read ends), and carries the lock channels the backend's waiters listen on and the revocation channel
 * ({@link RedisKeys#revokeChannel}). It sees nothing of a silent partition (no packet arrives); the lease renewals
 * cover that.
 *
 * <p>{@link #listen} may be called from any thread and never wait for the server; after a
 * reconnection the watch subscribes every listened channel again (a message sent meanwhile is lost: the waiters'
 * polling covers that).
 */
public interface RedisWatch extends AutoCloseable {

    /** What a watch reports, on its own thread; the methods must not block for long. */
    interface Listener {
        /** A message on a lock channel. */
        void message(String channel, String message);

        /** The server confirmed the subscription to a lock channel: from now on no message on it is missed. */
        void subscribed(String channel);

        /** A subscribed connection ended (the server stopped, restarted or closed it); the watch reconnects. */
        void dropped();
    }

    /**
     * Subscribes to {@code channel} (now if connected, else once connected; {@link Listener#subscribed} follows
     * the server's confirmation), or unsubscribes from it. Sends at most one command; never waits for the reply.
     *
     * @param channel a lock channel
     * @param listen  true to subscribe, false to unsubscribe
     */
    void listen(String channel, boolean listen);

    /** Stops the watch and closes its connection; idempotent. */
    @Override
    void close();
}
