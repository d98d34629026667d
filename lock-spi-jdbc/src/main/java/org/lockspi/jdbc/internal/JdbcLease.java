package org.lockspi.jdbc.internal;

import org.lockspi.spi.BackendLease;

/**
 * One acquisition in the database: the row that holds it (the lock's row for an exclusive kind, an entry for a
 * reader or a permit), the acquisition id that proves it is ours, and its fencing token. Renewed by the backend's
 * {@link LeaseKeeper} until released or lost.
 */
final class JdbcLease implements BackendLease {
    final JdbcBackend backend;
    final char kind;
    /** The lock's key, as the application's name maps to it. */
    final String name;
    final String lockId;
    /** The acquisition id: the owner of the lock's row, or the entry's id. */
    final String id;
    private final long fencingToken;
    /** Whether operators may revoke it (its rows carry the mark). */
    final boolean revocable;
    private final long confirmNanos;
    private final long validNanos;

    private volatile boolean lost;
    private volatile boolean released;
    /** System.nanoTime() when the last renewal that succeeded (or the grant) was sent; never decreases. */
    private volatile long confirmedAt;

    /** The acquisition's own lease time, or null. */
    final java.time.Duration leaseTime;
    /** Its lease time in the database's ms, the cap of every renewal past the grant; 0 for none. */
    final long leaseTimeMs;
    /** With a lease time: the grant's send time plus it, less its drift margin; Long.MAX_VALUE without one. */
    private final long endNanos;

    JdbcLease(JdbcBackend backend, char kind, String name, String lockId, String id, long fencingToken,
              boolean revocable, long sentAt, long confirmNanos, long validNanos, java.time.Duration leaseTime,
              long leaseTimeMs) {
        this.backend = backend;
        this.kind = kind;
        this.name = name;
        this.lockId = lockId;
        this.id = id;
        this.fencingToken = fencingToken;
        this.revocable = revocable;
        this.confirmedAt = sentAt;
        this.confirmNanos = confirmNanos;
        this.validNanos = validNanos;
        this.leaseTime = leaseTime;
        this.leaseTimeMs = leaseTimeMs;
        this.endNanos = leaseTime == null ? Long.MAX_VALUE
                : sentAt + leaseTime.minus(JdbcSettings.driftMargin(leaseTime)).toNanos();
    }

    /** @return whether its lease time has ended it by {@code now} (nanoTime) */
    boolean endedBy(long now) {
        return endNanos != Long.MAX_VALUE && now - endNanos >= 0;
    }

    boolean exclusive() {
        return LockQueue.exclusive(kind);
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean isLost() {
        return lost;
    }

    /** The send time of the last confirmed renewal (or of the grant) plus {@code confirmThreshold}. */
    @Override
    public long confirmedUntilNanos() {
        return confirmedAt + confirmNanos;
    }

    /**
     * The send time of the last confirmed renewal (or of the grant) plus the lease time less the drift margin: the
     * database computed the row's expiry from its own clock when the statement ran, after it was sent, so no other
     * client can take the lock before then; with a lease time of the acquisition's own, no later than the grant's
     * send time plus it, less its drift margin (the row's expiry is capped at its grant plus the lease time).
     */
    @Override
    public long validUntilNanos() {
        long valid = confirmedAt + validNanos;
        return endNanos != Long.MAX_VALUE && endNanos - valid < 0 ? endNanos : valid;
    }

    boolean isReleased() {
        return released;
    }

    /** Records a renewal the database confirmed, sent at {@code sentAt}; an older one moves nothing back. */
    synchronized void confirmed(long sentAt) {
        if (sentAt - confirmedAt > 0) {
            confirmedAt = sentAt;
        }
    }

    /** @return whether this call marked it lost (it was neither lost nor released before) */
    synchronized boolean markLost() {
        if (lost || released) {
            return false;
        }
        lost = true;
        return true;
    }

    /** @return whether this call marked it released (it was not released before) */
    synchronized boolean markReleased() {
        if (released) {
            return false;
        }
        released = true;
        return true;
    }

    @Override
    public void release() {
        backend.release(this);
    }

    @Override
    public String toString() {
        return kind + " '" + name + "' fencingToken=" + fencingToken
                + (lost ? " lost" : "") + (released ? " released" : "");
    }
}
