package org.lockspi.jdbc.internal;

import java.sql.SQLException;
import java.util.Map;

/** H 2.x, embedded or in server mode: {@code MERGE}, {@code FINAL TABLE}, sequences. */
final class H2Dialect extends Dialect {

    @Override
    String name() {
        return "h2";
    }

    @Override
    String nowMillis() {
        return "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
    }

    @Override
    String nextValue(String sequence) {
        return "NEXT VALUE FOR " + sequence;
    }

    @Override
    String insertIfAbsent(String lockTable) {
        return "MERGE INTO " + lockTable + " t USING (VALUES (CAST(? AS VARCHAR(64)), CAST(? AS VARCHAR(5500)))) "
                + "s(lock_id, lock_name) ON t.lock_id = s.lock_id WHEN NOT MATCHED THEN INSERT (lock_id, lock_name, "
                + "entries) VALUES (s.lock_id, s.lock_name, 0)";
    }

    @Override
    String insertHolder(String lockTable, String sequence) {
        // H2 has no INSERT ... ON CONFLICT: a held lock fails with a duplicate key, which the caller expects
        return "SELECT token FROM FINAL TABLE (INSERT INTO " + lockTable + " (lock_id, lock_name, owner, kind, "
                + "revocable, token, granted_ms, expires_ms, entries) VALUES (?, ?, ?, ?, ?, " + nextValue(sequence)
                + ", " + nowMillis() + ", " + nowMillis() + " + ?, 0))";
    }

    @Override
    boolean isLockConflict(SQLException e) {
        return "HYT00".equals(e.getSQLState()) || "40001".equals(e.getSQLState());
    }

    @Override
    boolean isMissingObject(SQLException e) {
        return "42S02".equals(e.getSQLState()) || "42S22".equals(e.getSQLState()) || "90036".equals(e.getSQLState())
                || "42102".equals(e.getSQLState()) || "42122".equals(e.getSQLState());
    }

    @Override
    String jdbcUrl(String hostPort, String path) {
        return "jdbc:h2:tcp://" + hostPort + path;
    }

    @Override
    Map<String, String> timeoutProperties(long connectTimeoutMillis, long socketTimeoutMillis) {
        return Map.of("NETWORK_TIMEOUT", Long.toString(socketTimeoutMillis));
    }
}
