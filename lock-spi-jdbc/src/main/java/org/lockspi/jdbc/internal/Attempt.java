package org.lockspi.jdbc.internal;

import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/** One acquisition under way: what it asks for, its id, and whether it may have an entry in the queue. */
final class Attempt {
    final AcquireRequest request;
    final String key;
    final String lockId;
    final String id;
    final char kind;
    final int permits;
    /** Whether operators may revoke it once granted: the mark its rows carry (spec §27). */
    final boolean revocable;
    /** For a reader whose thread holds the writer: the writer's id (a downgrade). */
    final String downgrade;
    /** Whether an entry of it may be in the queue, to be removed when it gives up. */
    volatile boolean queued;
    /** Whether a failed call may have granted it unseen, to be freed when it gives up. */
    volatile boolean inDoubt;

    /**
     * @param id     the acquisition's id
     * @param lockId the lock's id in the tables ({@link LockIds#of(String)} of the request's name)
     */
    Attempt(AcquireRequest request, String id, String lockId) {
        this.request = request;
        this.key = request.name();
        this.lockId = lockId;
        this.id = id;
        this.kind = letter(request.kind());
        this.permits = request.permits();
        this.revocable = request.isRevocable();
        BackendLease held = request.heldWrite();
        if (held != null && !(held instanceof JdbcLease)) {
            throw new IllegalArgumentException("heldWrite is not a lease of this provider: " + held);
        }
        this.downgrade = held == null ? null : ((JdbcLease) held).id;
        this.leaseTimeMs = request.leaseTime().map(Attempt::millisRoundedUp).orElse(0L);
    }

    /** The acquisition's own lease time in the database's milliseconds, rounded up; 0 for none. */
    final long leaseTimeMs;

    /**
     * @param leaseMs the lease time of the URI, the span a renewal extends a row by
     * @return the ms a grant gives the row: the lease time of the URI, or the acquisition's own if shorter
     */
    long grantMs(long leaseMs) {
        return leaseTimeMs > 0 && leaseTimeMs < leaseMs ? leaseTimeMs : leaseMs;
    }

    static long millisRoundedUp(java.time.Duration d) {
        long millis = d.toMillis();
        return d.minusMillis(millis).isZero() ? millis : millis + 1;
    }

    static char letter(LockKind kind) {
        switch (kind) {
            case MUTEX:
                return LockQueue.MUTEX;
            case NON_REENTRANT_MUTEX:
                return LockQueue.NON_REENTRANT;
            case WRITE:
                return LockQueue.WRITE;
            case READ:
                return LockQueue.READ;
            case SEMAPHORE:
                return LockQueue.SEMAPHORE;
            default:
                throw new IllegalArgumentException("unknown lock kind: " + kind);
        }
    }

    @Override
    public String toString() {
        return request.toString();
    }
}
