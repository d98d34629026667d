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
     * Closes the connection and stops the backend's threads; the server frees every lease (ZooKeeper: the session
     * ends; Redis: the keys are deleted). Waiting acquisitions fail. Idempotent.
     */
    @Override
    void close();
}
