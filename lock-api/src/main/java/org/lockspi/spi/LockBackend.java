package org.lockspi.spi;

/**
 * One connection to a lock server, opened by {@link LockProvider#open(LockUri, BackendEvents)} for one
 * {@code LockService}. The engine above it does argument checks, names, reentrancy, ownership, upgrade refusal
 * and lease state; a backend does the server work.
 *
 * <p>Thread-safe: {@link #acquire(AcquireRequest, Deadline)} is called concurrently by many threads, for the
 * same and for different names.
 */
public interface LockBackend extends AutoCloseable {

    /**
     * Acquires on the server, waiting until the deadline.
     *
     * <ul>
     *   <li>Returns within the deadline plus one server round trip. A deadline that has already passed still
     *       makes one attempt (a non-blocking try).</li>
     *   <li>When it returns null or throws, it leaves nothing behind on the server (no node, no key).</li>
     *   <li>When the thread is interrupted while waiting, it cleans up and throws {@link InterruptedException}.</li>
     *   <li>When the backend is closed while waiting, it cleans up and throws {@link IllegalStateException}.</li>
     * </ul>
     *
     * @param request  what to acquire
     * @param deadline when to give up
     * @return the lease, or null if the deadline passed first
     * @throws InterruptedException              if the thread was interrupted
     * @throws org.lockspi.LockConnectionException if the server cannot be reached or the connection failed
     * @throws IllegalStateException             if the backend is or gets closed
     */
    BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException;

    /**
     * Reads one lock's state on the server for {@code LockService.inspect} ({@code LockFeature.INSPECTION}). Reads
     * only: it acquires nothing, leaves nothing behind and sets no watch that outlives the call.
     *
     * <p>The engine has checked the name and maps the result's name; the backend reports every holder with its
     * fencing token and acquisition time where the server shows them (the engine drops the tokens of a provider
     * without {@code FENCING_TOKENS}), marks its own leases {@code own}, and counts the acquisitions waiting.
     * No state gives {@link org.lockspi.LockInfo#empty(String)}. Called concurrently from many threads.
     *
     * @param name the lock's name (the backend's key for it)
     * @return the view
     * @throws UnsupportedOperationException     by default: the provider does not declare INSPECTION
     * @throws InterruptedException              if the thread was interrupted
     * @throws org.lockspi.LockConnectionException if the server cannot be reached or the read failed
     * @throws IllegalStateException             if the backend is closed
     */
    default org.lockspi.LockInfo inspect(String name) throws InterruptedException {
        throw new UnsupportedOperationException("this backend does not support inspection (INSPECTION)");
    }

    /**
     * Lists the names (the backend's keys) of the locks that have state on the server, for {@code LockService.list}.
     * The backend may return more than those starting with {@code prefix} (the engine filters) but not fewer;
     * a backend that can narrow its walk or scan by the prefix should. Reads only.
     *
     * @param prefix {@code ""} or the start of a name in the grammar, possibly ending in {@code '/'}
     * @return the names, in any order
     * @throws UnsupportedOperationException     by default: the provider does not declare INSPECTION
     * @throws InterruptedException              if the thread was interrupted
     * @throws org.lockspi.LockConnectionException if the server cannot be reached or the read failed
     * @throws IllegalStateException             if the backend is closed
     */
    default java.util.List<String> list(String prefix) throws InterruptedException {
        throw new UnsupportedOperationException("this backend does not support inspection (INSPECTION)");
    }

    /**
     * Writes a revocation request for the holder of lock {@code name} whose lease has {@code fencingToken}
     * ({@code LockService.revoke}, {@code LockFeature.REVOCATION}), and returns without waiting for the holder: the
     * engine then reads {@link #inspect(String)} until the token is gone. Called concurrently from many threads.
     *
     * <p>A provider that declares the feature must:
     * <ul>
     *   <li>write nothing and return {@code false} if no holder of the lock has the token now;</li>
     *   <li>write nothing and throw {@link IllegalStateException} if that holder's acquisition was not
     *       {@link AcquireRequest#isRevocable() revocable} (the mark is kept with the holder's state on the server);</li>
     *   <li>otherwise put the request where the holder's client sees it within the provider's revocation bound
     *       while it is connected (a watch on the holder's node, its next renewal), carrying {@code requestedBy};</li>
     *   <li>never free the lock itself: on the holder's side the backend, once it sees the request for one of its
     *       leases, marks it {@link BackendLease#isLost() lost}, calls
     *       {@link BackendEvents#leaseLost(BackendLease, String)} with {@code "revoked at the request of "} and the
     *       requester, and only then frees the acquisition's state as {@link BackendLease#release()} would (a later
     *       {@code release()} of it does nothing). A holder that never sees the request keeps the lock until its
     *       session or lease ends.</li>
     * </ul>
     *
     * @param name         the lock's backend key
     * @param fencingToken the token of the lease to end, at least 0
     * @param requestedBy  who asks, checked by the engine (not blank, no line breaks, at most 200 characters)
     * @return whether a holder with that token was found and asked
     * @throws UnsupportedOperationException     by default: the provider does not declare REVOCATION
     * @throws IllegalStateException             if the holder did not opt in, or the backend is closed
     * @throws InterruptedException              if the thread was interrupted
     * @throws org.lockspi.LockConnectionException if the server cannot be reached or the request failed
     */
    default boolean revoke(String name, long fencingToken, String requestedBy) throws InterruptedException {
        throw new UnsupportedOperationException("this backend does not support revocation (REVOCATION)");
    }

    /**
     * Closes the connection and stops the backend's threads; the server frees every lease (ZooKeeper: the session
     * ends; Redis: the keys are deleted). Waiting acquisitions fail. Idempotent.
     */
    @Override
    void close();
}
