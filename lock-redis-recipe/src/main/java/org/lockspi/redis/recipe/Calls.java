package org.lockspi.redis.recipe;

import java.util.function.Supplier;

/** Calls that survive a server restart: one retry on a broken pooled connection. */
final class Calls {
    private Calls() {
    }

    /**
     * Runs one call; if it fails on a connection broken earlier (a server restart leaves every pooled connection
     * broken), runs {@code onBroken} (the connection was lost: leases are uncertain until a call succeeds), drops
     * the idle connections and runs it once more on a fresh one. A call that got no answer is not retried: it
     * spent its budget, so one call never takes longer than twice connectTimeout plus socketTimeout.
     */
    static <T> T retryOnce(RedisOps redis, Runnable onBroken, Supplier<T> command) {
        try {
            return command.get();
        } catch (RedisOpsException e) {
            if (e.kind() != RedisOpsException.Kind.BROKEN_CONNECTION) {
                throw e;
            }
            onBroken.run();
            redis.dropIdleConnections();
            try {
                return command.get();
            } catch (RuntimeException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
    }
}
