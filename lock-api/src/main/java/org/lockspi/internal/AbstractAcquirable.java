package org.lockspi.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockException;
import org.lockspi.LockTimeoutException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKeys;

/** The four ways to acquire, and the Lock view, on top of one primitive: acquire by a deadline or give up. */
abstract class AbstractAcquirable implements Acquirable {
    final EngineService service;
    final String name;
    /** The backend key of {@link #name}: what every {@link AcquireRequest} of this lock names. */
    final String key;
    private final JavaLockAdapter javaLock = new JavaLockAdapter(this);

    AbstractAcquirable(EngineService service, String name) {
        this.service = service;
        this.name = name;
        this.key = LockKeys.key(name);
    }

    /**
     * Acquires by the deadline.
     *
     * @return the lease, or null if the deadline passed first
     */
    abstract LeaseImpl acquire(Deadline deadline) throws InterruptedException;

    /**
     * The common path to the backend: refuses a closed service or an interrupted thread, then asks.
     *
     * @return the backend lease, or null if the deadline passed first
     */
    final BackendLease acquireFromBackend(AcquireRequest request, Deadline deadline) throws InterruptedException {
        service.checkOpen();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring " + request);
        }
        try {
            return service.backend().acquire(request, deadline);
        } catch (InterruptedException e) {
            Thread.interrupted(); // the API promises a cleared flag, whatever the backend left
            throw e;
        }
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Lease acquire() throws InterruptedException {
        LeaseImpl lease = acquire(Deadline.none());
        if (lease == null) {
            throw new IllegalStateException("backend gave up an acquisition without deadline: '" + name + "'");
        }
        return lease;
    }

    @Override
    public final Lease acquire(Duration timeout) throws InterruptedException {
        Names.checkTimeout(timeout);
        LeaseImpl lease = acquire(Deadline.after(timeout));
        if (lease == null) {
            throw new LockTimeoutException(name, timeout);
        }
        return lease;
    }

    @Override
    public final Optional<Lease> tryAcquire() {
        // Like Lock.tryLock(): one attempt whatever the interrupt flag says; the flag is kept as it was.
        boolean interrupted = Thread.interrupted();
        try {
            return Optional.ofNullable(acquire(Deadline.after(Duration.ZERO)));
        } catch (InterruptedException e) {
            interrupted = true;
            throw new LockException("interrupted during a non-blocking attempt on '" + name + "'", e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public final Optional<Lease> tryAcquire(Duration timeout) throws InterruptedException {
        Names.checkTimeout(timeout);
        return Optional.ofNullable(acquire(Deadline.after(timeout)));
    }

    @Override
    public final Lock asJavaLock() {
        return javaLock;
    }
}
