package org.lockspi.jdbc.internal;

import java.util.List;

/**
 * The queue rules, the same on every database: given what a lock's rows say (read under the lock row's row lock),
 * may this acquisition be granted now, and if not, when may that change by itself (an expiry)? Pure: no I/O.
 *
 * <ul>
 *   <li>An exclusive acquisition (mutex, non-reentrant mutex, writer) needs no live exclusive holder, no shared
 *       holder, and no waiter ahead of it.</li>
 *   <li>A reader needs no live exclusive holder (but its own writer, a downgrade, passes at once), no holder of
 *       another kind, and no waiter of another kind ahead of it: a reader never overtakes a queued writer, and the
 *       readers queued behind a writer go together once it has left.</li>
 *   <li>A semaphore permit needs no exclusive holder, no holder of another kind, a free permit, and fewer waiters
 *       ahead of it than there are free permits.</li>
 * </ul>
 * Rows whose time ran out by the database's clock count for nothing (their holder's lease is over, their waiter
 * gone); the caller deletes them.
 */
final class LockQueue {
    /** The kinds, as the rows store them. */
    static final char MUTEX = 'M';
    static final char NON_REENTRANT = 'N';
    static final char WRITE = 'W';
    static final char READ = 'R';
    static final char SEMAPHORE = 'S';

    private LockQueue() {
    }

    /**
     * The lock's row: its exclusive holder, if any.
     *
     * @param owner    the exclusive holder's acquisition, or null
     * @param kind     its kind, or {@code 0}
     * @param leftMs   how long its lease still runs by the database's clock; not above 0 once over
     */
    record Head(String owner, char kind, long leftMs) {
        boolean held() {
            return owner != null && leftMs > 0;
        }
    }

    /**
     * One row of the entry table: a waiter, or a shared holder (reader, permit).
     *
     * @param id      the acquisition
     * @param seq     its place in the queue
     * @param kind    its kind
     * @param granted whether it holds
     * @param leftMs  how long it still counts by the database's clock
     */
    record Entry(String id, long seq, char kind, boolean granted, long leftMs) {
    }

    /**
     * The answer for one acquisition.
     *
     * @param grant  whether it may hold now
     * @param nextMs when a blocking row runs out by itself, in ms from now, or {@link Long#MAX_VALUE} if none will
     */
    record Decision(boolean grant, long nextMs) {
    }

    /**
     * @param kind    the acquisition's kind
     * @return whether the kind is held in the lock's row (exclusive) rather than in an entry
     */
    static boolean exclusive(char kind) {
        return kind == MUTEX || kind == NON_REENTRANT || kind == WRITE;
    }

    /**
     * @param head      the lock's row
     * @param live      its entries that still count, in queue order
     * @param kind      the acquisition's kind
     * @param permits   a semaphore's permits, else 1
     * @param mySeq     its place in the queue, or {@link Long#MAX_VALUE} if it has no entry yet
     * @param downgrade the acquisition id of the writer this reader's thread holds, or null
     * @return the decision
     */
    static Decision decide(Head head, List<Entry> live, char kind, int permits, long mySeq, String downgrade) {
        if (kind == READ && downgrade != null && head.held() && downgrade.equals(head.owner())) {
            return new Decision(true, Long.MAX_VALUE); // a downgrade: its own writer holds
        }
        boolean blocked = head.held();
        long next = blocked ? head.leftMs() : Long.MAX_VALUE;
        int sharing = 0; // holders of the same shared kind
        int ahead = 0; // a semaphore's waiters ahead
        long sharedNext = Long.MAX_VALUE;
        for (Entry e : live) {
            if (e.granted()) {
                if (!exclusive(kind) && e.kind() == kind) {
                    sharing++;
                    sharedNext = Math.min(sharedNext, e.leftMs());
                } else {
                    blocked = true;
                    next = Math.min(next, e.leftMs());
                }
            } else if (e.seq() < mySeq) {
                if (kind == SEMAPHORE) {
                    ahead++;
                    sharedNext = Math.min(sharedNext, e.leftMs());
                } else if (exclusive(kind) || e.kind() != kind) {
                    blocked = true;
                    next = Math.min(next, e.leftMs());
                }
            }
        }
        if (kind == SEMAPHORE && sharing + ahead >= permits) {
            blocked = true;
            next = Math.min(next, sharedNext);
        }
        return blocked ? new Decision(false, next) : new Decision(true, Long.MAX_VALUE);
    }
}
