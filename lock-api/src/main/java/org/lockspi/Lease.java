package org.lockspi;

/**
 * One acquisition of a lock or semaphore permit; closing it releases that acquisition.
 *
 * <pre>{@code
 * try (Lease lease = service.mutex("orders/42").acquire(Duration.ofSeconds(5))) {
 *     store.write(order, lease.fencingToken());
 * }
 * }</pre>
 *
 * <p><b>Ownership.</b> A lease of a thread-owned lock (the {@linkplain LockService#mutex(String) reentrant mutex}
 * and both halves of a {@linkplain LockService#readWriteLock(String) read-write lock}) must be released by the
 * thread that acquired it; any other thread gets {@link IllegalMonitorStateException} and the lock stays held.
 * A lease of a {@linkplain LockService#nonReentrantMutex(String) non-reentrant mutex} or of a
 * {@linkplain LockService#semaphore(String, int) semaphore} may be released by any thread.
 *
 * <p><b>Reentrancy.</b> Each acquisition by a thread that already holds a reentrant lock returns a new lease for
 * the same hold; the lock is released on the server when the last of them is released.
 *
 * <p><b>Failures.</b> A lease does not assume it is held: {@link #state()} says {@link LeaseState#UNCERTAIN}
 * while the connection is suspended and {@link LeaseState#LOST} once the server no longer has it, and
 * {@linkplain #addListener(LeaseListener) listeners} are told. Work guarded by the lock should pass the
 * {@linkplain #fencingToken() fencing token} to the resource it changes, so that a holder that lost the lock
 * without noticing (a long pause) is refused.
 *
 * <p>Leases are thread-safe.
 */
public interface Lease extends AutoCloseable {

    /** @return the name of the lock this lease belongs to, as given to the {@link LockService} */
    String lockName();

    /**
     * A number that grows with every new holder of the lock: each holder's token is greater than the token of
     * every earlier holder of the same lock, also across server restarts. Nested acquisitions by the same thread
     * share their hold's token.
     *
     * @return the fencing token of this hold
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#FENCING_TOKENS}
     */
    long fencingToken();

    /** @return this lease's current state; {@link LeaseState#RELEASED} once this lease was released */
    LeaseState state();

    /** @return {@code state() == LeaseState.HELD} */
    default boolean isHeld() {
        return state() == LeaseState.HELD;
    }

    /**
     * Adds a listener for this lease's state changes. A listener added to a lease that is already
     * {@link LeaseState#UNCERTAIN} or {@link LeaseState#LOST} is called once at once (on the event thread) with
     * the current state, so a loss is never missed because it happened before the listener was added.
     *
     * @param listener the listener
     * @throws NullPointerException          if {@code listener} is null
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#LOST_NOTIFICATION}
     */
    void addListener(LeaseListener listener);

    /**
     * Removes a listener added by {@link #addListener(LeaseListener)}; does nothing if it is not there.
     *
     * @param listener the listener
     * @throws NullPointerException if {@code listener} is null
     */
    void removeListener(LeaseListener listener);

    /**
     * Releases this acquisition. Releasing a lease that is already released, or whose service was closed, does
     * nothing. Releasing a {@link LeaseState#LOST} lease removes nothing that belongs to a later holder.
     *
     * @throws IllegalMonitorStateException if the lease belongs to a thread-owned lock and the calling thread is
     *                                      not the one that acquired it; the lease stays held
     * @throws LockConnectionException      if the server could not be told; the lease is released locally and
     *                                      the server frees the lock when the session or lease ends
     */
    void release();

    /**
     * Same as {@link #release()}, for try-with-resources.
     *
     * @throws IllegalMonitorStateException as {@link #release()}
     * @throws LockConnectionException      as {@link #release()}
     */
    @Override
    void close();
}
