package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What differs between databases, and nothing else: a few SQL expressions and statements, the driver's URL and
 * timeout properties, and how the driver names a duplicate key or a lock timeout. The lock recipe
 * ({@link LockQueue}, {@link JdbcBackend}) is the same for all. One subclass per database, each a page long.
 */
abstract class Dialect {

    /** @return the dialect's name, as in the schema file's name and the {@code dialect} parameter */
    abstract String name();

    /** @return the SQL expression for the database's clock in milliseconds since the epoch, a BIGINT */
    abstract String nowMillis();

    /**
     * @param sequence the sequence's name
     * @return the SQL expression that draws the next value of the sequence
     */
    abstract String nextValue(String sequence);

    /**
     * The statement that inserts a lock's row with no holder (owner NULL, entries 0) unless it exists, without
     * failing when it does: parameters lock_id, lock_name.
     *
     * @param lockTable the table
     * @return the statement
     */
    abstract String insertIfAbsent(String lockTable);

    /**
     * The one statement of the uncontended acquisition: inserts the lock's row with the caller as its exclusive
     * holder, and yields the fencing token as a one-column result; yields no row (or fails with a duplicate key,
     * {@link #isDuplicateKey}) if the lock has a row. Parameters: lock_id, lock_name, owner, kind, revocable (a
     * boolean), lease ms.
     *
     * @param lockTable the table
     * @param sequence  the token sequence
     * @return the statement, run with {@code executeQuery}
     */
    abstract String insertHolder(String lockTable, String sequence);

    /**
     * @param statement a statement that takes a row lock
     * @param lockWaitMillis how long it may wait for the lock
     * @return the statement bounded so that it waits at most about that long, or as it is where the bound is set
     *         by {@link #beginTransaction}
     */
    String boundLockWait(String statement, long lockWaitMillis) {
        return statement;
    }

    /**
     * Called at the start of each transaction of the provider, on its connection (autocommit off).
     *
     * @param connection     the connection
     * @param lockWaitMillis how long a row lock may be waited for
     * @throws SQLException as the driver throws
     */
    void beginTransaction(Connection connection, long lockWaitMillis) throws SQLException {
    }

    /** @return the file of {@code org/lockspi/jdbc/schema/} with the schema's statements */
    String schemaResource() {
        return name() + ".sql";
    }

    /**
     * @param e a failure
     * @return whether it is a duplicate key (a unique constraint)
     */
    boolean isDuplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /**
     * @param e a failure
     * @return whether a row lock was not granted in time or a deadlock was broken: the transaction may run again
     */
    abstract boolean isLockConflict(SQLException e);

    /**
     * @param e a failure
     * @return whether a table or sequence of the schema is missing
     */
    abstract boolean isMissingObject(SQLException e);

    /**
     * The driver URL for a lock URI's hosts and path.
     *
     * @param hostPort {@code host[:port]}
     * @param path     the URI's path, {@code ""} or starting with {@code '/'}
     * @return the JDBC URL
     */
    abstract String jdbcUrl(String hostPort, String path);

    /**
     * @param connectTimeoutMillis the connect timeout
     * @param socketTimeoutMillis  the read timeout of every call
     * @return the driver properties that bound a connection attempt and every call
     */
    abstract Map<String, String> timeoutProperties(long connectTimeoutMillis, long socketTimeoutMillis);

    /** @return whether waiters can be woken by the database ({@link PgListener}) */
    boolean hasWakeups() {
        return false;
    }

    /**
     * @return the statement that wakes the waiters of a lock in other clients (parameters: the channel, and the ids
     *         of the waiters to wake or {@code ""} for all), sent with the transaction's commit; null where the
     *         database has none (waiters poll)
     */
    String notifyStatement() {
        return null;
    }

    /** The dialects by name. */
    static final Map<String, Dialect> ALL = Map.of("postgresql", new PostgresDialect(), "mariadb",
            new MariaDbDialect(), "h2", new H2Dialect());

    /** @return the dialect names */
    static Set<String> names() {
        return ALL.keySet();
    }

    /**
     * @param productName what {@code DatabaseMetaData.getDatabaseProductName()} says
     * @return the dialect for it
     * @throws IllegalArgumentException if no dialect serves it
     */
    static Dialect forProduct(String productName) {
        String p = productName.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return ALL.get("postgresql");
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return ALL.get("mariadb");
        }
        if (p.equals("h2")) {
            return ALL.get("h2");
        }
        throw new IllegalArgumentException("no lockspi dialect for the database '" + productName
                + "' (served: PostgreSQL, MariaDB, H2); name one with the parameter dialect=" + names());
    }

    @Override
    public String toString() {
        return name();
    }
}
