package org.lockspi.redis.lettuce.internal;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisServerCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.lockspi.redis.recipe.RedisOps;
import org.lockspi.redis.recipe.RedisOpsException;
import org.lockspi.redis.recipe.RedisSettings;
import org.lockspi.redis.recipe.RedisWatch;
import org.lockspi.redis.recipe.RunIds;

/**
 * The recipe's operations on Lettuce: one multiplexed connection that reconnects by itself (to the instance, to
 * the master the sentinels name at each connection, or to the cluster, each call routed by its first key's slot),
 * and subscriber connections for the watches. A call made while the connection is down waits for the
 * reconnection, at most {@code socketTimeout}. There is no pool: {@code poolSize} sets nothing here.
 *
 * <p>The client is the provider's own (made from the URI, closed with the backend, with its own event loops) or
 * the application's ({@link #onClient}): then the backend opens its own connections on it and closes only those.
 */
public final class LettuceOps implements RedisOps {
    private final RedisSettings settings;
    private final AbstractRedisClient client;
    /** Closed with the backend: the client and resources the provider made, or nothing of the application's. */
    private final AutoCloseable owned;
    /** The data connection of one instance or of the Sentinel master; null for a cluster. */
    private final StatefulRedisConnection<String, String> single;
    /** The data connection of a cluster; null otherwise. */
    private final StatefulRedisClusterConnection<String, String> cluster;
    /** The subscriber connections of the watches, closed with the backend. */
    private final List<StatefulConnection<String, String>> subscribers = new ArrayList<>();

    private LettuceOps(RedisSettings settings, AbstractRedisClient client, AutoCloseable owned) {
        this.settings = settings;
        this.client = client;
        this.owned = owned;
        try {
            if (client instanceof RedisClusterClient) {
                cluster = ((RedisClusterClient) client).connect(StringCodec.UTF8);
                cluster.setTimeout(settings.socketTimeout());
                single = null;
            } else {
                single = ((RedisClient) client).connect(StringCodec.UTF8);
                single.setTimeout(settings.socketTimeout());
                cluster = null;
            }
        } catch (RedisException e) {
            throw translate(e);
        }
    }

    /**
     * Makes a client for the URI's settings and connects it.
     *
     * @throws RedisOpsException        if the server (a sentinel, a seed node) does not answer in time; the
     *                                  client's threads are stopped then
     * @throws IllegalArgumentException if a TLS store cannot be read
     */
    public static LettuceOps open(RedisSettings settings) {
        ClientResources resources = LettuceClients.resources(settings);
        AbstractRedisClient client = null;
        try {
            client = LettuceClients.client(settings, resources);
            AbstractRedisClient made = client;
            return new LettuceOps(settings, client, () -> LettuceClients.shutdown(made, resources));
        } catch (RuntimeException e) {
            LettuceClients.shutdown(client, resources);
            throw e;
        }
    }

    /**
     * The operations on an application's client ({@link RedisClient} with its default URI, or
     * {@link RedisClusterClient}): the backend's connections are opened on it and closed with the backend; the
     * client stays the application's.
     *
     * @throws RedisOpsException if the client does not connect
     */
    public static LettuceOps onClient(AbstractRedisClient client, RedisSettings settings) {
        return new LettuceOps(settings, client, () -> { });
    }

    // ---- calls ------------------------------------------------------------------------------------------------

    private static <T> T translated(Supplier<T> call) {
        try {
            return call.get();
        } catch (RedisException e) {
            throw translate(e);
        }
    }

