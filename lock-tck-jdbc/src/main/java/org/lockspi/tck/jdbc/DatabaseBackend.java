package org.lockspi.tck.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.Ports;

/**
 * A real database server for the kit, started from a Maven artifact on a free port of 127.0.0.1, with the
 * server-side operations the contracts need, done in SQL on the tables of the {@code jdbc} provider (lock-spi-jdbc's
 * schema, default prefix {@code lockspi_}), behind the provider's back:
 *
 * <ul>
 *   <li>{@link #residue(String)}: the lock's live holder and entries, each line starting with the key the provider
 *       stored; rows whose time ran out by the database's clock count for nothing, as for the provider (they are
 *       garbage that the next acquisition of the lock, or a client's upkeep, deletes).</li>
 *   <li>{@link #forceLoss(String)}: deletes the holders' rows (the exclusive holder's column, the readers' and
 *       permits' entries), as a database that lost them would; waiters keep their places.</li>
 *   <li>{@link #restart()}: {@code SIGKILL} of the server's processes (no shutdown, no last write), then a start on
 *       the same port and data, with crash recovery; {@link #stopServer()} and {@link #startServer()} are its two
 *       halves.</li>
 *   <li>{@link #removeEmptyState(String)}: deletes the lock's row if nothing holds or waits, as a reaper would.</li>
 * </ul>
 * Capabilities: INSPECT, FORCE_LOSS, RESTART, EMPTY_STATE_REMOVAL, OTHER_PROCESSES, PARTITION, and COUNTERS_ABOVE_32_BITS: the
 * fixture creates the token sequence ({@code lockspi_token}) starting at 2^32 + 1 before any client runs.
 * No WAKEUP_REGISTRATIONS (a database has no watches), no RESTART_WITHOUT_DATA (a database that loses its committed rows
 * loses its locks and its token sequence: no lock on it is safe, unlike Redis without persistence, where the
 * provider's clock floor keeps tokens growing).
 */
public abstract class DatabaseBackend implements TckBackend {
    /** The host every server listens on. */
    protected static final String HOST = "127.0.0.1";
    /** The first fencing token the fixture's sequence gives: above 2^32. */
    public static final long FIRST_TOKEN = COUNTER_FLOOR + 1;

    private final String scheme;
    private final String database;
    /** guarded by this */
    private boolean running;
    private boolean closed;

    /**
     * @param scheme   the provider's URI scheme, e.g. {@code jdbc+postgresql}
     * @param database the URI path after the port, e.g. {@code /tck}
     */
    protected DatabaseBackend(String scheme, String database) {
        this.scheme = scheme;
        this.database = database;
    }

    /** @return the port the server listens on */
    public abstract int port();

    /** @return the driver URL of the database, for plain JDBC clients (a DataSource of a test) */
    public abstract String jdbcUrl();

    /** @return the user clients connect as */
    public abstract String user();

    /** @return the user's password, {@code ""} for none */
    public String password() {
        return "";
    }

    /** @return the SQL expression for the database's clock in ms since the epoch */
    protected abstract String nowMillis();

    /** @return the statement that creates the token sequence starting at {@link #FIRST_TOKEN} */
    protected abstract String createHighSequence();

    /** Kills every process of the server with SIGKILL and waits until they are gone; the data stays. */
    protected abstract void killServer();

    /** Starts the server on the same port and data, returning once it serves. */
    protected abstract void launchServer();

    /** Stops the server for good and deletes its data. */
    protected abstract void destroyServer();

