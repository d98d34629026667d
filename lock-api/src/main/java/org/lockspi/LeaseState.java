package org.lockspi;

/**
 * What a {@link Lease} knows about the lock it stands for.
 *
 * <p>The states move only as the arrows show: {@code HELD <-> UNCERTAIN}, either of them {@code -> LOST} or
 * {@code -> RELEASED}. {@code LOST} and {@code RELEASED} are final.
 */
public enum LeaseState {
    /**
     * The lock is held, as far as the client can tell: not known lost, connected, and confirmed by the server
     * recently (within the provider's confirmation threshold), so no other client can hold it now.
     */
    HELD,
    /**
     * The connection to the server is suspended, or the last confirmation from the server is older than the
     * provider's threshold: the lock may still be held (the session or lease may survive the outage) or, near
     * the end, may belong to someone else. Treat it as not held until it turns {@code HELD} again.
     */
    UNCERTAIN,
    /**
     * The lock is no longer held, or may be held by another client: the session expired, the lease ran out, the
     * server state was removed, or the local validity deadline passed without a confirmation. Final.
     */
    LOST,
    /** The lease was released by its owner, or its {@link LockService} was closed. */
    RELEASED;

    /** @return whether this state is final ({@link #LOST} or {@link #RELEASED}) */
    public boolean isTerminal() {
        return this == LOST || this == RELEASED;
    }
}
