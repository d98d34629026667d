package org.lockspi;

import java.util.Set;

/**
 * One client of a lock backend: one connection (a ZooKeeper session, a Redis connection pool) and the locks
 * handed out through it. Obtained from {@link Locks#open(String)}.
 *
 * <p><b>Clients.</b> Two services are two clients, even in one JVM: they exclude each other exactly as two
 * processes do. Reentrancy and ownership are per thread within one service.
 *
 * <p><b>Names.</b> Every provider accepts the same lock names: one to eight segments separated by {@code '/'},
 * each segment 1 to 64 characters from {@code [A-Za-z0-9_.-]}, not starting with {@code '.'}; 255 characters
 * in all. Examples: {@code orders}, {@code billing/invoice-42}, {@code jobs/nightly_report.v2}. The backend
 * maps a name under the URI's path (ZooKeeper) or key prefix (Redis). Use one name for one kind of lock: a
 * service refuses to hand out the same name as two kinds.
 *
 * <p><b>Lifecycle.</b> {@link #close()} ends every lease of the service (they turn
 * {@link LeaseState#RELEASED} and the server frees them), stops its threads, and is idempotent; afterwards
 * every method but {@link #close()}, {@link #isClosed()}, {@link #providerName()} and {@link #features()}
 * throws {@link IllegalStateException}.
 *
 * <p>Services are thread-safe. Locks whose leases belong to no thread ({@link AsyncAcquirable}) can also be
 * acquired asynchronously, in threads the service starts and {@link #close()} joins.
 */
public interface LockService extends AutoCloseable {

    /**
     * A mutex the holding thread may acquire again (hold counts).
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} breaks the name grammar, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#REENTRANT_MUTEX}
     * @throws IllegalStateException         if the service is closed
     */
    DistributedLock mutex(String name);

    /**
     * A mutex that is not reentrant: a second acquisition waits even from the holding thread, and any thread may
     * release the lease. Wire-compatible with Curator's {@code InterProcessSemaphoreMutex}.
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} breaks the name grammar, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#NON_REENTRANT_MUTEX}
     * @throws IllegalStateException         if the service is closed
     */
    AsyncAcquirable nonReentrantMutex(String name);

    /**
     * A read-write lock.
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} breaks the name grammar, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#READ_WRITE}
     * @throws IllegalStateException         if the service is closed
     */
    ReadWriteLock readWriteLock(String name);

    /**
     * A read-write lock whose leases belong to no thread (each acquisition its own, releasable by any thread, and
     * acquirable asynchronously); it excludes and shares with {@link #readWriteLock(String)} of other clients on
     * the same name. Within one service a name is either kind, not both.
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} breaks the name grammar, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#READ_WRITE}
     * @throws IllegalStateException         if the service is closed
     */
    ThreadFreeReadWriteLock threadFreeReadWriteLock(String name);

    /**
     * A counting semaphore with {@code permits} permits.
     *
     * @param name    the semaphore's name
     * @param permits how many leases may be held at once, at least 1
     * @return the semaphore; the same instance for the same name and permits
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code permits < 1}, if {@code name} breaks the name grammar, is
     *                                       in use as another kind or with other permits
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#SEMAPHORE}
     * @throws IllegalStateException         if the service is closed
     */
    Semaphore semaphore(String name, int permits);

    /** @return the name of the provider serving this service */
    String providerName();

    /** @return the features of the provider serving this service */
    Set<LockFeature> features();

    /** @return whether {@link #close()} was called */
    boolean isClosed();

    /**
     * Closes the connection; every lease of this service turns {@link LeaseState#RELEASED} (its listeners are not
     * called) and the server frees the locks. Acquisitions waiting in other threads fail. Idempotent.
     *
     * <p>It does not wait for an unreachable server past the provider's release bound (the ZooKeeper providers:
     * {@code min(connectTimeout, sessionTimeout / 2)}); the server then frees the locks when the session or the
     * lease ends.
     *
     * @throws LockConnectionException if the server could not be told to free every lock; the service is closed
     *                                 all the same
     */
    @Override
    void close();
}
