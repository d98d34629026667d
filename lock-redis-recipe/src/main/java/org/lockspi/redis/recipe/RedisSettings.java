package org.lockspi.redis.recipe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.lockspi.spi.LockServices;
import org.lockspi.spi.LockUri;

/**
 * The options of one Redis backend, parsed and range-checked from a {@link LockUri}. Immutable. Holds the
 * passwords; {@link #toString()} and {@link #address()} never show them.
 *
 * <p>Three topologies ({@link Topology}), chosen by the scheme: {@code redis}/{@code rediss} one instance,
 * {@code redis-sentinel}/{@code rediss-sentinel} the master of a Sentinel deployment (hosts: the sentinels; path:
 * {@code /<master name>[/<db>]}), {@code redis-cluster}/{@code rediss-cluster} a Redis Cluster (hosts: seed nodes;
 * database 0 only). A scheme with a double {@code s} speaks TLS to every server, sentinels included, with the
 * JVM's default trust store unless {@code trustStore} names one.
 */
public final class RedisSettings {
    /** How the servers are reached. */
    public enum Topology {
        /** One instance: {@code redis://}, {@code rediss://}. */
        SINGLE,
        /** The master named in the path, found through the sentinels: {@code redis-sentinel://}. */
        SENTINEL,
        /** A Redis Cluster found from its seed nodes: {@code redis-cluster://}. */
        CLUSTER
    }

    /** One {@code host:port} of the URI. */
    public record Node(String host, int port) {
        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /** The schemes the provider serves. */
    public static final Set<String> SCHEMES = Set.of("redis", "rediss", "redis-sentinel", "rediss-sentinel",
            "redis-cluster", "rediss-cluster");

    /** Parameters for Sentinel URIs only. */
    static final Set<String> SENTINEL_PARAMETERS = Set.of("sentinelUser", "sentinelPassword");
    /** Parameters for TLS URIs only. */
    static final Set<String> TLS_PARAMETERS = Set.of("trustStore", "trustStoreType", "trustStorePassword",
            "keyStore", "keyStoreType", "keyStorePassword", "verifyHostname");

    /** The parameter names the provider accepts. */
    public static final Set<String> PARAMETERS = Stream.of(Set.of("leaseTime", "connectTimeout", "socketTimeout",
            "keyPrefix", "retryInitial", "retryMax", "poolSize", "confirmThreshold"), SENTINEL_PARAMETERS,
            TLS_PARAMETERS).flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());

    /** Default lease time: long enough to ride out a GC pause or a short network blip, as Redisson's watchdog. */
    public static final Duration DEFAULT_LEASE_TIME = Duration.ofSeconds(30);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(2);
    public static final String DEFAULT_KEY_PREFIX = "lockspi:";
    public static final Duration DEFAULT_RETRY_INITIAL = Duration.ofMillis(10);
    public static final Duration DEFAULT_RETRY_MAX = Duration.ofMillis(250);
    public static final int DEFAULT_POOL_SIZE = 16;
    public static final int DEFAULT_PORT = 6379;
    public static final int DEFAULT_SENTINEL_PORT = 26379;

    private final Topology topology;
    private final List<Node> nodes;
    private final String masterName;
    private final String sentinelUser;
    private final String sentinelPassword;
    private final Tls tls;

    private final String host;
    private final int port;
    private final int database;
    private final String user;
    private final String password;
    private final boolean ssl;
    private final Duration leaseTime;
    private final Duration connectTimeout;
    private final Duration socketTimeout;
    private final Duration confirmThreshold;
    private final String keyPrefix;
    private final Duration retryInitial;
    private final Duration retryMax;
    private final int poolSize;
    private final String description;

