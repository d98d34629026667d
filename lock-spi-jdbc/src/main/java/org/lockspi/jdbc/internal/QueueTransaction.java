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
    /** How many times a lock's row may vanish between its insert and its row lock before the attempt fails. */
    static final int VANISHED_ROUNDS = 100;
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
     * @param leaseMs the lease time of the URI (a grant gives the row at most the acquisition's own lease time)
     * @param mayWait whether a refused acquisition waits (else nothing of it stays)
     * @return the outcome
     * @throws SQLException as the driver throws; a lock conflict ({@link Dialect#isLockConflict}) may be retried
     */
    Outcome attempt(Connection c, Attempt a, long leaseMs, boolean mayWait) throws SQLException {
        return inTransaction(c, () -> {
            // a queued acquisition's lock has its row (an entry never exists without it): no insert to try first
            Locked l = a.queued ? lock(c, a.lockId, a.key, false) : null;
            if (l == null) {
                l = lock(c, a.lockId, a.key, true);
            }
            Entry mine = l.find(a.id);
            long mySeq = mine != null ? mine.seq() : Long.MAX_VALUE;
            Decision d = LockQueue.decide(l.head(), l.live(), a.kind, a.permits, mySeq, a.downgrade);
            int count = l.live().size();
            long grantMs = a.grantMs(leaseMs); // a waiter's entry lives leaseMs; a grant at most its lease time
            if (d.grant()) {
                long token = nextToken(c);
                if (LockQueue.exclusive(a.kind)) {
                    if (mine != null) {
                        update(c, sql.deleteEntry, a.id);
                        count--;
                    }
                    update(c, sql.grantExclusive, a.id, String.valueOf(a.kind), a.revocable, token, grantMs, count,
                            a.lockId);
                } else {
                    if (mine != null) {
                        update(c, sql.grantEntry, token, grantMs, a.id);
                    } else {
                        update(c, sql.insertSharedHolder, a.id, a.lockId, token, String.valueOf(a.kind), a.permits,
                                a.revocable, token, grantMs);
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
                            a.revocable, leaseMs);
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
     * Removes one entry (a waiter that gives up, a reader or permit that is released) and wakes the waiters that
     * may go now.
     *
     * @return whom this client should wake among its own waiters: null for none, else as {@link #wakeList}
     */
    String leave(Connection c, String lockId, String key, String entryId) throws SQLException {
        return inTransaction(c, () -> {
            Locked l = lock(c, lockId, key, false);
            update(c, sql.deleteEntry, entryId);
            if (l == null) {
                return null;
            }
            List<Entry> left = new ArrayList<>(l.live());
            left.removeIf(e -> e.id().equals(entryId));
            finish(c, lockId, l, left.size());
            return wake(c, lockId, l.head(), left);
        });
    }

    /**
     * Releases an exclusive holder whose lock has entries (the one-statement release found some): clears the
     * owner, keeps the row for the entries, and wakes the waiters that may go now.
     *
     * @return whom this client should wake among its own waiters: null for none, else as {@link #wakeList}
     */
    String releaseOwner(Connection c, String lockId, String key, String owner) throws SQLException {
        return inTransaction(c, () -> {
            Locked l = lock(c, lockId, key, false);
            if (l == null || !owner.equals(l.head().owner())) {
                return null; // no longer ours: a lost lease's release touches no one else's row
            }
            int count = l.live().size();
            if (count == 0) {
                update(c, sql.deleteHead, lockId);
                return null;
            }
            update(c, sql.clearOwner, count, lockId);
            return wake(c, lockId, new Head(null, (char) 0, 0), l.live());
        });
    }

    /** Tells the waiters of a lock that may go now (other clients' by a message sent with the commit). */
    private String wake(Connection c, String lockId, Head head, List<Entry> live) throws SQLException {
        String list = wakeList(head, live);
        if (list != null && notify != null) {
            try (PreparedStatement s = c.prepareStatement(notify)) {
                s.setString(1, PgListener.channel(lockId));
                s.setString(2, list);
                s.execute();
            }
        }
        return list;
    }

    /**
     * Whom a change of a lock should wake: the ids of the waiting entries the queue rules now grant, comma
     * separated (one waiter, or the readers at the head of the queue together), so that the others sleep on and
     * ask the database nothing; {@code ""} (everyone) where the rules cannot say from the rows read (a semaphore's
     * waiters, whose permits the rows do not carry, or too many); null if nobody waits.
     */
    static String wakeList(Head head, List<Entry> live) {
        StringBuilder ids = new StringBuilder();
        boolean waiting = false;
        for (Entry e : live) {
            if (e.granted()) {
                continue;
            }
            waiting = true;
            if (e.kind() == LockQueue.SEMAPHORE) {
                return "";
            }
            if (LockQueue.decide(head, live, e.kind(), 1, e.seq(), null).grant()) {
                ids.append(ids.length() == 0 ? "" : ",").append(e.id());
                if (ids.length() > 4000) {
                    return "";
                }
            }
        }
        return waiting ? ids.toString() : null;
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
            // The row vanishes when its last holder released (and deleted it) while this transaction waited for its
            // row lock: each round is another client's full release, so a busy lock taken and released in a tight
            // loop can do it many times running (three did, at times, with two threads cycling on one lock).
            if (!create || round >= VANISHED_ROUNDS - 1) {
                if (!create) {
                    return null;
                }
                throw new SQLException("the row of lock '" + key + "' in " + sql.lockTable + " vanished "
                        + VANISHED_ROUNDS + " times between its insert and its row lock");
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

    /** Runs an update with its parameters (String, Long, Integer, Boolean). */
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
            } else if (p instanceof Boolean) {
                s.setBoolean(i + 1, (Boolean) p);
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
