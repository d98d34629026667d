package org.lockspi.internal;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;

/** The application's view of one acquisition: a {@link Hold} plus this lease's own release flag. */
final class LeaseImpl implements Lease {
    private final Hold hold;
    private final AtomicBoolean released = new AtomicBoolean();
    private final List<LeaseListener> listeners = new CopyOnWriteArrayList<>();
    /** The multi-lease this lease is a part of, which alone may release it; null for a lease of its own. */
    private volatile MultiLeaseImpl multi;

    LeaseImpl(Hold hold) {
        this.hold = hold;
    }

    @Override
    public String lockName() {
        return hold.name;
    }

    @Override
    public long fencingToken() {
        hold.service.requireFeature(LockFeature.FENCING_TOKENS, "fencing tokens");
        return hold.backendLease.fencingToken();
    }

    @Override
    public LeaseState state() {
        return released.get() ? LeaseState.RELEASED : hold.state();
    }

    @Override
    public Duration validFor() {
        hold.service.guard.lock();
        try {
            if (state() != LeaseState.HELD) {
                return Duration.ZERO;
            }
            long until = hold.backendLease.validUntilNanos();
            if (until == Long.MAX_VALUE) {
                return ChronoUnit.FOREVER.getDuration();
            }
            long left = until - System.nanoTime();
            return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
        } finally {
            hold.service.guard.unlock();
        }
    }

    @Override
    public void addListener(LeaseListener listener) {
        Objects.requireNonNull(listener, "listener is null");
        hold.service.requireFeature(LockFeature.LOST_NOTIFICATION, "lease listeners");
        hold.service.guard.lock();
        try {
            // Added under the guard of changes: a change is then told either as a change or as the
            // state found here, never both.
            listeners.add(listener);
            LeaseState now = state();
            if (now == LeaseState.UNCERTAIN || now == LeaseState.LOST) {
                hold.service.dispatch(listener, this, hold.previous(), now);
            }
        } finally {
            hold.service.guard.unlock();
        }
    }

    @Override
    public void removeListener(LeaseListener listener) {
        Objects.requireNonNull(listener, "listener is null");
        listeners.remove(listener);
    }

    /** Queues a state change for every listener, and tells the multi-lease it is part of. Caller holds the guard. */
    void fire(LeaseState previous, LeaseState current) {
        if (released.get()) {
            return;
        }
        for (LeaseListener listener : listeners) {
            hold.service.dispatch(listener, this, previous, current);
        }
        MultiLeaseImpl whole = multi;
        if (whole != null) {
            whole.partChanged();
        }
    }

    /** @return the hold behind this lease */
    Hold hold() {
        return hold;
    }

    /** Makes this lease a part of a multi-lease, which alone releases it from now on. Caller holds the guard. */
    void partOf(MultiLeaseImpl whole) {
        multi = whole;
    }

    @Override
    public void release() {
        MultiLeaseImpl whole = multi;
        if (whole != null) {
            throw new UnsupportedOperationException("the lease of '" + hold.name + "' is a part of multi-lease '"
                    + whole.lockName() + "': release the multi-lease, which releases every part");
        }
        releasePart();
    }

    /** Releases this acquisition, whether or not it is a part of a multi-lease. */
    void releasePart() {
        if (released.get() || hold.state() == LeaseState.RELEASED) {
            return; // released before, or ended by the service's close()
        }
        if (hold.owner != null && hold.owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("lease of " + hold.kind.toString().toLowerCase(java.util.Locale.ROOT)
                    + " '" + hold.name + "' belongs to thread '" + hold.owner.getName()
                    + "' and must be released by it, not by '" + Thread.currentThread().getName() + "'");
        }
        if (!released.compareAndSet(false, true)) {
            return;
        }
        hold.service.release(hold, this);
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public String toString() {
        return "Lease[" + hold.kind + " '" + hold.name + "', " + state() + "]";
    }
}
