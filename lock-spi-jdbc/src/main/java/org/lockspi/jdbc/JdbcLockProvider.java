package org.lockspi.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import javax.sql.DataSource;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.jdbc.internal.Connections;
import org.lockspi.jdbc.internal.JdbcBackend;
import org.lockspi.jdbc.internal.JdbcSettings;
import org.lockspi.jdbc.internal.Pools;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockServices;
import org.lockspi.spi.LockUri;

/**
 * The JDBC provider, {@code jdbc}: locks in a relational database's tables, on plain JDBC, for PostgreSQL, MariaDB
 * and H2. A lock is a row whose lease ends at a time the database's clock decides and which the holder renews
 * while it lives; fencing tokens come from a database sequence, so they keep growing across database restarts;
 * waiters queue in arrival order (FIFO) and are woken by {@code LISTEN/NOTIFY} on PostgreSQL, by a bounded back-off
 * elsewhere.
 *
 * <h2>Two ways to open it</h2>
 * <ul>
 *   <li>By URI, with a HikariCP pool the provider builds (HikariCP on the class path):
 *       {@code jdbc+postgresql://user:password@host:5432/database}, {@code jdbc+mariadb://user:password@host:3306/database},
 *       {@code jdbc+h2://host:9092/<database path>} (an H2 server, {@code jdbc:h2:tcp://...}).</li>
 *   <li>On an application's own {@link DataSource} (its pool, its credentials, its timeouts):
 *       {@link #open(DataSource, String)}; the dialect is read from the connection's metadata.</li>
 * </ul>
 * Parameters (both forms, but {@code connectTimeout}, {@code socketTimeout} and {@code poolSize} only for the URI
 * form, {@code dialect} only for a DataSource):
 * <table>
 *   <caption>parameters</caption>
 *   <tr><th>name</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>leaseTime</td><td>30s</td><td>how long a row holds the lock after its last renewal (1s..24h); renewed
 *       every third of it; a crashed holder's lock is free after it</td></tr>
 *   <tr><td>confirmThreshold</td><td>leaseTime/2</td><td>how long a confirmed renewal counts before the lease
 *       reads {@code UNCERTAIN}</td></tr>
 *   <tr><td>retryInitial, retryMax</td><td>10ms, 500ms</td><td>back-off of a polling waiter; with wake-ups a
 *       waiter polls only every max(retryMax, leaseTime/3), as a safety net</td></tr>
 *   <tr><td>tablePrefix</td><td>{@code lockspi_}</td><td>the names of the tables and the sequence</td></tr>
 *   <tr><td>createSchema</td><td>true</td><td>create the tables and sequence if missing</td></tr>
 *   <tr><td>wakeups</td><td>true</td><td>PostgreSQL: wake waiters by LISTEN/NOTIFY (false: poll)</td></tr>
 *   <tr><td>connectTimeout, socketTimeout, poolSize</td><td>5s, min(2s, leaseTime/3), 8</td><td>URI form: the
 *       driver's connect and read timeouts, and the pool's size (at least 3: the keeper and the listener keep a
 *       connection each)</td></tr>
 *   <tr><td>dialect</td><td>from the metadata</td><td>DataSource form: {@code postgresql}, {@code mariadb} or
 *       {@code h2}</td></tr>
 * </table>
 * An acquisition with a lease time of its own ({@link LockFeature#LEASE_TIME}) gets a row that expires at most that
 * long after its grant, by the database's clock: the grant sets the smaller of it and {@code leaseTime}, and every
 * renewal sets {@code LEAST(now + leaseTime, granted_ms + its lease time)}, so no renewal keeps it past the end.
 *
 * <h2>Revocation</h2>
 * {@link LockFeature#REVOCATION}: a service opened with {@code revocable=true} marks its holders' rows revocable.
 * {@code LockService.revoke} writes who asks into the holder's row (the lock's row, or a reader's or permit's entry)
 * with one conditional statement that matches only the live holder with that token and the mark, and refuses,
 * writing nothing, a holder without it. A renewal skips a row so asked, and the holder's keeper, on the pass that
 * finds it, turns the lease {@code LOST} ("revoked at the request of ..."), tells the listeners, and then frees the
 * rows as a release would, waking the waiters. On PostgreSQL (with {@code wakeups=true}) the request also sends a
 * {@code NOTIFY} that starts that pass at once; elsewhere the next renewal finds it. The bound, from {@code revoke}
 * returning to the holder's {@code LOST}, with the holder connected: {@code leaseTime/3} (the renewal interval) plus
 * one pass, within the kit's {@code leaseSpan/2}; on PostgreSQL the notice's round trip (measured: 0 to 17 ms, the
 * README's "The JDBC provider").
 * A holder cut off from the database does not hear of it and keeps the lock until its row runs out, which no renewal
 * extends any more, or until it is back, when its first renewal finds the request.
 *
 * <p>The README ("The JDBC provider") documents the schema, the guarantees and their limits.
 */
