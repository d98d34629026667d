package org.lockspi.micrometer.internal;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.AsyncAcquirable;
import org.lockspi.ConnectionState;
import org.lockspi.DistributedLock;
import org.lockspi.LockFeature;
import org.lockspi.LockPart;
import org.lockspi.LockService;
import org.lockspi.MultiLock;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.DistributedSemaphore;
import org.lockspi.ThreadFreeReadWriteLock;

/**
 * The instrumented view of a service: each handle of the wrapped service gets one instrumented handle, whose
 * attempts and leases are told to the probe of its lock (meters, or observations: {@link Probes}).
 */
public final class InstrumentedService implements LockService {
    private final LockService delegate;
    private final Probes probes;
    private final Map<Object, Object> handles = new ConcurrentHashMap<>(); // wrapped handle -> view
    private final Set<InstrumentedLease> open = ConcurrentHashMap.newKeySet(); // leases not yet ended

    /**
     * @param delegate the service to instrument
     * @param probes   where the probe of each lock comes from
     */
    public InstrumentedService(LockService delegate, Probes probes) {
        this.delegate = delegate;
        this.probes = probes;
    }

    /**
     * The check of a binding's service name, for every builder.
     *
     * @return the name
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public static String serviceName(String name) {
        java.util.Objects.requireNonNull(name, "service name is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("service name is blank: '" + name + "'");
        }
        return name;
    }

    private boolean notifies() {
        return delegate.features().contains(LockFeature.LOST_NOTIFICATION);
    }

    @Override
    public DistributedLock mutex(String name) {
        DistributedLock lock = delegate.mutex(name);
        return (DistributedLock) handles.computeIfAbsent(lock,
                l -> new InstrumentedLock(lock, probes.lock(name, "mutex"), notifies(), open));
    }

    @Override
    public AsyncAcquirable nonReentrantMutex(String name) {
        AsyncAcquirable lock = delegate.nonReentrantMutex(name);
        return (AsyncAcquirable) handles.computeIfAbsent(lock,
                l -> new InstrumentedAsyncAcquirable<>(lock, probes.lock(name, "non_reentrant_mutex"), notifies(), open));
    }

    @Override
    public ThreadFreeReadWriteLock threadFreeReadWriteLock(String name) {
        ThreadFreeReadWriteLock lock = delegate.threadFreeReadWriteLock(name);
        return (ThreadFreeReadWriteLock) handles.computeIfAbsent(lock, l -> new ThreadFreeReadWriteLock() {
            private final AsyncAcquirable read =
                    new InstrumentedAsyncAcquirable<>(lock.readLock(), probes.lock(name, "read"), notifies(), open);
            private final AsyncAcquirable write =
                    new InstrumentedAsyncAcquirable<>(lock.writeLock(), probes.lock(name, "write"), notifies(), open);

            @Override
            public String name() {
                return lock.name();
            }

            @Override
            public AsyncAcquirable readLock() {
                return read;
            }

            @Override
            public AsyncAcquirable writeLock() {
                return write;
            }

            @Override
            public String toString() {
                return lock.toString();
            }
        });
    }

    @Override
    public DistributedReadWriteLock readWriteLock(String name) {
        DistributedReadWriteLock lock = delegate.readWriteLock(name);
        return (DistributedReadWriteLock) handles.computeIfAbsent(lock, l -> new DistributedReadWriteLock() {
            private final DistributedLock read =
                    new InstrumentedLock(lock.readLock(), probes.lock(name, "read"), notifies(), open);
            private final DistributedLock write =
                    new InstrumentedLock(lock.writeLock(), probes.lock(name, "write"), notifies(), open);

            @Override
            public String name() {
                return lock.name();
            }

            @Override
            public DistributedLock readLock() {
                return read;
            }

            @Override
            public DistributedLock writeLock() {
                return write;
            }

            @Override
            public String toString() {
                return lock.toString();
            }
        });
    }

    @Override
    public DistributedSemaphore semaphore(String name, int permits) {
        DistributedSemaphore semaphore = delegate.semaphore(name, permits);
        return (DistributedSemaphore) handles.computeIfAbsent(semaphore,
                l -> new InstrumentedSemaphore(semaphore, probes.lock(name, "semaphore"), notifies(), open));
    }

    /** A multi-lock is one lock here: one attempt and one hold for its whole set, kind {@code multi}. */
    @Override
    public MultiLock multiLock(Collection<LockPart> parts) {
        MultiLock lock = delegate.multiLock(parts);
        return new InstrumentedMultiLock(lock, probes.lock(lock.name(), "multi"), notifies(), open);
    }

    /** Inspection reads the server's view; it is not instrumented. */
    @Override
    public boolean revoke(String name, long fencingToken, java.time.Duration timeout, String requestedBy) {
        return delegate.revoke(name, fencingToken, timeout, requestedBy);
    }

    @Override
    public org.lockspi.LockInfo inspect(String name) {
        return delegate.inspect(name);
    }

    @Override
    public java.util.List<String> list(String prefix) {
        return delegate.list(prefix);
    }

    @Override
    public String providerName() {
        return delegate.providerName();
    }

    @Override
    public Set<LockFeature> features() {
        return delegate.features();
    }

    @Override
    public boolean isClosed() {
        return delegate.isClosed();
    }

    @Override
    public ConnectionState connectionState() {
        return delegate.connectionState();
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } finally {
            for (InstrumentedLease lease : open) {
                lease.end(true); // ended by the close, not by a release
            }
            probes.serviceClosed();
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }

    /** An instrumented reentrant lock or half of a read-write lock. */
    private static final class InstrumentedLock extends InstrumentedAcquirable<DistributedLock>
            implements DistributedLock {
        InstrumentedLock(DistributedLock delegate, LockProbe probe, boolean notifies, Set<InstrumentedLease> open) {
            super(delegate, probe, notifies, open);
        }

        @Override
        public DistributedLock withLeaseTime(java.time.Duration leaseTime) {
            return new InstrumentedLock(delegate.withLeaseTime(leaseTime), probe, notifies, open);
        }

        @Override
        public boolean isHeldByCurrentThread() {
            return delegate.isHeldByCurrentThread();
        }

        @Override
        public int holdCount() {
            return delegate.holdCount();
        }
    }

    /** An instrumented semaphore. */
    private static final class InstrumentedSemaphore extends InstrumentedAsyncAcquirable<DistributedSemaphore>
            implements DistributedSemaphore {
        InstrumentedSemaphore(DistributedSemaphore delegate, LockProbe probe, boolean notifies,
                              Set<InstrumentedLease> open) {
            super(delegate, probe, notifies, open);
        }

        @Override
        public DistributedSemaphore withLeaseTime(java.time.Duration leaseTime) {
            return new InstrumentedSemaphore(delegate.withLeaseTime(leaseTime), probe, notifies, open);
        }

        @Override
        public int permits() {
            return delegate.permits();
        }
    }
}
