package org.lockspi.redis.recipe;

import java.util.List;
import java.util.Set;

/**
 * The few Redis operations the lock recipe ({@link RedisLockBackend}) needs, implemented once per client library
 * (Jedis, Lettuce, ...). The recipe does the rest: the keys, the Lua scripts and their arguments, the retry of a
 * call on a broken connection, lease renewal and its signal, the wake-ups of waiters and inspection.
 *
 * <p><b>Topology.</b> An implementation serves what its {@link RedisSettings#topology()} says: one instance, the
 * current master of a Sentinel deployment (following a failover), or a Redis Cluster (routing each call by the
 * slot of its first key: every key of one lock shares a hash tag, so a script never crosses slots).
 *
 * <p><b>Replies</b> of {@link #evalsha} are normalised: an integer is a {@link Long}, a bulk or status string a
 * UTF-8 {@link String}, an array a {@link List} of these, nil {@code null}.
 *
 * <p><b>Errors</b> are {@link RedisOpsException}s whose {@link RedisOpsException.Kind kind} the recipe acts on
 * (a broken connection is retried once, an error reply is refused or waited out, {@code NOSCRIPT} loads the
 * script); the client's own exception is the cause. An operation interrupted while waiting (for a pooled
 * connection, for a reply) keeps the {@link InterruptedException} in its cause chain. An operation on a closed
 * client throws {@link IllegalStateException} or a {@code RedisOpsException}.
 *
 * <p><b>Threads.</b> Every operation is synchronous, runs on the calling thread, is called concurrently from many
 * threads and returns within {@code connectTimeout + socketTimeout} of the settings (a cluster: a few times that,
 * following redirections). The watches call their {@link RedisWatch.Listener} on a thread of theirs.
 */
public interface RedisOps extends AutoCloseable {

    /**
     * {@code EVALSHA sha numkeys keys... args...}.
     *
     * @param sha  the script's SHA-1
     * @param keys the keys (the first one routes the call on a cluster)
     * @param args the arguments
     * @return the normalised reply
     * @throws RedisOpsException kind {@code NO_SCRIPT} if the server does not know the script, else as the call
     *                           failed
     */
    Object evalsha(String sha, List<String> keys, List<String> args);

    /**
     * {@code SCRIPT LOAD body} on the server that serves {@code key} (any server for an empty key).
     *
     * @param body the script
     * @param key  a key the script will be run with
     * @return the SHA-1 the server names the script by
     * @throws RedisOpsException as the call failed
     */
    String scriptLoad(String body, String key);

    /**
     * {@code PING}s the instance, the current master, or every node of a cluster: the check at open.
     *
     * @throws RedisOpsException if a server does not answer
     */
    void ping();

    /**
     * @return the {@code run_id} from {@code INFO server} of the instance or the current master (another one means
     *         a restart or a failover); on a cluster {@code node=run_id} of every node that answers, sorted
     * @throws RedisOpsException if no server answers
     */
    String runId();

    /**
     * {@code SCAN} with {@code MATCH pattern} over the whole key space: every master of a cluster. Never
     * {@code KEYS}.
     *
     * @param pattern a glob, its literal parts escaped
     * @param count   the {@code COUNT} hint of each call
     * @return the matching keys
     * @throws RedisOpsException as a call failed
     */
    Set<String> scan(String pattern, int count);

    /**
     * Drops the idle connections of a pool after a call found one broken (a restarted server leaves every pooled
     * connection broken); does nothing for a client that reconnects a connection of its own.
     */
    void dropIdleConnections();

    /**
     * Opens the watch connections: one per server whose connections the recipe must see dropped (the instance;
     * the current master, found again at each reconnection; every node of a cluster). Each stays subscribed to
     * {@code watchChannel}, on which nobody publishes, so that a server that closes its connections is noticed at
     * once; the first also carries the lock channels of {@link RedisWatch#listen} (a plain {@code PUBLISH}
     * reaches every node of a cluster). A watch reconnects by itself after a drop, with a back-off between
     * {@code RedisSettings.retryInitial()} and {@code retryMax()}, subscribing its channels again.
     *
     * @param watchChannel the channel every watch stays subscribed to
     * @param listener     told of messages, confirmations and drops, on the watches' threads
     * @return the watches, at least one; the first carries the lock channels
     */
    List<RedisWatch> openWatches(String watchChannel, RedisWatch.Listener listener);

    /** Closes every connection and pool of this client; idempotent. */
    @Override
    void close();
}
