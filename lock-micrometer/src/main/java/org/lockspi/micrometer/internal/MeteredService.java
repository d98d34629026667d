package org.lockspi.micrometer.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.AsyncAcquirable;
import org.lockspi.ConnectionState;
import org.lockspi.DistributedLock;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.DistributedSemaphore;
import org.lockspi.ThreadFreeReadWriteLock;

/** The metered view of a service: each handle of the wrapped service gets one metered handle. */
public final class MeteredService implements LockService {
    private final LockService delegate;
    private final Meters meters;
    private final Map<Object, Object> handles = new ConcurrentHashMap<>(); // wrapped handle -> view

    /**
     * @param delegate the service to meter
     * @param meters   its meters
     */
    public MeteredService(LockService delegate, Meters meters) {
        this.delegate = delegate;
        this.meters = meters;
    }

    private boolean notifies() {
        return delegate.features().contains(LockFeature.LOST_NOTIFICATION);
    }

    @Override
    public DistributedLock mutex(String name) {
        DistributedLock lock = delegate.mutex(name);
        return (DistributedLock) handles.computeIfAbsent(lock,
                l -> new MeteredLock(lock, meters.lock(name, "mutex"), notifies()));
    }

    @Override
    public AsyncAcquirable nonReentrantMutex(String name) {
        AsyncAcquirable lock = delegate.nonReentrantMutex(name);
        return (AsyncAcquirable) handles.computeIfAbsent(lock,
                l -> new MeteredAsyncAcquirable<>(lock, meters.lock(name, "non_reentrant_mutex"), notifies()));
    }

    @Override
    public ThreadFreeReadWriteLock threadFreeReadWriteLock(String name) {
        ThreadFreeReadWriteLock lock = delegate.threadFreeReadWriteLock(name);
        return (ThreadFreeReadWriteLock) handles.computeIfAbsent(lock, l -> new ThreadFreeReadWriteLock() {
            private final AsyncAcquirable read =
                    new MeteredAsyncAcquirable<>(lock.readLock(), meters.lock(name, "read"), notifies());
            private final AsyncAcquirable write =
                    new MeteredAsyncAcquirable<>(lock.writeLock(), meters.lock(name, "write"), notifies());

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
                    new MeteredLock(lock.readLock(), meters.lock(name, "read"), notifies());
            private final DistributedLock write =
                    new MeteredLock(lock.writeLock(), meters.lock(name, "write"), notifies());

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
                l -> new MeteredSemaphore(semaphore, meters.lock(name, "semaphore"), notifies()));
    }

    /** Inspection reads the server's view; it is not metered. */
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
        delegate.close();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }

    /** A metered reentrant lock or half of a read-write lock. */
    private static final class MeteredLock extends MeteredAcquirable<DistributedLock> implements DistributedLock {
        MeteredLock(DistributedLock delegate, LockMeters meters, boolean notifies) {
            super(delegate, meters, notifies);
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

    /** A metered semaphore. */
    private static final class MeteredSemaphore extends MeteredAsyncAcquirable<DistributedSemaphore> implements DistributedSemaphore {
        MeteredSemaphore(DistributedSemaphore delegate, LockMeters meters, boolean notifies) {
            super(delegate, meters, notifies);
        }

        @Override
        public int permits() {
            return delegate.permits();
        }
    }
}
