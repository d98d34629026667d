package org.lockspi;

/**
 * What a {@link Lease} knows about the lock it stands for.
 *
 * <p>The states move only as the arrows show: {@code HELD <-> UNCERTAIN}, either of them {@code -> LOST} or
 * {@code -> RELEASED}. {@code LOST} and {@code RELEASED} are final.
 */
public enum LeaseState {
    /** The lock is held, as far as the client can tell: connected, and the server state is ours. */
    HELD,
    /**
     * The connection to the server is suspended: the lock may still be held (the session or lease may survive
     * the outage) or may already belong to someone else. Treat it as not held until it turns {@code HELD} again.
     */
    UNCERTAIN,
    /** The lock is no longer held: the session expired, the lease ran out or the server state was removed. */
    LOST,
    /** The lease was released by its owner, or its {@link LockService} was closed. */
    RELEASED;

    /** @return whether this state is final ({@link #LOST} or {@link #RELEASED}) */
    public boolean isTerminal() {
        return this == LOST || this == RELEASED;
    }
}
