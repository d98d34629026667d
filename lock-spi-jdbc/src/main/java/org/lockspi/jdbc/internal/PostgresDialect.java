package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * PostgreSQL 9.6 and newer (the schema file's {@code ADD COLUMN IF NOT EXISTS}): {@code ON CONFLICT},
 * {@code RETURNING}, {@code SET LOCAL lock_timeout}, LISTEN/NOTIFY.
 */
final class PostgresDialect extends Dialect {

    @Override
    String name() {
        return "postgresql";
    }

    /**
     * The transaction's start ({@code now()}: the statement's, in autocommit), after the statement was sent, so a
     * lease the statement grants or renews ends no earlier than the client's count of it; {@code date_part} is a
     * double, cheaper than {@code EXTRACT}'s numeric.
     */
    @Override
    String nowMillis() {
        return "(date_part('epoch', now()) * 1000)::BIGINT";
    }

    @Override
    String nextValue(String sequence) {
        return "nextval('" + sequence + "')";
    }

    @Override
    String insertIfAbsent(String lockTable) {
        return "INSERT INTO " + lockTable + " (lock_id, lock_name, entries) VALUES (?, ?, 0) ON CONFLICT (lock_id) "
                + "DO NOTHING";
    }

    @Override
    String insertHolder(String lockTable, String sequence) {
        return "INSERT INTO " + lockTable + " (lock_id, lock_name, owner, kind, revocable, token, granted_ms, "
                + "expires_ms, entries) VALUES (?, ?, ?, ?, ?, " + nextValue(sequence) + ", " + nowMillis() + ", "
                + nowMillis() + " + ?, 0) ON CONFLICT (lock_id) DO NOTHING RETURNING token";
    }

    @Override
    void beginTransaction(Connection connection, long lockWaitMillis) throws SQLException {
        try (Statement s = connection.createStatement()) {
            // a transaction of a client cut off mid-way must not keep the lock's row locked for long either
            s.execute("SET LOCAL lock_timeout = '" + lockWaitMillis + "ms'; SET LOCAL "
                    + "idle_in_transaction_session_timeout = '" + Math.max(1000, 4 * lockWaitMillis) + "ms'");
        }
    }

    @Override
    boolean isLockConflict(SQLException e) {
        String state = e.getSQLState();
        return "55P03".equals(state) || "40P01".equals(state) || "40001".equals(state);
    }

    @Override
    boolean isMissingObject(SQLException e) {
        String state = e.getSQLState();
        return "42P01".equals(state) || "42703".equals(state);
    }

    @Override
    String jdbcUrl(String hostPort, String path) {
        return "jdbc:postgresql://" + hostPort + path;
    }

    @Override
    Map<String, String> timeoutProperties(long connectTimeoutMillis, long socketTimeoutMillis) {
        // pgjdbc counts these in whole seconds
        return Map.of("connectTimeout", Long.toString(seconds(connectTimeoutMillis)),
                "loginTimeout", Long.toString(seconds(connectTimeoutMillis)),
                "socketTimeout", Long.toString(seconds(socketTimeoutMillis)),
                "tcpKeepAlive", "true");
    }

    private static long seconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }

    @Override
    String notifyStatement() {
        return "SELECT pg_notify(?, ?)";
    }

    @Override
    boolean hasWakeups() {
        return true;
    }
}
