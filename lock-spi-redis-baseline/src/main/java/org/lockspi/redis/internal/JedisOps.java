package org.lockspi.redis.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.lockspi.redis.recipe.RedisOps;
import org.lockspi.redis.recipe.RedisOpsException;
import org.lockspi.redis.recipe.RedisSettings;
import org.lockspi.redis.recipe.RedisWatch;
import org.lockspi.redis.recipe.RunIds;
import org.lockspi.redis.recipe.Tls;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;

/**
 * The recipe's operations on Jedis, for each topology:
 * <ul>
 *   <li>one instance: a {@link PooledConnectionProvider}, a pool of connections to it;</li>
 *   <li>Sentinel: a {@link SentineledConnectionProvider}, which asks the sentinels for the master, follows their
 *       {@code +switch-master} announcements and replaces its pool when the master changes;</li>
 *   <li>a cluster: {@link JedisCluster}, a pool per node, each call routed by its keys' slot, redirections
 *       followed.</li>
 * </ul>
 * Commands are sent as raw {@link CommandArguments} on a pooled {@link Connection} (one instance, Sentinel, a
 * cluster node's pool) or, routed by key, through {@link JedisCluster#evalsha}: the classes and methods used here are the same
 * from Jedis 6 to 8 (Jedis 8 dropped {@code JedisPooled} and {@code JedisSentineled}, and its {@code UnifiedJedis}
 * retries connection failures itself, which would hide a broken connection from the recipe).
 */
final class JedisOps implements RedisOps {
    private final RedisSettings settings;
    /** The pool of one instance or of the current master; null for a cluster. */
    private final ConnectionProvider provider;
    /** The cluster client; null unless a cluster. */
    private final JedisCluster cluster;

    private JedisOps(RedisSettings settings, ConnectionProvider provider, JedisCluster cluster) {
        this.settings = settings;
        this.provider = provider;
        this.cluster = cluster;
    }

    /**
     * Creates the client; connects nothing yet for one instance, asks the sentinels or the seed nodes otherwise.
     *
     * @throws RedisOpsException if no sentinel or seed node answers
     */
    static JedisOps open(RedisSettings settings) {
        DefaultJedisClientConfig config = dataConfig(settings);
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(settings.connectTimeout());
        pool.setJmxEnabled(false);
        pool.setTestWhileIdle(false);
        try {
            switch (settings.topology()) {
                case SENTINEL: {
                    DefaultJedisClientConfig.Builder sentinel = base(settings).clientName("lockspi-sentinel");
                    if (settings.sentinelUser() != null) {
                        sentinel.user(settings.sentinelUser());
                    }
                    if (settings.sentinelPassword() != null) {
                        sentinel.password(settings.sentinelPassword());
                    }
                    return new JedisOps(settings, new SentineledConnectionProvider(settings.masterName(),
                            config, pool, addresses(settings), sentinel.build()), null);
                }
                case CLUSTER:
                    // maxAttempts 3: a redirection or a node's failure is retried on the node the new slot map
                    // names, within socketTimeout x 3 in all
                    return new JedisOps(settings, null, new JedisCluster(addresses(settings), config, 3,
                            pool));
                default:
                    return new JedisOps(settings, new PooledConnectionProvider(new HostAndPort(
                            settings.host(), settings.port()), config, pool), null);
            }
        } catch (JedisException e) {
            throw translate(e);
        }
    }

    /** @return the configuration of every data connection */
    private static DefaultJedisClientConfig dataConfig(RedisSettings settings) {
        return data(settings).build();
    }

    /**
     * @return the configuration of the watch connections: the data connections', without Jedis 8's RESP3
     *         negotiation, which a plain {@code Jedis} connection does not do and warns about at every connection
     *         unless told (Jedis 6 and 7 neither negotiate nor have the switch)
     */
    private static DefaultJedisClientConfig watchConfig(RedisSettings settings) {
        DefaultJedisClientConfig.Builder config = data(settings);
        try {
            config.getClass().getMethod("autoNegotiateProtocol", boolean.class).invoke(config, false);
        } catch (NoSuchMethodException e) {
            // Jedis 6 or 7: nothing to switch off
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot configure the Jedis watch connection", e);
        }
        return config.build();
    }

