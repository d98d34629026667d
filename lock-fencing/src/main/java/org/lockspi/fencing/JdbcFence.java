package org.lockspi.fencing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A fence in a SQL database: a table of the highest fencing token accepted per resource, advanced by a conditional
 * update in the transaction of the guarded write, so that the write commits only with a token at least as high as
 * every one committed before.
 *
 * <pre>{@code
 * JdbcFence fence = JdbcFence.on("lockspi_fence");           // the table: resource VARCHAR(255) PK, token BIGINT
 * try (Connection c = dataSource.getConnection()) {
 *     c.setAutoCommit(false);
 *     fence.advance(c, "stock/1", lease.fencingToken());      // StaleTokenException: roll back, do not write
 *     try (PreparedStatement p = c.prepareStatement("UPDATE stock SET items = ? WHERE id = 1")) { ... }
 *     c.commit();
 * }
 * }</pre>
 *
 * <p><b>How it holds.</b> {@link #tryAdvance} runs {@code UPDATE <table> SET token = ? WHERE resource = ? AND
 * token <= ?}. The update locks the resource's row until the transaction ends, so writers of one resource pass
 * one at a time, and a writer that waited for the lock is compared with the token committed before it (PostgreSQL,
 * MySQL/MariaDB InnoDB and H2 re-read the row they waited for). No row updated: the row says a higher token was
 * accepted (stale), or there is no row yet, which is inserted (in a savepoint, so that a duplicate key from a
 * concurrent first writer does not end the transaction; the update is then tried again). The table and column
 * names and the statements are plain SQL: {@code CREATE TABLE IF NOT EXISTS}, {@code VARCHAR(255)},
 * {@code BIGINT}, {@code UPDATE ... WHERE}, {@code INSERT}, savepoints; they run unchanged on PostgreSQL,
 * MySQL/MariaDB and H2.
 *
 * <p><b>Use.</b> Call it on the connection, and in the transaction, of the write it guards (auto-commit off), before
 * the write; roll back on {@link StaleTokenException}. With auto-commit on, the fence still orders the tokens but
 * the write is not part of the same step. Tokens of different locks must not share a resource name. Instances are
 * immutable and thread-safe; connections are the caller's.
 */
public final class JdbcFence {
    /** The table name {@link #withDefaultTable()} uses: {@value}. */
    public static final String DEFAULT_TABLE = "lockspi_fence";
    /** The longest resource name the table holds, in characters: {@value}. */
    public static final int MAX_RESOURCE_LENGTH = 255;

    private static final Pattern IDENTIFIER = Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final String table;
    private final String update;
    private final String select;
    private final String insert;

    private JdbcFence(String table) {
        this.table = table;
        this.update = "UPDATE " + table + " SET token = ? WHERE resource = ? AND token <= ?";
        this.select = "SELECT token FROM " + table + " WHERE resource = ?";
        this.insert = "INSERT INTO " + table + " (resource, token) VALUES (?, ?)";
    }

    /**
     * @param table the table's name, optionally with a schema: {@code fences}, {@code shop.fences}; letters, digits
     *              and {@code _}, not starting with a digit, at most 63 characters a part (it is put into SQL as it
     *              is, so it is checked)
     * @return a fence on that table
     * @throws NullPointerException     if {@code table} is null
     * @throws IllegalArgumentException if {@code table} is not such a name
     */
    public static JdbcFence on(String table) {
        Objects.requireNonNull(table, "table is null");
        if (!IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("not a table name of letters, digits and _ (optionally schema.table, "
                    + "at most 63 characters each): '" + table + "'");
        }
        return new JdbcFence(table);
    }

    /** @return a fence on the table {@value #DEFAULT_TABLE} */
    public static JdbcFence withDefaultTable() {
        return on(DEFAULT_TABLE);
    }

    /** @return the table's name */
    public String table() {
        return table;
    }

    /** @return the statement that creates the table if it is not there, for a migration tool of one's own */
    public String createTableSql() {
        return "CREATE TABLE IF NOT EXISTS " + table
                + " (resource VARCHAR(" + MAX_RESOURCE_LENGTH + ") NOT NULL PRIMARY KEY, token BIGINT NOT NULL)";
    }