    /**
     * The recipe's kind of a Lettuce failure. An interrupted wait keeps its InterruptedException as the cause and
     * clears the interrupt flag that Lettuce set again, as a thrown InterruptedException would: the recipe then
     * cleans up (which needs a working call) and throws InterruptedException.
     */
    static RedisOpsException translate(RedisException e) {
        if (e instanceof RedisNoScriptException || String.valueOf(e.getMessage()).startsWith("NOSCRIPT")) {
            return new RedisOpsException(RedisOpsException.Kind.NO_SCRIPT, e.getMessage(), e);
        }
        if (e instanceof RedisCommandExecutionException) {
            return new RedisOpsException(RedisOpsException.Kind.ERROR_REPLY, e.getMessage(), e);
        }
        if (e instanceof RedisCommandTimeoutException) {
            return new RedisOpsException(RedisOpsException.Kind.NO_ANSWER, e.getMessage(), e);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                Thread.interrupted();
                return new RedisOpsException(RedisOpsException.Kind.NO_ANSWER, "interrupted", e);
            }
        }
        if (e instanceof RedisConnectionException || String.valueOf(e.getMessage()).startsWith("Connection ")) {
            // connecting failed, or the connection closed under a call ("Connection closed"): try once more
            return new RedisOpsException(RedisOpsException.Kind.BROKEN_CONNECTION, e.getMessage(), e);
        }
        return new RedisOpsException(RedisOpsException.Kind.NO_ANSWER, e.getMessage(), e);
    }

    private RedisScriptingCommands<String, String> scripting() {
        return cluster != null ? cluster.sync() : single.sync();
    }

    /** {@code EVALSHA} read by {@link ReplyOutput}; on a cluster routed by the first key's slot. */
    @Override
    public Object evalsha(String sha, List<String> keys, List<String> args) {
        CommandArgs<String, String> command = new CommandArgs<>(StringCodec.UTF8).add(sha).add(keys.size())
                .addKeys(keys).addValues(args);
        return translated(() -> cluster != null
                ? cluster.sync().dispatch(CommandType.EVALSHA, new ReplyOutput(), command)
                : single.sync().dispatch(CommandType.EVALSHA, new ReplyOutput(), command));
    }

    @Override
    public String scriptLoad(String body, String key) {
        if (cluster == null || key.isEmpty()) {
            return translated(() -> scripting().scriptLoad(body));
        }
        // on the master of the key's slot, where the script will run
        return translated(() -> {
            RedisClusterNode node = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
            if (node == null) {
                throw new RedisException("no Redis Cluster node serves slot " + SlotHash.getSlot(key));
            }
            return cluster.getConnection(node.getNodeId()).sync().scriptLoad(body);
        });
    }

    /** The masters of the cluster as the client knows them. */
    private List<RedisClusterNode> masters() {
        List<RedisClusterNode> masters = new ArrayList<>();
        for (RedisClusterNode node : cluster.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                masters.add(node);
            }
        }
        return masters;
    }

    private RedisServerCommands<String, String> server(RedisClusterNode node) {
        return cluster.getConnection(node.getNodeId()).sync();
    }

    @Override
    public void ping() {
        translated(() -> {
            if (cluster == null) {
                single.sync().ping();
            } else {
                for (RedisClusterNode node : masters()) {
                    cluster.getConnection(node.getNodeId()).sync().ping();
                }
            }
            return null;
        });
    }

    @Override
    public String runId() {
        if (cluster == null) {
            return translated(() -> RunIds.of(single.sync().info("server")));
        }
        return RunIds.ofNodes(translated(this::masters), node -> node.getUri().getHost() + ":" + node.getUri().getPort(),
                node -> translated(() -> server(node).info("server")));
    }

    /** On a cluster, Lettuce's scan visits every master in turn. */
    @Override
    public Set<String> scan(String pattern, int count) {
        return translated(() -> {
            RedisKeyCommands<String, String> keys = cluster != null ? cluster.sync() : single.sync();
            Set<String> found = new HashSet<>();
            ScanIterator<String> scan = ScanIterator.scan(keys, ScanArgs.Builder.matches(pattern).limit(count));
            while (scan.hasNext()) {
                found.add(scan.next());
            }
            return found;
        });
    }

    /** Nothing to drop: the one connection reconnects by itself. */
    @Override
    public void dropIdleConnections() {
    }

    /**
     * One subscriber connection to the instance or the Sentinel master (found again at each reconnection); on a
     * cluster one to each master known now, the first carrying the lock channels.
     */
    @Override
    public List<RedisWatch> openWatches(String watchChannel, RedisWatch.Listener listener) {
        List<RedisWatch> watches = new ArrayList<>();
        try {
            if (cluster == null) {
                StatefulRedisPubSubConnection<String, String> pubsub =
                        ((RedisClient) client).connectPubSub(StringCodec.UTF8);
                pubsub.setTimeout(settings.socketTimeout());
                subscribers.add(pubsub);
                watches.add(new LettuceWatch(client, pubsub, watchChannel, listener));
            } else {
                StatefulRedisClusterPubSubConnection<String, String> pubsub =
                        ((RedisClusterClient) client).connectPubSub(StringCodec.UTF8);
                pubsub.setTimeout(settings.socketTimeout());
                subscribers.add(pubsub);
                for (RedisClusterNode node : masters()) {
                    watches.add(new LettuceWatch(client, pubsub.getConnection(node.getNodeId()), watchChannel,
                            listener));
                }
            }
        } catch (RedisException e) {
            watches.forEach(RedisWatch::close);
            throw translate(e);
        }
        return watches;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        List<StatefulConnection<String, String>> connections = new ArrayList<>(subscribers);
        connections.add(cluster != null ? cluster : single);
        for (StatefulConnection<String, String> connection : connections) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        try {
            owned.close();
        } catch (Exception e) {
            if (failure == null) {
                failure = new IllegalStateException("closing the Lettuce client of " + settings + " failed", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
