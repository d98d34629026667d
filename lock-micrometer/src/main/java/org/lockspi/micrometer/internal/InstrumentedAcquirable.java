package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.lockspi.Acquirable;
import org.lockspi.Lease;

/** An acquirable whose every attempt, and every lease it hands out, is told to its probe. */
class InstrumentedAcquirable<A extends Acquirable> implements Acquirable {
    /** One attempt on the wrapped acquirable. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws InterruptedException;
    }

    final A delegate;
    final LockProbe probe;
    final boolean notifies;
    final Set<InstrumentedLease> open;

    InstrumentedAcquirable(A delegate, LockProbe probe, boolean notifies, Set<InstrumentedLease> open) {
        this.delegate = delegate;
        this.probe = probe;
        this.notifies = notifies;
        this.open = open;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    /** The view, instrumented by this lock's probe: its attempts and leases count as the lock's. */
    @Override
    public Acquirable withLeaseTime(Duration leaseTime) {
        return new InstrumentedAcquirable<>(delegate.withLeaseTime(leaseTime), probe, notifies, open);
    }

    @Override
    public Lease acquire() throws InterruptedException {
        return acquired(delegate::acquire);
    }

    @Override
    public Lease acquire(Duration timeout) throws InterruptedException {
        return acquired(() -> delegate.acquire(timeout));
    }

    @Override
    public Optional<Lease> tryAcquire() {
        LockProbe.Attempt attempt = probe.attempt();
        Optional<Lease> lease;
        try {
            lease = delegate.tryAcquire();
        } catch (RuntimeException | Error e) {
            attempt.ended(Outcome.FAILED, e);
            throw e;
        }
        return counted(lease, attempt);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration timeout) throws InterruptedException {
        LockProbe.Attempt attempt = probe.attempt();
        return counted(record(() -> delegate.tryAcquire(timeout), attempt), attempt);
    }

    @Override
    public Lock asJavaLock() {
        return delegate.asJavaLock();
    }

    /** @return a new attempt of this lock's probe */
    LockProbe.Attempt attempt() {
        return probe.attempt();
    }

    /** @return the instrumented view of a lease an attempt got */
    Lease wrap(Lease lease, LockProbe.Attempt attempt) {
        return new InstrumentedLease(lease, attempt.acquired(lease), notifies, open);
    }

    /** Runs an acquisition that returns a lease or throws. */
    final Lease acquired(Call<? extends Lease> call) throws InterruptedException {
        LockProbe.Attempt attempt = probe.attempt();
        return wrap(record(call, attempt), attempt);
    }

    private Optional<Lease> counted(Optional<Lease> lease, LockProbe.Attempt attempt) {
        if (lease.isEmpty()) {
            attempt.ended(Outcome.TIMED_OUT, null);
            return lease;
        }
        return Optional.of(wrap(lease.get(), attempt));
    }

    /** Runs the call; ends the attempt if it throws. */
    private static <T> T record(Call<T> call, LockProbe.Attempt attempt) throws InterruptedException {
        try {
            return call.run();
        } catch (InterruptedException | RuntimeException | Error e) {
            attempt.ended(Outcome.of(e), e);
            throw e;
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
