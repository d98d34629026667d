package org.lockspi.jdbc.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.lockspi.spi.LockUri;

/**
 * The options of one JDBC backend, parsed and range-checked once. Immutable. Holds the password; {@link #toString()}
 * never shows it.
 *
 * <p>Two sources: a lock URI ({@code jdbc+postgresql://user:password@host:5432/db?leaseTime=10s}), for which the
 * provider builds its own pool, or the parameters given beside an application's own {@code DataSource}
 * ({@code "leaseTime=10s"}), whose connection settings are the application's.
 */
public final class JdbcSettings {
    /** The URI schemes and the dialect of each. */
    public static final Map<String, String> SCHEMES = Map.of("jdbc+postgresql", "postgresql",
            "jdbc+mariadb", "mariadb", "jdbc+h2", "h2");

    /** The parameters every form accepts. */
    public static final Set<String> PARAMETERS = Set.of("leaseTime", "connectTimeout", "socketTimeout",
            "confirmThreshold", "retryInitial", "retryMax", "poolSize", "tablePrefix", "createSchema", "wakeups",
            "dialect");

    static final Duration DEFAULT_LEASE_TIME = Duration.ofSeconds(30);
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(2);
    static final Duration DEFAULT_RETRY_INITIAL = Duration.ofMillis(10);
    static final Duration DEFAULT_RETRY_MAX = Duration.ofMillis(500);
    static final int DEFAULT_POOL_SIZE = 8;
    static final String DEFAULT_TABLE_PREFIX = "lockspi_";

    private final Dialect dialect;
    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final String address;
    private final Duration leaseTime;
    private final Duration connectTimeout;
    private final Duration socketTimeout;
    private final Duration confirmThreshold;
    private final Duration retryInitial;
    private final Duration retryMax;
    private final int poolSize;
    private final String tablePrefix;
    private final boolean createSchema;
    private final boolean wakeups;
    private final String description;

    private JdbcSettings(LockUri uri, Dialect dialect, String jdbcUrl, String address, String description) {
        for (String name : uri.parameters().keySet()) {
            if (!PARAMETERS.contains(name) && !name.equals("provider")) {
                throw new IllegalArgumentException("unknown parameter '" + name + "' for the JDBC provider (it "
                        + "accepts " + new TreeSet<>(PARAMETERS) + "): " + uri);
            }
        }
        this.dialect = dialect;
        this.jdbcUrl = jdbcUrl;
        this.user = uri.user().orElse(null);
        this.password = uri.password().orElse(null);
        this.address = address;
        this.description = description;
        leaseTime = uri.duration("leaseTime", DEFAULT_LEASE_TIME, Duration.ofSeconds(1), Duration.ofHours(24));
        connectTimeout = uri.duration("connectTimeout", DEFAULT_CONNECT_TIMEOUT, Duration.ofMillis(250),
                Duration.ofMinutes(10));
        Duration third = leaseTime.dividedBy(3);
        Duration socketDefault = DEFAULT_SOCKET_TIMEOUT.compareTo(third) <= 0 ? DEFAULT_SOCKET_TIMEOUT : third;
        socketTimeout = uri.duration("socketTimeout", socketDefault, Duration.ofSeconds(1), Duration.ofMinutes(10));
        if (socketTimeout.compareTo(third) > 0) {
            throw new IllegalArgumentException("socketTimeout " + socketTimeout + " is above leaseTime/3 = " + third
                    + ": a renewal must fail early enough to be tried again before the lease ends: " + uri);
        }
        confirmThreshold = uri.duration("confirmThreshold", leaseTime.dividedBy(2), third.plusMillis(1), leaseTime);
        retryInitial = uri.duration("retryInitial", DEFAULT_RETRY_INITIAL, Duration.ofMillis(1),
                Duration.ofSeconds(10));
        retryMax = uri.duration("retryMax", DEFAULT_RETRY_MAX.compareTo(retryInitial) >= 0 ? DEFAULT_RETRY_MAX
                : retryInitial, retryInitial, Duration.ofMinutes(1));
        poolSize = uri.integer("poolSize", DEFAULT_POOL_SIZE, 3, 1024);
        tablePrefix = uri.parameter("tablePrefix").orElse(DEFAULT_TABLE_PREFIX);
        if (!tablePrefix.matches("[a-z][a-z0-9_]{0,39}")) {
            throw new IllegalArgumentException("tablePrefix must be 1 to 40 lower-case letters, digits or '_', "
                    + "starting with a letter: '" + tablePrefix + "' in " + uri);
        }
        createSchema = uri.bool("createSchema", true);
        wakeups = uri.bool("wakeups", true);
    }

