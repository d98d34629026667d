package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The revoker's side of {@code LockService.revoke} on the lock tables (spec §27): writes who asks into the holder's
 * row, the lock's row for an exclusive holder, else its entry, with one conditional statement each that matches only
 * a live holder with the token and the revocable mark (the first requester stays); on PostgreSQL a {@code NOTIFY}
 * then tells the holder's client at once, where its keeper's next renewal would find it anyway. It never frees the
 * lock: the holder's keeper does, once its lease reads {@code LOST} ({@link LeaseKeeper}).
 */
final class RevocationRequest {
    /** What a request found of the holder with the token. */
    enum Outcome {
        /** No live holder has the token; nothing written. */
        NONE,
        /** The holder has no revocable mark (or a NULL one: a row of an earlier version); nothing written. */
        NOT_REVOCABLE,
        /** The request is in the holder's row. */
        ASKED
    }

    private RevocationRequest() {
    }

    /**
     * @param notify the dialect's notice statement, or null where it has none
     * @return what it found
     */
    static Outcome ask(Connection c, Sql sql, String notify, String lockId, long token, String requestedBy)
            throws SQLException {
        for (int round = 0; ; round++) {
            if (QueueTransaction.update(c, sql.requestRevocationExclusive, requestedBy, lockId, token) == 1
                    || QueueTransaction.update(c, sql.requestRevocationShared, requestedBy, lockId, token) == 1) {
                tell(c, notify, token);
                return Outcome.ASKED;
            }
            // why neither matched; a revocable holder not asked yet (null) only if the clock moved between the two
            Outcome found = why(c, sql, lockId, token);
            if (found != null || round > 0) {
                return found == null ? Outcome.NONE : found;
            }
        }
    }

    /**
     * A revocable holder already asked is {@code ASKED}: a driver that counts changed rows rather than matched ones
     * (MariaDB's {@code useAffectedRows}) counts 0 for a repeated request.
     *
     * @return the outcome, or null for a revocable holder not asked
     */
    private static Outcome why(Connection c, Sql sql, String lockId, long token) throws SQLException {
        for (String query : new String[] {sql.revocableExclusive, sql.revocableShared}) {
            try (PreparedStatement s = c.prepareStatement(query)) {
                QueueTransaction.bind(s, lockId, token);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        boolean marked = r.getBoolean(1); // NULL reads false
                        return !marked ? Outcome.NOT_REVOCABLE : r.getString(2) != null ? Outcome.ASKED : null;
                    }
                }
            }
        }
        return Outcome.NONE;
    }

    /** PostgreSQL: tells every listening client that the lease with this token is asked to go. */
    private static void tell(Connection c, String notify, long token) throws SQLException {
        if (notify != null) {
            try (PreparedStatement s = c.prepareStatement(notify)) {
                s.setString(1, PgListener.REVOCATIONS);
                s.setString(2, Long.toString(token));
                s.execute();
            }
        }
    }
}
