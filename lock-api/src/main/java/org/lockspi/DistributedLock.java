package org.lockspi;

/**
 * A lock owned by a thread: the {@linkplain LockService#mutex(String) reentrant mutex} or one half of a
 * {@linkplain LockService#readWriteLock(String) read-write lock}.
 *
 * <p>The thread that holds it may acquire it again; each acquisition returns a lease that must be released by
 * that thread, and the lock is freed on the server when the last one is. Ownership is per thread and per
 * {@link LockService}: two services in one JVM are two clients and exclude each other like two processes.
 *
 * <p>It has no asynchronous form: a lease that belongs to a thread cannot be waited for by another. The
 * non-reentrant mutex, the semaphore and {@link LockService#threadFreeReadWriteLock(String)} are thread-free and
 * {@link AsyncAcquirable}.
 */
public interface DistributedLock extends Acquirable {

    /**
     * {@inheritDoc} {@link #isHeldByCurrentThread()} and {@link #holdCount()} of the view are those of the lock:
     * the calling thread's holds through the lock and all its views.
     */
    @Override
    DistributedLock withLeaseTime(java.time.Duration leaseTime);

    /** @return whether the calling thread holds this lock through this service, in a state other than LOST */
    boolean isHeldByCurrentThread();

    /** @return how many unreleased leases the calling thread has on this lock through this service */
    int holdCount();
}
