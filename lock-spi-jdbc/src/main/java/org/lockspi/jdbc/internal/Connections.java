package org.lockspi.jdbc.internal;

import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Where the backend's connections come from: the provider's own pool (the URI form) or an application's
 * {@code DataSource}. A connection that failed as a connection (the server restarted, the socket broke) is
 * discarded, so that the pool does not hand it out again, and the call is tried once more on another one, unless
 * it timed out (a server that does not answer is not asked twice).
 */
public final class Connections implements AutoCloseable {

    /** A unit of work on one borrowed connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Opens a connection of its own, outside any pool. */
    @FunctionalInterface
    interface Opener {
        Connection open() throws SQLException;
    }

    private final DataSource dataSource;
    private final Consumer<Connection> evict;
    private final AutoCloseable owned;
    private final Opener dedicated;
    private volatile Runnable unreachable = () -> { };

    /**
     * @param dataSource where connections come from
     * @param evict      removes a broken connection from the pool, or null to abort it
     * @param owned      closed by {@link #close()} (the provider's own pool), or null for an application's
     * @param dedicated  opens the long-lived connections of the keeper and the listener: for the provider's own
     *                   pool straight from the driver, so that a reconnection after an outage waits for no pool's
     *                   back-off; for an application's DataSource, from it
     */
    Connections(DataSource dataSource, Consumer<Connection> evict, AutoCloseable owned, Opener dedicated) {
        this.dataSource = dataSource;
        this.evict = evict;
        this.owned = owned;
        this.dedicated = dedicated;
    }

    /**
     * @param unreachable told (on any thread, never under a lock of this class) when a connection or a connect
     *                    failed as a connection: the server may be down
     */
    void whenUnreachable(Runnable unreachable) {
        this.unreachable = unreachable;
    }

    /** A connection or a connect failed as a connection: tells the backend at once. */
    void unreachable() {
        unreachable.run();
    }

    /** @return a connection kept for long (the keeper's, the listener's), autocommit on; {@link #drop} it */
    Connection dedicated() throws SQLException {
        Connection c = dedicated.open();
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            closeDedicated(c, true);
            throw e;
        }
        return c;
    }

    /**
     * Gives back a {@linkplain #dedicated() dedicated} connection: one straight from the driver is closed; one of an
     * application's pool goes back to it, or is taken out of use if it broke. Never throws.
     *
     * @param c      the connection, or null
     * @param broken whether a failure may have broken it
     */
    void closeDedicated(Connection c, boolean broken) {
        if (c == null) {
            return;
        }
        if (broken && owned == null) {
            discard(c);
            return;
        }
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // broken already
        }
    }

    /** @return a connection, autocommit on; the caller closes or {@linkplain #discard discards} it */
    Connection get() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            discard(c);
            throw e;
        }
        return c;
    }

    /** Takes a connection out of use for good: the pool makes a new one. Never throws. */
    void discard(Connection c) {
        if (c == null) {
            return;
        }
        try {
            if (evict != null) {
                evict.accept(c);
                return;
            }
            c.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            // it is broken already
        }
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // the same
        }
    }

    /**
     * Runs the work on a borrowed connection and returns it; on a broken connection, once more on another.
     *
     * @throws SQLException the work's failure, or the second one
     */
    <T> T call(Work<T> work) throws SQLException {
        for (int attempt = 0; ; attempt++) {
            Connection c = get();
            try {
                T result = work.run(c);
                c.close();
                return result;
            } catch (SQLException e) {
                discardIfBroken(c, e);
                if (attempt > 0 || !broken(e) || timedOut(e)) {
                    throw e;
                }
                if (owned == null) {
                    // an application's pool may wait its own timeout for another connection: the outage is told
                    // first; the provider's own pool tells it when a connect fails (DirectDataSource), so that a
                    // connection a restart broke, replaced at once, suspends nothing
                    unreachable();
                }
            } catch (RuntimeException | Error e) {
                discard(c);
                throw e;
            }
        }
    }

    /**
     * Runs the work once on a connection straight from the driver (the provider's own pool: no pool's wait or
     * back-off, the driver's own error), or on a pooled one of an application's DataSource.
     */
    <T> T callDirect(Work<T> work) throws SQLException {
        if (owned == null) {
            return call(work);
        }
        Connection c = dedicated();
        try {
            return work.run(c);
        } finally {
            closeDedicated(c, false);
        }
    }

    /** Returns the connection to the pool, or discards it if the failure broke it. */
    void discardIfBroken(Connection c, SQLException e) {
        if (broken(e)) {
            discard(c);
            return;
        }
        try {
            c.close();
        } catch (SQLException closing) {
            e.addSuppressed(closing);
        }
    }

    /**
     * @param e a failure
     * @return whether it is a failure of the connection rather than of the statement
     */
    static boolean broken(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLRecoverableException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException) {
                String state = ((SQLException) t).getSQLState();
                // 08: connection exception; 57P01-03: PostgreSQL shutting down; 90067: H2's broken connection
                if (state != null && (state.startsWith("08") || state.startsWith("57P") || state.equals("90067")
                        || state.equals("90117"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @param e a failure
     * @return whether the server did not answer in time (a read or connect timeout)
     */
    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException || t instanceof java.sql.SQLTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Closes the provider's own pool; leaves an application's DataSource open. */
    @Override
    public void close() {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the connection pool failed", e);
            }
        }
    }
}