    private static DefaultJedisClientConfig.Builder data(RedisSettings settings) {
        DefaultJedisClientConfig.Builder config = base(settings)
                .database(settings.database())
                .clientName("lockspi");
        if (settings.user() != null) {
            config.user(settings.user());
        }
        if (settings.password() != null) {
            config.password(settings.password());
        }
        return config;
    }

    private static DefaultJedisClientConfig.Builder base(RedisSettings settings) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis(settings.connectTimeout()))
                .socketTimeoutMillis(millis(settings.socketTimeout()))
                .ssl(settings.ssl())
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        Tls tls = settings.tls();
        if (tls != null) {
            config.sslSocketFactory(tls.socketFactory());
            config.sslParameters(tls.parameters());
        }
        return config;
    }

    private static Set<HostAndPort> addresses(RedisSettings settings) {
        Set<HostAndPort> nodes = new LinkedHashSet<>();
        for (RedisSettings.Node node : settings.nodes()) {
            nodes.add(new HostAndPort(node.host(), node.port()));
        }
        return nodes;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    // ---- calls ------------------------------------------------------------------------------------------------

    /** Runs a command on a pooled connection (one instance, Sentinel); the reply decoded. */
    private Object call(CommandArguments command) {
        return translated(() -> {
            try (Connection connection = provider.getConnection()) {
                return decode(connection.executeCommand(command));
            }
        });
    }

    /** Runs a keyless command on one node's pool. */
    private static Object call(ConnectionPool node, CommandArguments command) {
        try (Connection connection = node.getResource()) {
            return decode(connection.executeCommand(command));
        }
    }

    private static <T> T translated(Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisException e) {
            throw translate(e);
        }
    }

    /** The recipe's kind of a Jedis failure; the server's reply stays the message of an error reply. */
    static RedisOpsException translate(JedisException e) {
        if (e instanceof JedisNoScriptException) {
            return new RedisOpsException(RedisOpsException.Kind.NO_SCRIPT, e.getMessage(), e);
        }
        if (e instanceof JedisDataException) {
            return new RedisOpsException(RedisOpsException.Kind.ERROR_REPLY, e.getMessage(), e);
        }
        if (e instanceof JedisConnectionException) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.SocketTimeoutException) {
                    return new RedisOpsException(RedisOpsException.Kind.NO_ANSWER, e.getMessage(), e);
                }
            }
            return new RedisOpsException(RedisOpsException.Kind.BROKEN_CONNECTION, e.getMessage(), e);
        }
        return new RedisOpsException(RedisOpsException.Kind.NO_ANSWER, e.getMessage(), e);
    }

    /** Bulk and status replies as UTF-8 strings, arrays as lists, recursively. */
    private static Object decode(Object reply) {
        if (reply instanceof byte[]) {
            return new String((byte[]) reply, StandardCharsets.UTF_8);
        }
        if (reply instanceof List) {
            List<?> items = (List<?>) reply;
            List<Object> decoded = new ArrayList<>(items.size());
            for (Object item : items) {
                decoded.add(decode(item));
            }
            return decoded;
        }
        return reply;
    }

    @Override
    public Object evalsha(String sha, List<String> keys, List<String> args) {
        if (cluster != null) {
            // routed by the first key's slot (the classes that route raw arguments differ between Jedis versions)
            return translated(() -> decode(cluster.evalsha(sha, keys, args)));
        }
        return call(new CommandArguments(Protocol.Command.EVALSHA).add(sha).add(keys.size()).keys(keys)
                .addObjects(args));
    }

    @Override
    public String scriptLoad(String body, String key) {
        if (cluster != null) {
            return translated(() -> key.isEmpty() ? cluster.scriptLoad(body) : cluster.scriptLoad(body, key));
        }
        return (String) call(new CommandArguments(Protocol.Command.SCRIPT).add("LOAD").add(body));
    }

    @Override
    public void ping() {
        if (cluster == null) {
            call(new CommandArguments(Protocol.Command.PING));
            return;
        }
        translated(() -> {
            for (ConnectionPool node : cluster.getClusterNodes().values()) {
                call(node, new CommandArguments(Protocol.Command.PING));
            }
            return null;
        });
    }

    @Override
    public String runId() {
        CommandArguments info = new CommandArguments(Protocol.Command.INFO).add("server");
        if (cluster == null) {
            return RunIds.of(String.valueOf(call(info)));
        }
        return RunIds.ofNodes(cluster.getClusterNodes().entrySet(), Map.Entry::getKey,
                node -> translated(() -> String.valueOf(call(node.getValue(), info))));
    }

    @Override
    public Set<String> scan(String pattern, int count) {
        Set<String> keys = new HashSet<>();
        if (cluster == null) {
            translated(() -> {
                try (Connection connection = provider.getConnection()) {
                    scan(connection, pattern, count, keys);
                }
                return null;
            });
            return keys;
        }
        // SCAN is per node in a cluster: every node's key space (a replica's keys are its master's)
        translated(() -> {
            for (ConnectionPool node : cluster.getClusterNodes().values()) {
                try (Connection connection = node.getResource()) {
                    scan(connection, pattern, count, keys);
                }
            }
            return null;
        });
        return keys;
    }

    private static void scan(Connection connection, String pattern, int count, Set<String> into) {
        String cursor = "0";
        do {
            List<?> page = (List<?>) decode(connection.executeCommand(new CommandArguments(Protocol.Command.SCAN)
                    .add(cursor).add("MATCH").add(pattern).add("COUNT").add(count)));
            cursor = (String) page.get(0);
            for (Object key : (List<?>) page.get(1)) {
                into.add((String) key);
            }
        } while (!cursor.equals("0"));
    }

    /**
     * Drops the idle connections, broken by a restart: all of one instance's pool; those of every cluster node.
     * The Sentinel provider exposes no pool: its broken connections are dropped one by one as they fail (a retry
     * may meet another), and the whole pool is replaced when the sentinels announce a new master.
     */
    @Override
    public void dropIdleConnections() {
        if (provider instanceof PooledConnectionProvider) {
            ((PooledConnectionProvider) provider).getPool().clear();
        } else if (cluster != null) {
            for (ConnectionPool pool : cluster.getClusterNodes().values()) {
                pool.clear();
            }
        }
    }

    /**
     * Watches the instance; the current master (asked again at every reconnection, so the watch follows a
     * failover); every node of the cluster known at open.
     */
    @Override
    public List<RedisWatch> openWatches(String watchChannel, RedisWatch.Listener listener) {
        List<Supplier<HostAndPort>> targets = new ArrayList<>();
        if (provider instanceof SentineledConnectionProvider) {
            targets.add(((SentineledConnectionProvider) provider)::getCurrentMaster);
        } else if (cluster != null) {
            for (String node : cluster.getClusterNodes().keySet()) {
                HostAndPort address = HostAndPort.from(node);
                targets.add(() -> address);
            }
        } else {
            HostAndPort address = new HostAndPort(settings.host(), settings.port());
            targets.add(() -> address);
        }
        List<RedisWatch> watches = new ArrayList<>();
        DefaultJedisClientConfig watchConfig = watchConfig(settings);
        for (Supplier<HostAndPort> target : targets) {
            watches.add(new JedisWatch(target, watchConfig, watchChannel, settings.retryInitial(), settings.retryMax(),
                    listener));
        }
        return watches;
    }

    @Override
    public void close() {
        if (cluster != null) {
            cluster.close();
        } else {
            try {
                provider.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("closing the Jedis pool of " + settings + " failed", e);
            }
        }
    }
}
