package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.lockspi.LockInfo;

/**
 * {@code LockService.inspect} and {@code list} on the lock tables: what holds and what waits, read without a row
 * lock (two statements, so not one snapshot). Rows whose time ran out by the database's clock count for nothing,
 * as they do for the queue.
 */
final class Inspection {
    private Inspection() {
    }

    /**
     * @param key      the lock's key
     * @param lockId   its id in the tables
     * @param ownPrefix the prefix of this client's acquisition ids
     */
    static LockInfo inspect(Connection c, Sql sql, String key, String lockId, String ownPrefix) throws SQLException {
        List<LockInfo.Holder> holders = new ArrayList<>();
        int waiters = 0;
        LockInfo.Kind kind = null;
        try (PreparedStatement s = c.prepareStatement(sql.inspectHead)) {
            s.setString(1, lockId);
            try (ResultSet r = s.executeQuery()) {
                if (r.next()) {
                    String owner = r.getString(1);
                    String k = r.getString(2);
                    long token = r.getLong(3);
                    long granted = r.getLong(4);
                    long left = r.getLong(5);
                    if (owner != null && !r.wasNull() && left > 0) {
                        boolean writer = k.charAt(0) == LockQueue.WRITE;
                        kind = writer ? LockInfo.Kind.READ_WRITE : LockInfo.Kind.MUTEX;
                        holders.add(new LockInfo.Holder(writer ? LockInfo.Mode.WRITE : LockInfo.Mode.EXCLUSIVE,
                                OptionalLong.of(token), Optional.of(Instant.ofEpochMilli(granted)),
                                owner.startsWith(ownPrefix)));
                    }
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement(sql.inspectEntries)) {
            s.setString(1, lockId);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    String id = r.getString(1);
                    char k = r.getString(3).charAt(0);
                    long token = r.getLong(5);
                    boolean held = !r.wasNull();
                    long granted = r.getLong(6);
                    long left = r.getLong(7);
                    if (left <= 0) {
                        continue;
                    }
                    LockInfo.Kind of = k == LockQueue.SEMAPHORE ? LockInfo.Kind.SEMAPHORE
                            : k == LockQueue.READ || k == LockQueue.WRITE ? LockInfo.Kind.READ_WRITE
                            : LockInfo.Kind.MUTEX;
                    if (kind == null) {
                        kind = of;
                    }
                    if (held) {
                        holders.add(new LockInfo.Holder(k == LockQueue.SEMAPHORE ? LockInfo.Mode.PERMIT
                                : LockInfo.Mode.READ, OptionalLong.of(token),
                                Optional.of(Instant.ofEpochMilli(granted)), id.startsWith(ownPrefix)));
                    } else {
                        waiters++;
                    }
                }
            }
        }
        if (kind == null) {
            return LockInfo.empty(key);
        }
        return new LockInfo(key, kind, holders, waiters);
    }

    /** @return the keys of the locks that have a live holder or entry and start with the prefix */
    static List<String> list(Connection c, Sql sql, String prefix) throws SQLException {
        String pattern = prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
        List<String> names = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.listNames)) {
            s.setString(1, pattern);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    names.add(r.getString(1));
                }
            }
        }
        return names;
    }
}
