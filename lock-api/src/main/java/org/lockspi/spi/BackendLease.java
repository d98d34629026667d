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
     * The monotonic instant ({@link System#nanoTime()}) until which the backend last confirmed this acquisition
     * with the server, and after which the lease is {@code UNCERTAIN} unless confirmed again: the instant the
     * last answered request of this session (ZooKeeper) or the last successful renewal (Redis) was <em>sent</em>,
     * plus the provider's confirmation threshold. The engine compares it with {@code System.nanoTime()} whenever
     * the lease's state is asked, so a process that resumes from a pause sees the overdue confirmation on its
     * first check, before any event arrives.
     *
     * <p>Same threading rules as {@link #isLost()}: from memory, no I/O, no lock an event thread may hold.
     * When it moves forward after having run out, the backend calls {@link BackendEvents#leasesConfirmed()}, so
     * that listeners hear of the way back to {@code HELD} without anyone asking.
     *
     * @return the instant, or {@link Long#MAX_VALUE} if the backend does not track confirmations
     */
    default long confirmedUntilNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * The monotonic instant ({@link System#nanoTime()}) before which no other client can hold this lease's lock,
     * judged without asking the server: the send time of the last confirmed contact plus the session timeout or
     * lease time, less a margin for clock drift. After it the engine reports the lease {@code LOST}, whether or
     * not the backend has heard of the loss ({@code LOST} is final: a later confirmation does not undo it, and the
     * engine still calls {@link #release()}, which must then delete the lease's state if the session or lease is
     * in fact still alive). It never moves backwards while the lease is held. For a request with a lease time
     * ({@link AcquireRequest#leaseTime()}) it never moves past the granting request's send time plus the lease time.
     *
     * <p>Same threading rules as {@link #isLost()}.
     *
     * @return the instant, or {@link Long#MAX_VALUE} if the backend does not track it
     */
    default long validUntilNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * Frees the acquisition on the server. It must remove only this acquisition's own state: after a loss, a
     * later holder's state is never touched (ZooKeeper: delete only our own node; Redis: compare the owner token
     * before deleting). A lost lease's release does nothing harmful and does not throw.
     *
     * <p>It never blocks for long on a connection that is down: it returns or throws within the provider's
     * documented release bound, and leaves the delete to be done when the connection returns.
     *
     * @throws org.lockspi.LockConnectionException if the server cannot be told now; the backend should still
     *         free the state when the connection returns, and the session or lease end frees it otherwise
     */
    void release();
}
