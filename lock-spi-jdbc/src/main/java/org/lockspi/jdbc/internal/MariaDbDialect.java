package org.lockspi.jdbc.internal;

import java.sql.SQLException;
import java.util.Map;

/**
 * MariaDB 10.6 and newer: sequences, {@code INSERT ... RETURNING}, {@code SET STATEMENT} for the lock wait. The
 * clock is {@code UTC_TIMESTAMP}, so no session time zone (nor a daylight-saving change) moves it.
 */
final class MariaDbDialect extends Dialect {

    @Override
    String name() {
        return "mariadb";
    }

    @Override
    String nowMillis() {
        return "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)";
    }

    @Override
    String nextValue(String sequence) {
        return "NEXT VALUE FOR " + sequence;
    }

    @Override
    String insertIfAbsent(String lockTable) {
        return "INSERT IGNORE INTO " + lockTable + " (lock_id, lock_name, entries) VALUES (?, ?, 0)";
    }

    @Override
    String insertHolder(String lockTable, String sequence) {
        return "INSERT IGNORE INTO " + lockTable + " (lock_id, lock_name, owner, kind, revocable, token, "
                + "granted_ms, expires_ms, entries) VALUES (?, ?, ?, ?, ?, " + nextValue(sequence) + ", "
                + nowMillis() + ", " + nowMillis() + " + ?, 0) RETURNING token";
    }

    @Override
    String boundLockWait(String statement, long lockWaitMillis) {
        long seconds = Math.max(1, (lockWaitMillis + 999) / 1000);
        return "SET STATEMENT innodb_lock_wait_timeout = " + seconds + " FOR " + statement;
    }

    @Override
    void beginTransaction(java.sql.Connection connection, long lockWaitMillis) throws SQLException {
        try (java.sql.Statement s = connection.createStatement()) {
            // the next transaction only: no gap locks, and the application's default stays as it is
            s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        }
    }

    @Override
    boolean isDuplicateKey(SQLException e) {
        return e.getErrorCode() == 1062;
    }

    @Override
    boolean isLockConflict(SQLException e) {
        return e.getErrorCode() == 1205 || e.getErrorCode() == 1213 || "40001".equals(e.getSQLState());
    }

    @Override
    boolean isMissingObject(SQLException e) {
        return e.getErrorCode() == 1146 || e.getErrorCode() == 1054 || e.getErrorCode() == 4091;
    }

    @Override
    String jdbcUrl(String hostPort, String path) {
        return "jdbc:mariadb://" + hostPort + path;
    }

    @Override
    Map<String, String> timeoutProperties(long connectTimeoutMillis, long socketTimeoutMillis) {
        return Map.of("connectTimeout", Long.toString(connectTimeoutMillis),
                "socketTimeout", Long.toString(socketTimeoutMillis), "tcpKeepAlive", "true");
    }
}
