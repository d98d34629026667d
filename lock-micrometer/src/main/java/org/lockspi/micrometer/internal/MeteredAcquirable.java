package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockTimeoutException;
import org.lockspi.micrometer.internal.LockMeters.Outcome;

/** An acquirable whose every attempt is timed by outcome and whose leases are metered. */
class MeteredAcquirable<A extends Acquirable> implements Acquirable {
    /** One attempt on the wrapped acquirable. */
    @FunctionalInterface
    private interface Attempt<T> {
        T run() throws InterruptedException;
    }

    final A delegate;
    private final LockMeters meters;
    private final boolean notifies;

    MeteredAcquirable(A delegate, LockMeters meters, boolean notifies) {
        this.delegate = delegate;
        this.meters = meters;
        this.notifies = notifies;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return timed(delegate::acquire);
    }

    @Override
    public Lease acquire(Duration timeout) throws InterruptedException {
        return timed(() -> delegate.acquire(timeout));
    }

    @Override
    public Optional<Lease> tryAcquire() {
        long start = System.nanoTime();
        Optional<Lease> lease;
        try {
            lease = delegate.tryAcquire();
        } catch (RuntimeException | Error e) {
            meters.attempt(Outcome.FAILED, start);
            throw e;
        }
        return counted(lease, start);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration timeout) throws InterruptedException {
        return timedOptional(() -> delegate.tryAcquire(timeout));
    }

    @Override
    public Lock asJavaLock() {
        return delegate.asJavaLock();
    }

    /** @return this lock's meters */
    LockMeters meters() {
        return meters;
    }

    /** @return the metered view of a lease acquired through this lock */
    Lease metered(Lease lease) {
        return new MeteredLease(lease, meters, notifies);
    }

    private Lease timed(Attempt<Lease> attempt) throws InterruptedException {
        long start = System.nanoTime();
        Lease lease = record(attempt, start);
        meters.attempt(Outcome.ACQUIRED, start);
        return new MeteredLease(lease, meters, notifies);
    }

    private Optional<Lease> timedOptional(Attempt<Optional<Lease>> attempt) throws InterruptedException {
        long start = System.nanoTime();
        return counted(record(attempt, start), start);
    }

    private Optional<Lease> counted(Optional<Lease> lease, long start) {
        meters.attempt(lease.isPresent() ? Outcome.ACQUIRED : Outcome.TIMED_OUT, start);
        return lease.map(l -> new MeteredLease(l, meters, notifies));
    }

    /** Runs the attempt; records it if it throws. */
    private <T> T record(Attempt<T> attempt, long start) throws InterruptedException {
        try {
            return attempt.run();
        } catch (InterruptedException e) {
            meters.attempt(Outcome.INTERRUPTED, start);
            throw e;
        } catch (LockTimeoutException e) {
            meters.attempt(Outcome.TIMED_OUT, start);
            throw e;
        } catch (RuntimeException | Error e) {
            meters.attempt(Outcome.FAILED, start);
            throw e;
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