    /** Called by a subclass once its server first serves: creates the token sequence above 2^32. */
    protected final void prepare() {
        synchronized (this) {
            running = true;
        }
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(createHighSequence());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the token sequence on " + description(), e);
        }
    }

    @Override
    public String scheme() {
        return scheme;
    }

    @Override
    public String uri() {
        String password = password();
        return scheme + "://" + user() + (password.isEmpty() ? "" : ":" + password) + "@" + HOST + ":" + port()
                + database;
    }

    @Override
    public String unreachableUri() {
        return scheme + "://" + user() + "@" + HOST + ":" + Ports.freeLoopbackPort() + database;
    }

    @Override
    public Set<Capability> capabilities() {
        return Collections.unmodifiableSet(EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART,
                Capability.EMPTY_STATE_REMOVAL, Capability.OTHER_PROCESSES, Capability.PARTITION,
                Capability.COUNTERS_ABOVE_32_BITS, Capability.ENDS_SILENT_SESSIONS));
    }

    /**
     * @return a new plain connection to the database (autocommit on), for a test that looks behind the provider
     * @throws SQLException if the server does not answer
     */
    public Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        return DriverManager.getConnection(jdbcUrl(), p);
    }

    /**
     * @param key a lock's key
     * @return its id in the provider's tables: the base64url SHA-256 of the key
     */
    public static String lockId(String key) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public List<String> residue(String lockName) {
        String id = lockId(lockName);
        List<String> lines = new ArrayList<>();
        try (Connection c = connect()) {
            String stored = null;
            try (PreparedStatement s = c.prepareStatement("SELECT lock_name, owner, kind, expires_ms - " + nowMillis()
                    + " FROM lockspi_lock WHERE lock_id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        stored = r.getString(1);
                        String owner = r.getString(2);
                        String kind = r.getString(3);
                        long left = r.getLong(4);
                        if (owner != null && !r.wasNull() && left > 0) {
                            lines.add(stored + " holder " + kind + " " + owner);
                        }
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT entry_id, kind, token, expires_ms - " + nowMillis()
                    + " FROM lockspi_entry WHERE lock_id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        String entry = r.getString(1);
                        String kind = r.getString(2);
                        r.getLong(3);
                        boolean holds = !r.wasNull();
                        if (r.getLong(4) > 0) {
                            lines.add((stored == null ? "(no lock row!) " + lockName : stored) + " entry " + kind
                                    + " " + entry + (holds ? " holds" : " waits"));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            if (isMissingTable(e)) {
                return List.of(); // no client created the schema yet: nothing is held
            }
            throw new IllegalStateException("cannot read the rows of '" + lockName + "' on " + description(), e);
        }
        Collections.sort(lines);
        return lines;
    }

    private static boolean isMissingTable(SQLException e) {
        String state = String.valueOf(e.getSQLState());
        return state.equals("42P01") || state.equals("42S02") || state.equals("42102") || e.getErrorCode() == 1146;
    }

    @Override
    public void forceLoss(String lockName) {
        String id = lockId(lockName);
        inTransaction(c -> {
            if (!lockRow(c, id)) {
                return;
            }
            update(c, "DELETE FROM lockspi_entry WHERE lock_id = ? AND token IS NOT NULL", id);
            int left = countEntries(c, id);
            if (left == 0) {
                update(c, "DELETE FROM lockspi_lock WHERE lock_id = ?", id);
            } else {
                try (PreparedStatement s = c.prepareStatement("UPDATE lockspi_lock SET owner = NULL, kind = NULL, "
                        + "token = NULL, granted_ms = NULL, expires_ms = NULL, entries = ? WHERE lock_id = ?")) {
                    s.setInt(1, left);
                    s.setString(2, id);
                    s.executeUpdate();
                }
            }
        }, "force the loss of '" + lockName + "'");
    }

    @Override
    public void removeEmptyState(String lockName) {
        String id = lockId(lockName);
        inTransaction(c -> {
            if (!lockRow(c, id)) {
                return;
            }
            boolean held;
            try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM lockspi_lock WHERE lock_id = ? AND "
                    + "owner IS NOT NULL AND expires_ms > " + nowMillis())) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    held = r.getInt(1) > 0;
                }
            }
            if (!held && countEntries(c, id) == 0) {
                update(c, "DELETE FROM lockspi_lock WHERE lock_id = ?", id);
            }
        }, "remove the empty row of '" + lockName + "'");
    }

    @Override
    public int wakeupRegistrations(String lockName) {
        throw new UnsupportedOperationException("a database has no watches; capability WAKEUP_REGISTRATIONS: " + description());
    }

    @Override
    public synchronized void restart() {
        checkOpen();
        stopServer();
        startServer();
    }

    @Override
    public synchronized void stopServer() {
        checkOpen();
        if (running) {
            killServer();
            running = false;
        }
    }

    @Override
    public synchronized void startServer() {
        checkOpen();
        if (!running) {
            launchServer();
            running = true;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        running = false;
        destroyServer();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("backend is closed: " + description());
        }
    }

    @Override
    public String toString() {
        return description();
    }

    private interface Work {
        void run(Connection c) throws SQLException;
    }

    private void inTransaction(Work work, String what) {
        try (Connection c = connect()) {
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            c.setAutoCommit(false);
            try {
                work.run(c);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            if (isMissingTable(e)) {
                return;
            }
            throw new IllegalStateException("cannot " + what + " on " + description(), e);
        }
    }

    private static boolean lockRow(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT lock_id FROM lockspi_lock WHERE lock_id = ? FOR UPDATE")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    private int countEntries(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM lockspi_entry WHERE lock_id = ? AND "
                + "expires_ms > " + nowMillis())) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    private static void update(Connection c, String statement, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(statement)) {
            s.setString(1, id);
            s.executeUpdate();
        }
    }
}
