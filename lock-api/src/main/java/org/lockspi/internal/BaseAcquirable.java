package org.lockspi.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockException;
import org.lockspi.LockTimeoutException;
import org.lockspi.spi.Deadline;

/**
 * The four ways to acquire, and the Lock view, on top of one primitive: acquire by a deadline or give up. One
 * lock ({@link AbstractAcquirable}) and a multi-lock ({@link MultiLockImpl}) share them.
 *
 * @param <L> the lease an acquisition returns
 */
abstract class BaseAcquirable<L extends Lease> implements Acquirable {
    private final JavaLockAdapter javaLock = new JavaLockAdapter(this);

    /**
     * Acquires by the deadline.
     *
     * @return the lease, or null if the deadline passed first
     */
    abstract L acquire(Deadline deadline) throws InterruptedException;

    @Override
    public final L acquire() throws InterruptedException {
        L lease = acquire(Deadline.none());
        if (lease == null) {
            throw new IllegalStateException("backend gave up an acquisition without deadline: '" + name() + "'");
        }
        return lease;
    }

    @Override
    public final L acquire(Duration timeout) throws InterruptedException {
        Names.checkTimeout(timeout);
        L lease = acquire(Deadline.after(timeout));
        if (lease == null) {
            throw new LockTimeoutException(name(), timeout);
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
            throw new LockException("interrupted during a non-blocking attempt on '" + name() + "'", e);
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
