package org.lockspi.spi;

/**
 * One acquisition held on the server, as a backend returns it. The engine wraps it in the leases the
 * application sees, and calls {@link #release()} at most once.
 *
 * <p>Implementations are thread-safe: {@link #isLost()} and {@link #fencingToken()} may be called from any
 * thread, and {@link #release()} from any thread other than the backend's own event threads.
 */
public interface BackendLease {

    /**
     * @return the fencing token: greater than the token of every earlier holder of the same lock, also across
     *         server restarts; {@code -1} if the provider lacks {@code FENCING_TOKENS}
     */
    long fencingToken();

    /**
     * Whether the backend knows this acquisition is gone from the server (session expired, lease ran out, state
     * removed). A backend sets this before it calls {@link BackendEvents#leaseLost(BackendLease)}, so that the
     * engine, which checks it once when it registers a new lease, misses no loss.
     *
     * <p>It must answer at once from memory, without I/O and without taking a lock that the backend's event
     * threads may hold while they report events: the engine calls it under its own monitor.
     *
     * @return whether the lease is known to be lost
     */
    boolean isLost();

    /**
     * Frees the acquisition on the server. It must remove only this acquisition's own state: after a loss, a
     * later holder's state is never touched (ZooKeeper: delete only our own node; Redis: compare the owner token
     * before deleting). A lost lease's release does nothing harmful and does not throw.
     *
     * @throws org.lockspi.LockConnectionException if the server cannot be told now; the backend should still
     *         free the state when the connection returns, and the session or lease end frees it otherwise
     */
    void release();
}