    /**
     * Creates the table if it is not there.
     *
     * @param connection a connection; its transaction is left as the driver leaves it after DDL
     * @throws SQLException as the driver throws it
     */
    public void createTable(Connection connection) throws SQLException {
        try (Statement s = Objects.requireNonNull(connection, "connection is null").createStatement()) {
            s.execute(createTableSql());
        }
    }

    /**
     * Accepts {@code token} for {@code resource} if no higher one was committed (or written in this transaction),
     * and records it in the connection's transaction.
     *
     * @param connection the connection of the guarded write, in its transaction
     * @param resource   what is written to, at most {@value #MAX_RESOURCE_LENGTH} characters
     * @param token      the writer's fencing token
     * @return true if accepted (the row now holds {@code token}), false if stale
     * @throws SQLException             as the driver throws it (a lock wait timeout, a lost connection)
     * @throws NullPointerException     if {@code connection} or {@code resource} is null
     * @throws IllegalArgumentException if {@code resource} is empty or too long
     */
    public boolean tryAdvance(Connection connection, String resource, long token) throws SQLException {
        Objects.requireNonNull(connection, "connection is null");
        checkResource(resource);
        for (int attempt = 0; ; attempt++) {
            try (PreparedStatement p = connection.prepareStatement(update)) {
                p.setLong(1, token);
                p.setString(2, resource);
                p.setLong(3, token);
                if (p.executeUpdate() > 0) {
                    return true;
                }
            }
            if (read(connection, resource).isPresent()) {
                return false; // a higher token holds the row
            }
            if (insertFirst(connection, resource, token)) {
                return true;
            }
            if (attempt > 0) {
                throw new SQLException("fence row of '" + resource + "' in " + table + " neither updated nor inserted "
                        + "twice: is the table's primary key on resource?");
            }
        }
    }

    /** Inserts the resource's first row; false if a concurrent first writer inserted it (the update goes again). */
    private boolean insertFirst(Connection connection, String resource, long token) throws SQLException {
        Savepoint savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
        try (PreparedStatement p = connection.prepareStatement(insert)) {
            p.setString(1, resource);
            p.setLong(2, token);
            p.executeUpdate();
        } catch (SQLException e) {
            String state = e.getSQLState();
            if (state == null || !state.startsWith("23")) { // 23xxx: integrity constraint (a duplicate key)
                throw e;
            }
            if (savepoint != null) {
                connection.rollback(savepoint);
            }
            return false;
        }
        if (savepoint != null) {
            connection.releaseSavepoint(savepoint);
        }
        return true;
    }

    /**
     * {@link #tryAdvance} that throws when the token is stale.
     *
     * @param connection the connection of the guarded write, in its transaction
     * @param resource   what is written to
     * @param token      the writer's fencing token
     * @throws StaleTokenException      if a higher token was accepted; roll the transaction back
     * @throws SQLException             as {@link #tryAdvance}
     * @throws NullPointerException     as {@link #tryAdvance}
     * @throws IllegalArgumentException as {@link #tryAdvance}
     */
    public void advance(Connection connection, String resource, long token) throws SQLException {
        if (!tryAdvance(connection, resource, token)) {
            throw new StaleTokenException(resource, token, read(connection, resource).orElse(token));
        }
    }

    /**
     * @param connection a connection
     * @param resource   a resource
     * @return the highest token recorded for it, as the connection's transaction sees it, or empty if none
     * @throws SQLException             as the driver throws it
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code resource} is empty or too long
     */
    public OptionalLong highest(Connection connection, String resource) throws SQLException {
        Objects.requireNonNull(connection, "connection is null");
        return read(connection, checkResource(resource));
    }

    private OptionalLong read(Connection connection, String resource) throws SQLException {
        try (PreparedStatement p = connection.prepareStatement(select)) {
            p.setString(1, resource);
            try (ResultSet r = p.executeQuery()) {
                return r.next() ? OptionalLong.of(r.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    private static String checkResource(String resource) {
        Fence.checkResource(resource);
        if (resource.length() > MAX_RESOURCE_LENGTH) {
            throw new IllegalArgumentException("resource longer than " + MAX_RESOURCE_LENGTH + " characters ("
                    + resource.length() + "): '" + resource.substring(0, 64) + "...'");
        }
        return resource;
    }

    @Override
    public String toString() {
        return "JdbcFence[" + table + "]";
    }
}