    private RedisSettings(LockUri uri, String clientDescription) {
        String scheme = uri.scheme();
        if (!SCHEMES.contains(scheme)) {
            throw new IllegalArgumentException("the Redis lock providers serve the schemes " + SCHEMES + ", not '"
                    + scheme + "': " + uri);
        }
        for (String name : uri.parameters().keySet()) {
            if (!PARAMETERS.contains(name) && !name.equals("provider")) {
                throw new IllegalArgumentException("unknown parameter '" + name + "' for the Redis lock providers (they "
                        + "accept " + new java.util.TreeSet<>(PARAMETERS) + "): " + uri);
            }
        }
        topology = scheme.endsWith("-sentinel") ? Topology.SENTINEL
                : scheme.endsWith("-cluster") ? Topology.CLUSTER : Topology.SINGLE;
        if (topology == Topology.SINGLE && uri.hosts().size() != 1) {
            throw new IllegalArgumentException("a " + scheme + ":// URI names one Redis instance, got "
                    + uri.hosts().size() + " hosts (for several, use " + scheme + "-sentinel:// with the sentinels "
                    + "or " + scheme + "-cluster:// with seed nodes): " + uri);
        }
        List<Node> parsed = new ArrayList<>();
        for (String hostPort : uri.hosts()) {
            parsed.add(node(hostPort, topology == Topology.SENTINEL ? DEFAULT_SENTINEL_PORT : DEFAULT_PORT, uri));
        }
        nodes = List.copyOf(parsed);
        host = nodes.get(0).host();
        port = nodes.get(0).port();
        String path = uri.path();
        String dbText;
        if (topology == Topology.SENTINEL) {
            // /<master name>[/<db>]
            String[] segments = path.isEmpty() ? new String[0] : path.substring(1).split("/", -1);
            if (segments.length < 1 || segments.length > 2 || !segments[0].matches("[A-Za-z0-9._-]{1,128}")) {
                throw new IllegalArgumentException("the path of a " + scheme + ":// URI is /<master name>[/<db>] "
                        + "with the name the sentinels monitor (letters, digits, '.', '_', '-'), got '" + path
                        + "': " + uri);
            }
            masterName = segments[0];
            dbText = segments.length == 2 ? segments[1] : "";
        } else {
            masterName = null;
            dbText = path.isEmpty() ? "" : path.substring(1);
        }
        if (dbText.isEmpty()) {
            database = 0;
        } else {
            if (!dbText.matches("\\d{1,5}")) {
                throw new IllegalArgumentException("the database of a Redis lock URI is a number like /0, got '"
                        + path + "': " + uri);
            }
            database = Integer.parseInt(dbText);
        }
        if (topology == Topology.CLUSTER && database != 0) {
            throw new IllegalArgumentException("Redis Cluster has database 0 only, got '" + path + "': " + uri);
        }
        if (topology != Topology.SENTINEL) {
            for (String name : SENTINEL_PARAMETERS) {
                if (uri.parameter(name).isPresent()) {
                    throw new IllegalArgumentException("parameter '" + name + "' applies to redis-sentinel:// and "
                            + "rediss-sentinel:// URIs only: " + uri);
                }
            }
        }
        sentinelUser = uri.parameter("sentinelUser").orElse(null);
        sentinelPassword = uri.parameter("sentinelPassword").orElse(null);
        user = uri.user().orElse(null);
        password = uri.password().orElse(null);
        ssl = scheme.startsWith("rediss");
        if (!ssl) {
            for (String name : TLS_PARAMETERS) {
                if (uri.parameter(name).isPresent()) {
                    throw new IllegalArgumentException("parameter '" + name + "' needs TLS: use "
                            + scheme.replaceFirst("^redis", "rediss") + ":// in place of " + scheme + "://, in: "
                            + uri);
                }
            }
        }
        tls = ssl ? Tls.parse(uri) : null;
        leaseTime = uri.duration("leaseTime", DEFAULT_LEASE_TIME, Duration.ofMillis(500), Duration.ofHours(24));
        connectTimeout = uri.duration("connectTimeout", DEFAULT_CONNECT_TIMEOUT, Duration.ofMillis(100),
                Duration.ofMinutes(10));
        // A renewal is sent every leaseTime / 3; its failure must be known while the key still lives, with a
        // third of the lease to spare for a retry. Unset, the timeout shrinks to fit; set too long, it is refused.
        Duration renewal = leaseTime.dividedBy(3);
        Duration socketDefault = DEFAULT_SOCKET_TIMEOUT.compareTo(renewal) <= 0 ? DEFAULT_SOCKET_TIMEOUT : renewal;
        socketTimeout = uri.duration("socketTimeout", socketDefault, Duration.ofMillis(100),
                Duration.ofMinutes(10));
        if (socketTimeout.compareTo(renewal) > 0) {
            throw new IllegalArgumentException("socketTimeout " + socketTimeout + " is longer than leaseTime / 3 ("
                    + "leaseTime " + leaseTime + "): a renewal is sent every leaseTime / 3 and must fail within that "
                    + "third, before the key can expire; lower socketTimeout to at most " + renewal
                    + " or raise leaseTime to at least " + socketTimeout.multipliedBy(3) + ", in lock URI: " + uri);
        }
        // Above the renewal interval, or every lease would turn UNCERTAIN between two healthy renewals.
        confirmThreshold = uri.duration("confirmThreshold", leaseTime.dividedBy(2), renewal.plusMillis(1),
                leaseTime);
        keyPrefix = uri.parameter("keyPrefix").orElse(DEFAULT_KEY_PREFIX);
        if (keyPrefix.length() > 128 || !keyPrefix.matches("[\\x21-\\x7e&&[^{}]]*")) {
            throw new IllegalArgumentException("parameter 'keyPrefix' must be at most 128 printable ASCII "
                    + "characters without spaces, '{' or '}': '" + keyPrefix + "' in lock URI: " + uri);
        }
        retryInitial = uri.duration("retryInitial", DEFAULT_RETRY_INITIAL, Duration.ofMillis(1),
                Duration.ofSeconds(10));
        retryMax = uri.duration("retryMax", DEFAULT_RETRY_MAX.compareTo(retryInitial) < 0 ? retryInitial
                : DEFAULT_RETRY_MAX, retryInitial, Duration.ofMinutes(1));
        poolSize = uri.integer("poolSize", DEFAULT_POOL_SIZE, 1, 1024);
        String db = database != 0 ? " db " + database : "";
        String tlsNote = ssl ? " (TLS" + (tls.keyStore() != null ? ", client certificate" : "") + ")" : "";
        if (clientDescription != null) {
            description = clientDescription;
            return;
        }
        switch (topology) {
            case SENTINEL:
                description = "Redis Sentinel master '" + masterName + "' via " + nodeList() + db + tlsNote;
                break;
            case CLUSTER:
                description = "Redis Cluster via " + nodeList() + tlsNote;
                break;
            default:
                description = "Redis at " + address() + db + tlsNote;
        }
    }

