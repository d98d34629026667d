package org.lockspi.redis.internal;

import java.time.Duration;
import java.util.Set;
import org.lockspi.spi.LockUri;

/**
 * The options of one Redis backend, parsed and range-checked from a {@link LockUri}. Immutable. Holds the
 * password; {@link #toString()} and {@link #address()} never show it.
 */
public final class RedisSettings {
    /** The parameter names the provider accepts. */
    public static final Set<String> PARAMETERS = Set.of("leaseTime", "connectTimeout", "socketTimeout",
            "keyPrefix", "retryInitial", "retryMax", "poolSize", "confirmThreshold");

    /** Default lease time: long enough to ride out a GC pause or a short network blip, as Redisson's watchdog. */
    public static final Duration DEFAULT_LEASE_TIME = Duration.ofSeconds(30);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(2);
    public static final String DEFAULT_KEY_PREFIX = "lockspi:";
    public static final Duration DEFAULT_RETRY_INITIAL = Duration.ofMillis(10);
    public static final Duration DEFAULT_RETRY_MAX = Duration.ofMillis(250);
    public static final int DEFAULT_POOL_SIZE = 16;
    public static final int DEFAULT_PORT = 6379;

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

    private RedisSettings(LockUri uri) {
        if (uri.hosts().size() != 1) {
            throw new IllegalArgumentException("the Redis baseline serves one Redis instance, got "
                    + uri.hosts().size() + " hosts: " + uri);
        }
        String hostPort = uri.hosts().get(0);
        int colon = hostPort.lastIndexOf(':');
        if (colon > 0 && hostPort.indexOf(']') < colon) {
            host = stripBrackets(hostPort.substring(0, colon));
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } else {
            host = stripBrackets(hostPort);
            port = DEFAULT_PORT;
        }
        String path = uri.path();
        if (path.isEmpty()) {
            database = 0;
        } else {
            String db = path.substring(1);
            if (!db.matches("\\d{1,5}")) {
                throw new IllegalArgumentException("the path of a Redis lock URI is a database number like /0, "
                        + "got '" + path + "': " + uri);
            }
            database = Integer.parseInt(db);
        }
        user = uri.user().orElse(null);
        password = uri.password().orElse(null);
        ssl = uri.scheme().equals("rediss");
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
        description = "Redis at " + address() + (database != 0 ? " db " + database : "") + (ssl ? " (TLS)" : "");
    }

    /**
     * @param uri a {@code redis://} or {@code rediss://} URI
     * @return the settings
     * @throws IllegalArgumentException if a value is malformed or out of range; the message masks credentials
     */
    public static RedisSettings parse(LockUri uri) {
        return new RedisSettings(uri);
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** @return {@code host:port}, for messages */
    public String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
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
        return leaseTime.dividedBy(100).plusMillis(2);
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
