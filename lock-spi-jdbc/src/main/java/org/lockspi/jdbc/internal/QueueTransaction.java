package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.lockspi.jdbc.internal.LockQueue.Decision;
import org.lockspi.jdbc.internal.LockQueue.Entry;
import org.lockspi.jdbc.internal.LockQueue.Head;

/**
 * The transactions of the queue: each takes the row lock of the lock's row first (inserting the row if the lock
 * had none), so that the acquisitions, releases and departures of one lock happen one after another on every
 * client, reads the lock's entries, deletes those whose time ran out, decides by {@link LockQueue} and writes the
 * outcome, keeping the lock's entry count exact (the one-statement acquisition of {@link JdbcBackend} relies on
 * it) and deleting the lock's row once nothing is left. Invariant: an entry never exists without its lock's row.
 */
final class QueueTransaction {
    private final Sql sql;
    private final Dialect dialect;
    private final long lockWaitMillis;
    private final String notify;

    /** What one attempt came to. */
    static final class Outcome {
        /** The fencing token if granted, else -1. */
        final long token;
        /** When a row that blocks it runs out by itself, ms from now ({@link Long#MAX_VALUE}: none will). */
        final long nextMs;
        /** Whether its entry now waits in the queue. */
        final boolean queued;
        /** When the transaction was sent ({@code System.nanoTime()}), set by the caller. */
        long sentAt;

        Outcome(long token, long nextMs, boolean queued) {
            this.token = token;
            this.nextMs = nextMs;
            this.queued = queued;
        }

        boolean granted() {
            return token >= 0;
        }
    }

    /** The lock's row and entries, read under the row lock. */
    private record Locked(Head head, int entries, List<Entry> live) {
        Entry find(String id) {
            for (Entry e : live) {
                if (e.id().equals(id)) {
                    return e;
                }
            }
            return null;
        }
    }

    QueueTransaction(Sql sql, Dialect dialect, long lockWaitMillis) {
        this.sql = sql;
        this.dialect = dialect;
        this.lockWaitMillis = lockWaitMillis;
        this.notify = dialect.notifyStatement();
    }

    /**
     * One attempt: grants the acquisition if the queue rules allow it, else (if it may wait) puts or keeps its
     * entry in the queue, refreshing the entry's time.
     *
     * @param c       a connection, autocommit on
     * @param a       the acquisition
     * @param leaseMs the lease time
     * @param mayWait whether a refused acquisition waits (else nothing of it stays)
     * @return the outcome
     * @throws SQLException as the driver throws; a lock conflict ({@link Dialect#isLockConflict}) may be retried
     */
    Outcome attempt(Connection c, Attempt a, long leaseMs, boolean mayWait) throws SQLException {
        return inTransaction(c, () -> {
            Locked l = lock(c, a.lockId, a.key, true);
            Entry mine = l.find(a.id);
            long mySeq = mine != null ? mine.seq() : Long.MAX_VALUE;
            Decision d = LockQueue.decide(l.head(), l.live(), a.kind, a.permits, mySeq, a.downgrade);
            int count = l.live().size();
            if (d.grant()) {
                long token = nextToken(c);
                if (LockQueue.exclusive(a.kind)) {
                    if (mine != null) {
                        update(c, sql.deleteEntry, a.id);
                        count--;
                    }
                    update(c, sql.grantExclusive, a.id, String.valueOf(a.kind), token, leaseMs, count, a.lockId);
                } else {
                    if (mine != null) {
                        update(c, sql.grantEntry, token, leaseMs, a.id);
                    } else {
                        update(c, sql.insertSharedHolder, a.id, a.lockId, token, String.valueOf(a.kind), a.permits,
                                token, leaseMs);
                        count++;
                    }
                    finish(c, a.lockId, l, count);
                }
                return new Outcome(token, Long.MAX_VALUE, false);
            }
            if (mayWait) {
                if (mine != null) {
                    update(c, sql.refreshWaiter, leaseMs, a.id);
                } else {
                    update(c, sql.insertWaiter, a.id, a.lockId, nextToken(c), String.valueOf(a.kind), a.permits,
                            leaseMs);
                    count++;
                }
            } else if (mine != null) {
                update(c, sql.deleteEntry, a.id);
                count--;
            }
            finish(c, a.lockId, l, count);
            return new Outcome(-1, d.nextMs(), mayWait);
        });
    }

    /**
     * Removes one entry (a waiter that gives up, a reader or permit that is released) and wakes the lock's other
     * waiters if any are left.
     *
     * @return whether the lock has other entries left (whose waiters this client should wake too)
     */
    boolean leave(Connection c, String lockId, String key, String entryId) throws SQLException {
        return inTransaction(c, () -> {
            Locked l = lock(c, lockId, key, false);
            update(c, sql.deleteEntry, entryId);
            if (l == null) {
                return false;
            }
            int count = l.live().size() - (l.find(entryId) != null ? 1 : 0);
            finish(c, lockId, l, count);
            if (count > 0) {
                notifyWaiters(c, lockId);
            }
            return count > 0;
        });
    }