    private static Node node(String hostPort, int defaultPort, LockUri uri) {
        int colon = hostPort.lastIndexOf(':');
        if (colon > 0 && hostPort.indexOf(']') < colon) {
            int port = Integer.parseInt(hostPort.substring(colon + 1));
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port out of range 1..65535: " + port + " in lock URI: " + uri);
            }
            return new Node(stripBrackets(hostPort.substring(0, colon)), port);
        }
        return new Node(stripBrackets(hostPort), defaultPort);
    }

    private String nodeList() {
        return nodes.stream().map(Node::toString).collect(Collectors.joining(","));
    }

    /**
     * @param uri a {@code redis://} or {@code rediss://} URI
     * @return the settings
     * @throws IllegalArgumentException if a value is malformed or out of range; the message masks credentials
     */
    public static RedisSettings parse(LockUri uri) {
        return new RedisSettings(uri, null);
    }

    /**
     * The settings of a backend on a client the application made and configured (its address, credentials, TLS
     * and connect timeout are the client's): the lock parameters only ({@code leaseTime}, {@code socketTimeout}
     * for the backend's own connections, {@code keyPrefix}, {@code retryInitial}, ...), in URI query form.
     *
     * @param cluster     whether the client is a cluster client
     * @param parameters  {@code name=value&...}, or empty; the engine's ({@code failFast}) are left out, for openOn
     * @param description what the client is connected to, for messages; never credentials
     * @return the settings; {@link #host()} and {@link #nodes()} name no real server
     * @throws IllegalArgumentException if a parameter is unknown, malformed, out of range, or one of the
     *                                  client's own (TLS, Sentinel)
     */
    public static RedisSettings ofClient(boolean cluster, String parameters, String description) {
        java.util.Objects.requireNonNull(parameters, "parameters");
        java.util.Objects.requireNonNull(description, "description");
        String query = LockServices.providerParameters(parameters); // the engine's (failFast) are openOn's
        return new RedisSettings(LockUri.parse((cluster ? "redis-cluster" : "redis") + "://application-client"
                + (query.isEmpty() ? "" : "?" + query)), description);
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** @return {@code host:port} of the first node (the instance, the first sentinel or seed), for messages */
    public String address() {
        return nodes.get(0).toString();
    }

    public Topology topology() {
        return topology;
    }

    /** @return the instance, the sentinels, or the cluster's seed nodes, in URI order */
    public List<Node> nodes() {
        return nodes;
    }

    /** @return the master name the sentinels monitor, or null unless {@link Topology#SENTINEL} */
    public String masterName() {
        return masterName;
    }

    /** @return the ACL user for the sentinels, or null */
    public String sentinelUser() {
        return sentinelUser;
    }

    /** @return the password for the sentinels, or null; never put it in a message */
    public String sentinelPassword() {
        return sentinelPassword;
    }

    /** @return the TLS options, or null without TLS */
    public Tls tls() {
        return tls;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int database() {
        return database;
    }

    /** @return the ACL user, or null */
    public String user() {
        return user;
    }

    /** @return the password, or null; never put it in a message */
    public String password() {
        return password;
    }

    public boolean ssl() {
        return ssl;
    }

    public Duration leaseTime() {
        return leaseTime;
    }

    /** @return how often the watchdog renews: a third of the lease time */
    public Duration renewInterval() {
        return leaseTime.dividedBy(3);
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration socketTimeout() {
        return socketTimeout;
    }

    /**
     * @return how long after a confirmed renewal (or the acquisition) was sent the lease counts as confirmed; past
     *         it, with no newer confirmation, the lease is {@code UNCERTAIN}. Above the renewal interval, at most
     *         the lease time; half the lease time by default.
     */
    public Duration confirmThreshold() {
        return confirmThreshold;
    }

    /**
     * @return the margin for clock drift between this host and the server taken off the lease time for
     *         {@code validUntil}: 1% of the lease time plus 2 ms, as in the Redlock analysis
     */
    public Duration driftMargin() {
        return driftMargin(leaseTime);
    }

    /**
     * @param span a time the server counts on its clock: the lease time, or an acquisition's own lease time
     * @return the margin for clock drift taken off it: 1% plus 2 ms
     */
    public static Duration driftMargin(Duration span) {
        return span.dividedBy(100).plusMillis(2);
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public Duration retryInitial() {
        return retryInitial;
    }

    public Duration retryMax() {
        return retryMax;
    }

    public int poolSize() {
        return poolSize;
    }

    /** @return what the backend is connected to, without credentials */
    @Override
    public String toString() {
        return description;
    }
}