    /**
     * Parses a lock URI: {@code jdbc+postgresql://[user[:password]@]host[:port]/database[?...]},
     * {@code jdbc+mariadb://}, {@code jdbc+h2://host[:port]/<path>}
     * (an H2 server: {@code jdbc:h2:tcp://host:port/<path>}).
     *
     * @param uri the parsed URI
     * @return the settings
     * @throws IllegalArgumentException if the scheme is not served, there is not exactly one host, a parameter is
     *                                  unknown, malformed or out of range
     */
    public static JdbcSettings parse(LockUri uri) {
        Objects.requireNonNull(uri, "uri");
        String dialectName = SCHEMES.get(uri.scheme());
        if (dialectName == null) {
            throw new IllegalArgumentException("the JDBC provider serves the schemes " + new TreeSet<>(SCHEMES.keySet())
                    + ", not '" + uri.scheme() + "': " + uri);
        }
        if (uri.hosts().size() != 1) {
            throw new IllegalArgumentException("a " + uri.scheme() + ":// URI names one database server, got "
                    + uri.hosts().size() + " hosts: " + uri);
        }
        if (uri.parameter("dialect").isPresent()) {
            throw new IllegalArgumentException("the parameter 'dialect' is for an application's own DataSource; a "
                    + "URI's scheme names the database: " + uri);
        }
        if (uri.path().isEmpty()) {
            throw new IllegalArgumentException("a " + uri.scheme() + ":// URI names the database in its path ("
                    + uri.scheme() + "://host:port/database): " + uri);
        }
        Dialect dialect = Dialect.ALL.get(dialectName);
        String host = uri.hosts().get(0);
        return new JdbcSettings(uri, dialect, dialect.jdbcUrl(host, uri.path()), host, uri.toString());
    }

    /**
     * Parses the parameters given beside an application's own DataSource.
     *
     * @param parameters {@code key=value&...}, or {@code ""}
     * @param product    the product name of the DataSource's database (asked unless {@code dialect} is given)
     * @param source     what the DataSource is, for messages
     * @return the settings
     * @throws IllegalArgumentException if a parameter is unknown, malformed or out of range, or no dialect serves
     *                                  the database
     */
    public static JdbcSettings forDataSource(String parameters, java.util.function.Supplier<String> product,
                                             String source) {
        Objects.requireNonNull(parameters, "parameters");
        LockUri uri = LockUri.parse("jdbc://datasource" + (parameters.isEmpty() ? "" : "?" + parameters));
        for (String name : new String[] {"poolSize", "connectTimeout", "socketTimeout"}) {
            if (uri.parameter(name).isPresent()) {
                throw new IllegalArgumentException("the parameter '" + name + "' is for the URI form; an "
                        + "application's own DataSource has its own connection settings: " + parameters);
            }
        }
        Dialect dialect;
        String named = uri.parameter("dialect").orElse(null);
        if (named != null) {
            dialect = Dialect.ALL.get(named);
            if (dialect == null) {
                throw new IllegalArgumentException("unknown dialect '" + named + "' (known: "
                        + new TreeSet<>(Dialect.names()) + "): " + parameters);
            }
        } else {
            dialect = Dialect.forProduct(product.get());
        }
        return new JdbcSettings(uri, dialect, null, source, source);
    }

    Dialect dialect() {
        return dialect;
    }

    /** @return the driver URL (URI form), or null for an application's DataSource */
    String jdbcUrl() {
        return jdbcUrl;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    /** @return {@code host:port} of the URI form, or the DataSource's description */
    String address() {
        return address;
    }

    Duration leaseTime() {
        return leaseTime;
    }

    Duration connectTimeout() {
        return connectTimeout;
    }

    Duration socketTimeout() {
        return socketTimeout;
    }

    Duration confirmThreshold() {
        return confirmThreshold;
    }

    Duration retryInitial() {
        return retryInitial;
    }

    Duration retryMax() {
        return retryMax;
    }

    int poolSize() {
        return poolSize;
    }

    String tablePrefix() {
        return tablePrefix;
    }

    boolean createSchema() {
        return createSchema;
    }

    /** @return whether waiters are woken by the database where it can (PostgreSQL LISTEN/NOTIFY) */
    boolean wakeups() {
        return wakeups && dialect.hasWakeups();
    }

    /** @return how often held leases are renewed and waiters' entries refreshed: a third of the lease time */
    Duration renewInterval() {
        return leaseTime.dividedBy(3);
    }

    /** @return what {@code validUntilNanos()} keeps back from the lease for clock drift: 1 % + 2 ms */
    Duration driftMargin() {
        return driftMargin(leaseTime);
    }

    /**
     * @param span a time the database counts on its clock: the lease time, or an acquisition's own lease time
     * @return the margin for clock drift taken off it: 1 % + 2 ms
     */
    static Duration driftMargin(Duration span) {
        return span.dividedBy(100).plusMillis(2);
    }

    /** @return how long a transaction waits for a lock's row: the socket timeout, at most 2 s */
    long lockWaitMillis() {
        return Math.min(socketTimeout.toMillis(), 2000);
    }

    /** @return the driver properties of the URI form: credentials and the timeouts */
    Map<String, String> driverProperties() {
        Map<String, String> p = new LinkedHashMap<>(dialect.timeoutProperties(connectTimeout.toMillis(),
                socketTimeout.toMillis()));
        if (user != null) {
            p.put("user", user);
        }
        if (password != null) {
            p.put("password", password);
        }
        return p;
    }

    @Override
    public String toString() {
        return description;
    }
}