    /**
     * Releases an exclusive holder whose lock has entries (the one-statement release found some): clears the
     * owner, keeps the row for the entries, and wakes the waiters.
     *
     * @return whether the lock has entries left (whose waiters this client should wake too)
     */
    boolean releaseOwner(Connection c, String lockId, String key, String owner) throws SQLException {
        return inTransaction(c, () -> {
            Locked l = lock(c, lockId, key, false);
            if (l == null || !owner.equals(l.head().owner())) {
                return false; // no longer ours: a lost lease's release touches no one else's row
            }
            int count = l.live().size();
            if (count == 0) {
                update(c, sql.deleteHead, lockId);
                return false;
            }
            update(c, sql.clearOwner, count, lockId);
            notifyWaiters(c, lockId);
            return true;
        });
    }

    /** Deletes what ran out of a lock's rows, and its row if nothing is left (the keeper's upkeep). */
    void tidy(Connection c, String lockId, String key) throws SQLException {
        inTransaction(c, () -> {
            Locked l = lock(c, lockId, key, false);
            if (l != null) {
                finish(c, lockId, l, l.live().size());
            }
            return null;
        });
    }

    /** Tells other clients' waiters of a lock that it may be free: a message sent when the caller commits. */
    void notifyWaiters(Connection c, String lockId) throws SQLException {
        if (notify != null) {
            try (PreparedStatement s = c.prepareStatement(notify)) {
                s.setString(1, PgListener.channel(lockId));
                s.execute();
            }
        }
    }

    /**
     * Takes the lock's row lock (inserting the row first if asked), reads its entries and deletes those that ran
     * out.
     *
     * @return the state, or null if the lock has no row and {@code create} is false
     */
    private Locked lock(Connection c, String lockId, String key, boolean create) throws SQLException {
        for (int round = 0; ; round++) {
            if (create) {
                try {
                    update(c, sql.insertIfAbsent, lockId, key);
                } catch (SQLException e) {
                    if (!dialect.isDuplicateKey(e)) { // H2's MERGE races with a concurrent insert
                        throw e;
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement(sql.selectHeadForUpdate)) {
                s.setString(1, lockId);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        String owner = r.getString(1);
                        String kind = r.getString(2);
                        long left = r.getLong(3);
                        Head head = new Head(owner, kind == null ? 0 : kind.charAt(0), r.wasNull() ? 0 : left);
                        int entries = r.getInt(4);
                        return new Locked(head, entries, readEntries(c, lockId));
                    }
                }
            }
            if (!create || round >= 2) {
                if (!create) {
                    return null;
                }
                throw new SQLException("the row of lock '" + key + "' in " + sql.lockTable + " vanished three times "
                        + "between its insert and its row lock");
            }
        }
    }

    private List<Entry> readEntries(Connection c, String lockId) throws SQLException {
        List<Entry> live = new ArrayList<>();
        List<String> expired = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.selectEntries)) {
            s.setString(1, lockId);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    String id = r.getString(1);
                    long seq = r.getLong(2);
                    char kind = r.getString(3).charAt(0);
                    r.getLong(4);
                    boolean granted = !r.wasNull();
                    long left = r.getLong(5);
                    if (left > 0) {
                        live.add(new Entry(id, seq, kind, granted, left));
                    } else {
                        expired.add(id);
                    }
                }
            }
        }
        for (String id : expired) {
            update(c, sql.deleteEntry, id); // rarely more than one: a crashed client's
        }
        return live;
    }

    /** Writes the entry count, or deletes the lock's row if it has neither holder nor entries. */
    private void finish(Connection c, String lockId, Locked l, int count) throws SQLException {
        if (!l.head().held() && count == 0) {
            update(c, sql.deleteHead, lockId);
        } else if (count != l.entries()) {
            update(c, sql.setEntries, count, lockId);
        }
    }

    private long nextToken(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql.nextToken); ResultSet r = s.executeQuery()) {
            if (!r.next()) {
                throw new SQLException("the sequence " + sql.sequence + " gave no value");
            }
            return r.getLong(1);
        }
    }

    /** Runs an update with its parameters (String, Long, Integer). */
    static int update(Connection c, String statement, Object... parameters) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(statement)) {
            bind(s, parameters);
            return s.executeUpdate();
        }
    }

    static void bind(PreparedStatement s, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            Object p = parameters[i];
            if (p instanceof Long) {
                s.setLong(i + 1, (Long) p);
            } else if (p instanceof Integer) {
                s.setInt(i + 1, (Integer) p);
            } else {
                s.setString(i + 1, (String) p);
            }
        }
    }

    private interface Body<T> {
        T run() throws SQLException;
    }

    /** Runs the body in one transaction (read committed, bounded row-lock waits) and commits it. */
    private <T> T inTransaction(Connection c, Body<T> body) throws SQLException {
        c.setAutoCommit(false);
        try {
            dialect.beginTransaction(c, lockWaitMillis);
            T result = body.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            try {
                c.setAutoCommit(true);
            } catch (SQLException broken) {
                // the caller discards a broken connection
            }
        }
    }
}
