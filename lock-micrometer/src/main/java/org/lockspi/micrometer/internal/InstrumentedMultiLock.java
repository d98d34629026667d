package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.lockspi.Lease;
import org.lockspi.LockPart;
import org.lockspi.MultiLease;
import org.lockspi.MultiLock;

/** An instrumented multi-lock: one attempt and one hold for the whole set, named as the multi-lock is. */
final class InstrumentedMultiLock extends InstrumentedAcquirable<MultiLock> implements MultiLock {

    InstrumentedMultiLock(MultiLock delegate, LockProbe probe, boolean notifies, Set<InstrumentedLease> open) {
        super(delegate, probe, notifies, open);
    }

    @Override
    public MultiLock withLeaseTime(Duration leaseTime) {
        return new InstrumentedMultiLock(delegate.withLeaseTime(leaseTime), probe, notifies, open);
    }

    @Override
    public List<LockPart> parts() {
        return delegate.parts();
    }

    @Override
    public MultiLease acquire() throws InterruptedException {
        return (MultiLease) acquired(delegate::acquire);
    }

    @Override
    public MultiLease acquire(Duration timeout) throws InterruptedException {
        return (MultiLease) acquired(() -> delegate.acquire(timeout));
    }

    @Override
    Lease wrap(Lease lease, LockProbe.Attempt attempt) {
        return new InstrumentedMultiLease((MultiLease) lease, attempt.acquired(lease), notifies, open);
    }
}
