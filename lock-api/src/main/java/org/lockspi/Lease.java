package org.lockspi;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

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
 * <p><b>Failures.</b> A lease does not assume it is held. {@link #state()} is worked out each time it is asked,
 * from the backend's events <em>and</em> from two local deadlines the provider keeps (its last confirmed contact
 * with the server): it says {@link LeaseState#UNCERTAIN} while the connection is suspended or once the last
 * confirmation is older than the provider's threshold, and {@link LeaseState#LOST} once the server no longer has
 * the lease or the local validity deadline has passed (after which another client may hold the lock, whether or
 * not this client has heard of it). So a process that resumes from a long pause sees {@code UNCERTAIN} or
 * {@code LOST} on its first check, before any event arrives. {@linkplain #addListener(LeaseListener) Listeners}
 * are told of every change, also of those no event announced (a timer of the service wakes at each deadline).
 *
 * <p><b>Guarded writes.</b> A check and a write are two steps; a pause between them is always possible. So:
 * <ol>
 *   <li>just before each write guarded by the lock, call {@link #checkValid()} (or look at {@link #validFor()}
 *       and skip work that would not finish in time): it narrows the window in which a holder that lost the
 *       lock still writes to the time between the check and the write;</li>
 *   <li>pass the {@linkplain #fencingToken() fencing token} with the write, and let the resource refuse a token
 *       lower than the highest it has seen: this closes the window, which no client-side check can.</li>
 * </ol>
 * <pre>{@code
 * try (Lease lease = service.mutex("orders/42").acquire(Duration.ofSeconds(5))) {
 *     for (Order order : batch) {
 *         lease.checkValid();                         // LeaseLostException: stop, another client may hold it
 *         store.write(order, lease.fencingToken());   // the store refuses stale tokens
 *     }
 * }
 * }</pre>
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
     * How long this lease stays valid judged locally, without asking the server: the time left before the
     * provider's local validity deadline (the send time of the last confirmed contact with the server plus the
     * session timeout or lease time, less a drift margin). The deadline moves forward while the provider keeps
     * confirming the lease; once it passes, the lease is {@link LeaseState#LOST}. For a lease acquired with a lease
     * time of its own ({@link Acquirable#withLeaseTime(Duration)}) it never moves past the end of that lease time.
     *
     * <p>A held lease of a provider that does not track such a deadline (its leases stay valid until an event
     * says otherwise) returns {@link ChronoUnit#FOREVER}{@code .getDuration()}: "unknown, no local deadline".
     * The value is a snapshot; a pause right after the call may outlast it, which is what fencing tokens are for.
     *
     * @return the time left, positive while the lease is {@link LeaseState#HELD}; {@link Duration#ZERO} when the
     *         lease is not {@code HELD} (uncertain, lost or released)
     */
    Duration validFor();

    /**
     * Checks that this lease is {@link LeaseState#HELD} now, with the same local deadlines as {@link #state()};
     * call it just before a write the lock guards, and pass the {@linkplain #fencingToken() fencing token} with the
     * write (see the class comment: the check narrows the window, the token closes it). Never blocks, no I/O.
     *
     * @throws LeaseLostException if the lease is not {@code HELD}: it carries the state ({@code UNCERTAIN},
     *                            {@code LOST} or {@code RELEASED}), and its message names the lock and the state
     */
    default void checkValid() {
        LeaseState now = state();
        if (now != LeaseState.HELD) {
            throw new LeaseLostException(lockName(), now);
        }
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
     * nothing. Releasing a {@link LeaseState#LOST} lease removes nothing that belongs to a later holder, but does
     * free this lease's own server state if it is still there (a lease the client judged lost by its local
     * deadline while the server kept its session).
     *
     * <p><b>Bound.</b> It does not wait for a connection that is down: when the server cannot be told it returns
     * (or throws {@link LockConnectionException}) within the provider's release bound, for the ZooKeeper
     * providers {@code min(connectTimeout, sessionTimeout / 2)}, and the provider deletes the state when the
     * connection returns, or the session or lease end frees it.
     *
     * @throws IllegalMonitorStateException if the lease belongs to a thread-owned lock and the calling thread is
     *                                      not the one that acquired it; the lease stays held
     * @throws LockConnectionException      if the server could not be told; the lease is released locally and
     *                                      the provider deletes its state when the connection returns, or the
     *                                      server frees the lock when the session or lease ends. Never for a
     *                                      {@link LeaseState#LOST} lease
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
