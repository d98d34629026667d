package org.lockspi.redis.internal;

import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/** Calls that survive a server restart: one retry on a broken pooled connection, and the server's run_id. */
final class Calls {
    private Calls() {
    }

    /** @return the server's {@code run_id}s ({@link RedisClients#runId}): another one means a restart */
    static String runId(UnifiedJedis redis) {
        return RedisClients.runId(redis);
    }

    /**
     * Runs one call; if it fails on a connection broken earlier (a server restart leaves every pooled connection
     * broken), runs {@code onBroken} (the connection was lost: leases are uncertain until a call succeeds), drops
     * the idle connections and runs it once more on a fresh one. A timeout is not retried: it spent its budget,
     * so one call never takes longer than twice connectTimeout plus socketTimeout.
     */
    static <T> T retryOnce(UnifiedJedis redis, Runnable onBroken, Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisConnectionException e) {
            if (!brokenConnection(e)) {
                throw e;
            }
            onBroken.run();
            RedisClients.clearIdle(redis);
            try {
                return command.get();
            } catch (JedisException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
    }

    /** Whether a connection failure came from a connection that was broken, not from a timeout. */
    static boolean brokenConnection(JedisConnectionException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return false;
            }
        }
        return true;
    }

}
