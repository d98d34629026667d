package org.lockspi.redis.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisSentineled;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Creates the one client of a backend for its {@link RedisSettings.Topology topology}, and answers the questions
 * whose answer depends on it:
 * <ul>
 *   <li>{@link JedisPooled} for one instance: a pool of connections to it;</li>
 *   <li>{@link JedisSentineled} for Sentinel: asks the sentinels for the master, follows their
 *       {@code +switch-master} announcements, and replaces its pool when the master changes;</li>
 *   <li>{@link JedisCluster} for a cluster: a pool per node, commands routed by their keys' slot (every key of
 *       one lock has the hash tag {@code {name}}, so each script touches one slot), redirections followed.</li>
 * </ul>
 * The restart check compares {@code run_id}s ({@link #runId(UnifiedJedis)}): the instance's, the current
 * master's (so a failover reads as a restart, which it is for the data), or every cluster node's.
 */
final class RedisClients {
    private RedisClients() {
    }

    /** @return the configuration of every data connection (and of the watch connection) */
    static DefaultJedisClientConfig dataConfig(RedisSettings settings) {
        DefaultJedisClientConfig.Builder config = base(settings)
                .database(settings.database())
                .clientName("lockspi");
        if (settings.user() != null) {
            config.user(settings.user());
        }
        if (settings.password() != null) {
            config.password(settings.password());
        }
        return config.build();
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

    /**
     * Creates the client; connects nothing yet for one instance, asks the sentinels or the seed nodes otherwise.
     *
     * @throws JedisException if no sentinel or seed node answers
     */
    static UnifiedJedis open(RedisSettings settings, DefaultJedisClientConfig config) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(settings.connectTimeout());
        pool.setJmxEnabled(false);
        pool.setTestWhileIdle(false);
        switch (settings.topology()) {
            case SENTINEL: {
                DefaultJedisClientConfig.Builder sentinel = base(settings).clientName("lockspi-sentinel");
                if (settings.sentinelUser() != null) {
                    sentinel.user(settings.sentinelUser());
                }
                if (settings.sentinelPassword() != null) {
                    sentinel.password(settings.sentinelPassword());
                }
                return new JedisSentineled(settings.masterName(), config, pool, addresses(settings),
                        sentinel.build());
            }
            case CLUSTER:
                // maxAttempts 3: a redirection or a node's failure is retried on the node the new slot map names,
                // within socketTimeout x 3 in all
                return new JedisCluster(addresses(settings), config, 3, pool);
            default:
                return new JedisPooled(new HostAndPort(settings.host(), settings.port()), config, pool);
        }
    }

    private static Set<HostAndPort> addresses(RedisSettings settings) {
        Set<HostAndPort> nodes = new LinkedHashSet<>();
        for (RedisSettings.Node node : settings.nodes()) {
            nodes.add(new HostAndPort(node.host(), node.port()));
        }
        return nodes;
    }

    /**
     * Checks the connection at open: a PING to the instance or the master; to every node of a cluster.
     *
     * @throws JedisException if a server does not answer
     */
    static void ping(UnifiedJedis redis) {
        if (redis instanceof JedisCluster) {
            for (Map.Entry<String, ConnectionPool> node : ((JedisCluster) redis).getClusterNodes().entrySet()) {
                try (Connection connection = node.getValue().getResource()) {
                    connection.executeCommand(Protocol.Command.PING);
                }
            }
        } else {
            redis.ping();
        }
    }

    /**
     * Drops the idle connections, broken by a restart: all of one instance's pool; those of every cluster node.
     * JedisSentineled exposes no pool: its broken connections are dropped one by one as they fail (a retry may
     * meet another), and the whole pool is replaced when the sentinels announce a new master.
     */
    static void clearIdle(UnifiedJedis redis) {
        if (redis instanceof JedisPooled) {
            ((JedisPooled) redis).getPool().clear();
        } else if (redis instanceof JedisCluster) {
            for (ConnectionPool pool : ((JedisCluster) redis).getClusterNodes().values()) {
                pool.clear();
            }
        }
    }

    /**
     * @return the {@code run_id} of the instance or the current master from {@code INFO server} (a new one at
     *         every start, and another server's after a failover); for a cluster, {@code node=run_id} of every
     *         node that answers, sorted, so the restart or failover of any node changes it
     * @throws JedisException if the instance or master does not answer, or no cluster node does
     */
    static String runId(UnifiedJedis redis) {
        if (!(redis instanceof JedisCluster)) {
            return runId(redis.sendCommand(Protocol.Command.INFO, "server"));
        }
        Map<String, String> ids = new TreeMap<>();
        JedisException last = null;
        for (Map.Entry<String, ConnectionPool> node : ((JedisCluster) redis).getClusterNodes().entrySet()) {
            try (Connection connection = node.getValue().getResource()) {
                ids.put(node.getKey(), runId(connection.executeCommand(
                        new redis.clients.jedis.CommandArguments(Protocol.Command.INFO).add("server"))));
            } catch (JedisException e) {
                last = e; // that node is down; the renewals of the locks it served will say so
            }
        }
        if (ids.isEmpty()) {
            throw last != null ? last : new JedisException("no Redis Cluster node known");
        }
        return ids.toString();
    }

    private static String runId(Object reply) {
        String info = reply instanceof byte[] ? new String((byte[]) reply, StandardCharsets.UTF_8)
                : String.valueOf(reply);
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).strip();
            }
        }
        return "";
    }

    /**
     * @return where the {@link ConnectionWatch}es listen: the instance; the current master (asked again at every
     *         reconnection, so the watch follows a failover); every node of the cluster known at open
     */
    static List<Supplier<HostAndPort>> watchTargets(RedisSettings settings, UnifiedJedis redis) {
        List<Supplier<HostAndPort>> targets = new ArrayList<>();
        if (redis instanceof JedisSentineled) {
            JedisSentineled sentineled = (JedisSentineled) redis;
            targets.add(sentineled::getCurrentMaster);
        } else if (redis instanceof JedisCluster) {
            for (String node : ((JedisCluster) redis).getClusterNodes().keySet()) {
                HostAndPort address = HostAndPort.from(node);
                targets.add(() -> address);
            }
        } else {
            HostAndPort address = new HostAndPort(settings.host(), settings.port());
            targets.add(() -> address);
        }
        return targets;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
