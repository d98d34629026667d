package org.lockspi.jdbc.internal;

/**
 * Every statement of the provider, for one dialect and one table prefix: built once per backend. Times are
 * computed by the database ({@link Dialect#nowMillis()}), never sent by a client; a row's time left is read as
 * {@code expires_ms - now}, so no client clock is compared with the database's.
 *
 * <p>The layout ({@code org/lockspi/jdbc/schema/*.sql}): the lock table has one row per lock that has state (its
 * exclusive holder, if any, and how many entries it has); the entry table one row per waiter and per shared
 * holder; the sequence gives fencing tokens and queue places. A holder's row carries its revocable mark and, once an
 * operator asks, who asked ({@code revoked_by}): a renewal skips such a row, so its holder's keeper learns of the
 * request on its next pass and the row runs out if the holder never does.
 */
final class Sql {
    final String lockTable;
    final String entryTable;
    final String sequence;

    // the uncontended path: one statement to acquire, one to release
    final String insertHolder;
    final String releaseIfAlone;

    // one transaction of the queue, under the lock row's row lock
    final String insertIfAbsent;
    final String selectHeadForUpdate;
    final String selectEntries;
    final String nextToken;
    final String grantExclusive;
    final String deleteEntry;
    final String grantEntry;
    final String insertWaiter;
    final String insertSharedHolder;
    final String refreshWaiter;
    final String setEntries;
    final String clearOwner;
    final String deleteHead;

    // renewal
    final String renewExclusive;
    final String renewShared;
    /** The renewals of an acquisition with a lease time of its own: never past its grant plus the lease time. */
    final String renewExclusiveCapped;
    final String renewSharedCapped;

    // revocation: the request (one conditional statement per kind of row), why a request found none, and the
    // holder's look at a row its renewal skipped
    final String requestRevocationExclusive;
    final String requestRevocationShared;
    final String revocableExclusive;
    final String revocableShared;
    final String revokedByExclusive;
    final String revokedByShared;

    // inspection and upkeep
    final String inspectHead;
    final String inspectEntries;
    final String listNames;
    final String selectStale;
    final String selectNow;

    Sql(Dialect dialect, String prefix, long lockWaitMillis) {
        lockTable = prefix + "lock";
        entryTable = prefix + "entry";
        sequence = prefix + "token";
        String now = dialect.nowMillis();
        String left = "expires_ms - " + now;

        insertHolder = dialect.insertHolder(lockTable, sequence);
        releaseIfAlone = "DELETE FROM " + lockTable + " WHERE lock_id = ? AND owner = ? AND entries = 0";

        insertIfAbsent = dialect.boundLockWait(dialect.insertIfAbsent(lockTable), lockWaitMillis);
        selectHeadForUpdate = dialect.boundLockWait("SELECT owner, kind, " + left + ", entries FROM " + lockTable
                + " WHERE lock_id = ? FOR UPDATE", lockWaitMillis);
        selectEntries = "SELECT entry_id, seq, kind, token, " + left + " FROM " + entryTable
                + " WHERE lock_id = ? ORDER BY seq";
        nextToken = "SELECT " + dialect.nextValue(sequence);
        grantExclusive = "UPDATE " + lockTable + " SET owner = ?, kind = ?, revocable = ?, revoked_by = NULL, "
                + "token = ?, granted_ms = " + now + ", expires_ms = " + now + " + ?, entries = ? WHERE lock_id = ?";
        deleteEntry = "DELETE FROM " + entryTable + " WHERE entry_id = ?";
        grantEntry = "UPDATE " + entryTable + " SET token = ?, granted_ms = " + now + ", expires_ms = " + now
                + " + ? WHERE entry_id = ?";
        insertWaiter = "INSERT INTO " + entryTable + " (entry_id, lock_id, seq, kind, permits, revocable, expires_ms) "
                + "VALUES (?, ?, ?, ?, ?, ?, " + now + " + ?)";
        insertSharedHolder = "INSERT INTO " + entryTable + " (entry_id, lock_id, seq, kind, permits, revocable, token, "
                + "granted_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?, " + now + ", " + now + " + ?)";
        refreshWaiter = "UPDATE " + entryTable + " SET expires_ms = " + now + " + ? WHERE entry_id = ? AND token IS "
                + "NULL";
        setEntries = "UPDATE " + lockTable + " SET entries = ? WHERE lock_id = ?";
        clearOwner = "UPDATE " + lockTable + " SET owner = NULL, kind = NULL, revocable = NULL, revoked_by = NULL, "
                + "token = NULL, granted_ms = NULL, expires_ms = NULL, entries = ? WHERE lock_id = ?";
        deleteHead = "DELETE FROM " + lockTable + " WHERE lock_id = ?";

        // a row whose revocation was asked for is not renewed: its holder looks at it (revokedBy*) and lets go
        String live = " AND expires_ms > " + now + " AND revoked_by IS NULL";
        renewExclusive = "UPDATE " + lockTable + " SET expires_ms = " + now + " + ? WHERE lock_id = ? AND owner = ?"
                + live;
        renewShared = "UPDATE " + entryTable + " SET expires_ms = " + now + " + ? WHERE entry_id = ? AND token IS "
                + "NOT NULL" + live;
        // LEAST: PostgreSQL, MariaDB and H2 have it; granted_ms is set by every grant
        renewExclusiveCapped = "UPDATE " + lockTable + " SET expires_ms = LEAST(" + now + " + ?, granted_ms + ?) "
                + "WHERE lock_id = ? AND owner = ?" + live;
        renewSharedCapped = "UPDATE " + entryTable + " SET expires_ms = LEAST(" + now + " + ?, granted_ms + ?) "
                + "WHERE entry_id = ? AND token IS NOT NULL" + live;

        // the first requester stays; parameters: requested by, lock_id, token
        String holder = " WHERE lock_id = ? AND token = ? AND expires_ms > " + now;
        requestRevocationExclusive = "UPDATE " + lockTable + " SET revoked_by = COALESCE(revoked_by, ?)" + holder
                + " AND revocable = TRUE";
        requestRevocationShared = "UPDATE " + entryTable + " SET revoked_by = COALESCE(revoked_by, ?)" + holder
                + " AND revocable = TRUE";
        revocableExclusive = "SELECT revocable, revoked_by FROM " + lockTable + holder;
        revocableShared = "SELECT revocable, revoked_by FROM " + entryTable + holder;
        revokedByExclusive = "SELECT revoked_by FROM " + lockTable + " WHERE lock_id = ? AND owner = ?";
        revokedByShared = "SELECT revoked_by FROM " + entryTable + " WHERE entry_id = ?";

        inspectHead = "SELECT owner, kind, token, granted_ms, " + left + ", entries FROM " + lockTable
                + " WHERE lock_id = ?";
        inspectEntries = "SELECT entry_id, seq, kind, permits, token, granted_ms, " + left + " FROM " + entryTable
                + " WHERE lock_id = ? ORDER BY seq";
        listNames = "SELECT l.lock_name FROM " + lockTable + " l WHERE l.lock_name LIKE ? ESCAPE '!' AND "
                + "((l.owner IS NOT NULL AND l.expires_ms > " + now + ") OR EXISTS (SELECT 1 FROM " + entryTable
                + " e WHERE e.lock_id = l.lock_id AND e.expires_ms > " + now + "))";
        selectStale = "SELECT lock_id, lock_name FROM " + lockTable + " WHERE owner IS NULL OR expires_ms < " + now
                + " - ? LIMIT 100";
        selectNow = "SELECT " + now;
    }
}
