package org.lockspi.tck.coverage;

import java.util.Locale;

/**
 * The kinds of lock a rule may apply to: the columns of the kit's coverage matrix (docs/spec.md, "Rules by lock
 * kind and queue shape"). The thread-bound kinds reach a backend as their own request; the thread-free read-write
 * lock and the asynchronous acquisitions are the engine's paths to the same requests, columns of their own because
 * the engine queues, gates and releases them apart.
 */
public enum KindColumn {
    /** {@code mutex(name)}: reentrant, owned by a thread. */
    MUTEX("mutex"),
    /** {@code nonReentrantMutex(name)}: a lease no thread owns. */
    NON_REENTRANT_MUTEX("nrm"),
    /** The read half of {@code readWriteLock(name)}: shared, owned by a thread. */
    READ("read"),
    /** The write half of {@code readWriteLock(name)}: exclusive, owned by a thread. */
    WRITE("write"),
    /** {@code semaphore(name, permits)}: leases no thread owns, one permit each. */
    SEMAPHORE("sem"),
    /** Either half of {@code threadFreeReadWriteLock(name)}: the read-write lock whose leases no thread owns. */
    THREAD_FREE("tfree"),
    /** {@code acquireAsync} and {@code tryAcquireAsync} of an {@code AsyncAcquirable}: a future, its own thread. */
    ASYNC("async");

    private final String label;

    KindColumn(String label) {
        this.label = label;
    }

    /** @return the column's short heading in the conformance report */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
