package org.lockspi.redis.recipe.tck;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.lockspi.tck.ExternalBackend;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.ClusterRedisBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.redis.RedisContainerBackend;
import org.lockspi.tck.redis.SentinelRedisBackend;

/**
 * The conformance kit for a provider on the Redis recipe ({@code redis-baseline} and {@code redis-fair} on Jedis,
 * {@code redis-lettuce} and {@code redis-lettuce-fair} on Lettuce): one set of client parameters, one lease span and
 * one crash-release bound for all of them, the server of each {@link Server kind}, and the rules that kind leaves
 * unverified, each with its reason. A TCK class of a provider module names its provider and its kind of server:
 *
 * <pre>{@code
 * class LettuceSentinelTopologyTckTest extends RedisRecipeTck {
 *     LettuceSentinelTopologyTckTest() { super(Server.SENTINEL); }
 *     @Override public LockProvider provider() { return new RedisLettuceLockProvider(); }
 * }
 * }</pre>
 *
 * <p>The same recipe behind every provider means the same allowances: what one client library cannot show on a
 * kind of server, the other cannot either, and for the same reason.
 */
public abstract class RedisRecipeTck extends LockProviderTck {
    /** The clients' parameters: a 3 s lease keeps the crash and loss contracts fast. */
    public static final String PARAMETERS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    /** The lease time of {@link #PARAMETERS}: the lease span {@code T}. */
    public static final Duration LEASE_TIME = Duration.ofSeconds(3);
    /** The system property naming the image of {@link Server#CONTAINER}: {@value}. */
    public static final String IMAGE_PROPERTY = "lockspi.tck.redis.image";

    /** Why §13.6 cannot be shown on any Redis server the kit starts. */
    private static final String COUNTERS = "Redis counters start at 0 and the backend cannot raise those of locks "
            + "it does not know yet; the recipe's tokens carry the server's TIME in microseconds as a floor, above "
            + "2^32 from the first (the providers' own tests check it)";
    /** The rules that restart one server in place. */
    private static final String[] RESTART_RULES = {"§13.3", "§16.1", "§16.2", "§16.3", "§17.3", "§18.4", "§18.5"};
    /** The rules that put a TCP proxy in front of the URI's one address. */
    private static final String[] PARTITION_RULES = {"§17.5", "§18.1", "§18.2", "§20.4"};
    /** The rules that put a proxy reading the wire protocol in front of the URI's one address. */
    private static final String[] WIRE_RULES = {"§24.1", "§24.2", "§24.3", "§24.4", "§24.5"};

    /** The kinds of Redis server a provider's TCK class runs against. */
    public enum Server {
        /**
         * One {@code redis-server} started by the build, or the server named by
         * {@code -Dlockspi.tck.uri=redis://host:port/db}: every rule but §13.6 is shown.
         */
        ONE,
        /** A master, a replica and three sentinels, each a {@code redis-server} process; failover after 5 s. */
        SENTINEL,
        /** A Cluster of three masters, each a {@code redis-server} process. */
        CLUSTER,
        /**
         * Another Redis version in a container ({@code redis:7.4-alpine} unless {@value #IMAGE_PROPERTY} names
         * one); the class is skipped with its reason where no Docker engine runs.
         */
        CONTAINER;

        TckBackend start() {
            return switch (this) {
                case ONE -> {
                    String external = System.getProperty(ExternalBackend.URI_PROPERTY);
                    yield external == null || external.isBlank() ? EmbeddedRedisBackend.start()
                            : ExternalBackend.of(external);
                }
                case SENTINEL -> SentinelRedisBackend.start(Duration.ofSeconds(5));
                case CLUSTER -> ClusterRedisBackend.start();
                case CONTAINER -> RedisContainerBackend.start(System.getProperty(IMAGE_PROPERTY, "redis:7.4-alpine"));
            };
        }

        /** @return the rules this kind of server cannot show, each with the reason */
        Map<String, String> unverifiable() {
            Map<String, String> rules = new HashMap<>();
            rules.put("§13.6", COUNTERS);
            String single = "; the single-instance class of the same provider runs it";
            String restart = switch (this) {
                case ONE -> null;
                case SENTINEL -> "a Sentinel master down longer than down-after-milliseconds is replaced by its "
                        + "replica: a failover (RedisSentinelFailoverTopologyTest measures it), not the in-place "
                        + "restart the rule means" + single;
                case CLUSTER -> "the kit restarts no single cluster node in place (a node down longer than "
                        + "cluster-node-timeout fails its slots)" + single;
                case CONTAINER -> "the kit cannot restart a server in a container on the same port" + single;
            };
            String partition = switch (this) {
                case SENTINEL -> "the TCP proxy stands for the URI's single host:port; a Sentinel URI names "
                        + "several servers, and the sentinels hand out the data nodes' real addresses" + single;
                case CLUSTER -> "the TCP proxy stands for the URI's single host:port; a Cluster URI names "
                        + "several servers, and the cluster's slot map hands out the data nodes' real addresses"
                        + single;
                default -> null;
            };
            String wire = this == CONTAINER ? "the container backend offers neither the wire framing nor the session "
                    + "list (the server in a container sees Docker's gateway, not the proxy's address)" + single
                    : partition;
            if (wire != null) {
                for (String rule : WIRE_RULES) {
                    rules.put(rule, wire);
                }
            }
            if (restart != null) {
                for (String rule : RESTART_RULES) {
                    rules.put(rule, restart);
                }
            }
            if (partition != null) {
                for (String rule : PARTITION_RULES) {
                    rules.put(rule, partition);
                }
            }
            return rules;
        }
    }

    private final Server server;

    /** @param server the kind of server the class runs against */
    protected RedisRecipeTck(Server server) {
        this.server = server;
    }

    @Override
    protected final TckBackend startBackend() {
        return server.start();
    }

    @Override
    protected final String clientParameters() {
        return PARAMETERS;
    }

    /** The lease time of {@link #PARAMETERS}. */
    @Override
    public final Duration leaseSpan() {
        return LEASE_TIME;
    }

    /** The lease time, a renewal interval of slack and a few back-off pauses. */
    @Override
    public final Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    /** What the {@link Server kind} of server cannot show. */
    @Override
    protected final Map<String, String> unverifiedRulesAllowed() {
        return server.unverifiable();
    }
}
