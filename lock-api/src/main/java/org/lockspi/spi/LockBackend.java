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
     * Closes the connection and stops the backend's threads; the server frees every lease (ZooKeeper: the session
     * ends; Redis: the keys are deleted). Waiting acquisitions fail. Idempotent.
     */
    @Override
    void close();
}
