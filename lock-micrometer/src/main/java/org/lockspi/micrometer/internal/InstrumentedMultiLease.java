package org.lockspi.micrometer.internal;

import java.util.List;
import java.util.Set;
import org.lockspi.Lease;
import org.lockspi.MultiLease;

/** An instrumented multi-lease: one hold for the whole set; its parts are the wrapped multi-lease's. */
final class InstrumentedMultiLease extends InstrumentedLease implements MultiLease {
    InstrumentedMultiLease(MultiLease delegate, LockProbe.Hold hold, boolean notifies, Set<InstrumentedLease> open) {
        super(delegate, hold, notifies, open);
    }

    @Override
    public List<Lease> parts() {
        return ((MultiLease) delegate).parts();
    }

    @Override
    public Lease part(String name) {
        return ((MultiLease) delegate).part(name);
    }
}
