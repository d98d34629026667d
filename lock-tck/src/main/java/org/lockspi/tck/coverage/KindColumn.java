package org.lockspi.tck.coverage;

import java.util.Locale;
import org.lockspi.LockFeature;

/**
 * The kinds of lock a rule may apply to: the columns of the kit's coverage matrix (docs/spec.md, "Rules by lock
 * kind and queue shape"). The thread-bound kinds reach a backend as their own request; the thread-free read-write
 * lock and the asynchronous acquisitions are the engine's paths to the same requests, columns of their own because
 * the engine queues, gates and releases them apart.
 */
public enum KindColumn {
    /** {@code mutex(name)}: reentrant, owned by a thread. */
    MUTEX("mutex", LockFeature.REENTRANT_MUTEX),
    /** {@code nonReentrantMutex(name)}: a lease no thread owns. */
    NON_REENTRANT_MUTEX("nrm", LockFeature.NON_REENTRANT_MUTEX),
    /** The read half of {@code readWriteLock(name)}: shared, owned by a thread. */
    READ("read", LockFeature.READ_WRITE),
    /** The write half of {@code readWriteLock(name)}: exclusive, owned by a thread. */
    WRITE("write", LockFeature.READ_WRITE),
    /** {@code semaphore(name, permits)}: leases no thread owns, one permit each. */
    SEMAPHORE("sem", LockFeature.SEMAPHORE),
    /** Either half of {@code threadFreeReadWriteLock(name)}: the read-write lock whose leases no thread owns. */
    THREAD_FREE("tfree", LockFeature.READ_WRITE),
    /** {@code acquireAsync} and {@code tryAcquireAsync} of an {@code AsyncAcquirable}: a future, its own thread. */
    ASYNC("async", null);

    private final String label;
    private final LockFeature feature;

    KindColumn(String label, LockFeature feature) {
        this.label = label;
        this.feature = feature;
    }

    /** @return the column's short heading in the conformance report */
    public String label() {
        return label;
    }

    /**
     * @return the feature a provider declares for this kind; null for {@link #ASYNC}, which any of
     *         NON_REENTRANT_MUTEX, SEMAPHORE and READ_WRITE offers
     */
    public LockFeature feature() {
        return feature;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