public final class JdbcLockProvider implements LockProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "jdbc";

    /**
     * SURVIVES_RESTART: a lease is a committed row whose end the database's clock decides, so it outlives a
     * restart of the database shorter than the lease time, and the holder renews it once the database is back.
     * Not HERD_FREE: a release names the waiters it grants, but every listening client receives its NOTIFY, and
     * waiters poll every leaseTime/3 as a safety net (on MariaDB and H2 they poll with a back-off).
     */
    static final Set<LockFeature> FEATURES = Collections.unmodifiableSet(EnumSet.of(
            LockFeature.REENTRANT_MUTEX, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE,
            LockFeature.SEMAPHORE, LockFeature.FAIR, LockFeature.FENCING_TOKENS, LockFeature.LEASE_RENEWAL,
            LockFeature.LOST_NOTIFICATION, LockFeature.CRASH_RELEASE, LockFeature.SURVIVES_RESTART,
            LockFeature.INSPECTION, LockFeature.LEASE_TIME, LockFeature.REVOCATION));
    private static final String VERSION = loadVersion();

    /** For {@link java.util.ServiceLoader}; cheap, connects nothing. */
    public JdbcLockProvider() {
    }

    /**
     * Opens a service on an application's own DataSource, as {@code CuratorLockProvider.open(client)} does on an
     * application's Curator client: its pool, credentials and timeouts are used as they are (keep its socket
     * timeout below {@code leaseTime/3}); closing the service frees its locks and leaves the DataSource open.
     * The service keeps one connection of the pool for its renewals while it holds or waits, and on PostgreSQL one
     * more for its wake-ups while it waits.
     *
     * @param dataSource the application's connections
     * @param parameters the provider's parameters, {@code "leaseTime=10s&tablePrefix=app_lock_"}, and the engine's
     *                   ({@code failFast}, {@code revocable}), or {@code ""}
     * @return the open service; close it when done
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if a parameter is unknown, malformed or out of range
     * @throws LockConnectionException  if no connection can be had
     * @throws org.lockspi.LockException if the schema is missing or wrong (the message names the table and the fix)
     */
    public static LockService open(DataSource dataSource, String parameters) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(parameters, "parameters");
        String source = "DataSource " + dataSource.getClass().getName();
        JdbcSettings settings = JdbcSettings.forDataSource(LockServices.providerParameters(parameters),
                () -> detect(dataSource, source), source);
        JdbcLockProvider provider = new JdbcLockProvider();
        return LockServices.create(provider, "jdbc on " + settings, parameters, events ->
                JdbcBackend.open(settings, Pools.forDataSource(dataSource), events));
    }

    private static String detect(DataSource dataSource, String source) {
        try (Connection c = dataSource.getConnection()) {
            return c.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new LockConnectionException("cannot read the database product of " + source + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public Set<String> schemes() {
        return JdbcSettings.SCHEMES.keySet();
    }

    @Override
    public Set<LockFeature> features() {
        return FEATURES;
    }

    @Override
    public Set<String> parameters() {
        return JdbcSettings.PARAMETERS;
    }

    /**
     * Builds a pool for the URI and checks that the database answers (and has the schema) within
     * {@code connectTimeout}.
     *
     * @throws IllegalArgumentException            if a parameter is malformed or out of range, or the URI names
     *                                             no database
     * @throws LockConnectionException             if the database does not answer; the message names host:port
     * @throws org.lockspi.LockException           if HikariCP is missing, or the schema is missing or wrong
     */
    @Override
    public LockBackend open(LockUri uri, BackendEvents events) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(events, "events");
        JdbcSettings settings = JdbcSettings.parse(uri);
        Connections connections = Pools.forUri(settings);
        return JdbcBackend.open(settings, connections, events);
    }

    private static String loadVersion() {
        try (InputStream in = JdbcLockProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }

    @Override
    public String toString() {
        return NAME + " " + VERSION;
    }
}
