package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;

/** A lease that tells its probe of its state changes and its end; its listeners see this view. */
class InstrumentedLease implements Lease {
    final Lease delegate;
    private final LockProbe.Hold hold;
    private final Set<InstrumentedLease> open;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Map<LeaseListener, LeaseListener> listeners = new ConcurrentHashMap<>();

    /**
     * @param open the view's leases not yet ended, to which this one adds itself (the close of the view ends them)
     */
    InstrumentedLease(Lease delegate, LockProbe.Hold hold, boolean notifies, Set<InstrumentedLease> open) {
        this.delegate = delegate;
        this.hold = hold;
        this.open = open;
        open.add(this);
        if (notifies) {
            delegate.addListener((lease, previous, current) -> hold.transition(current));
        }
    }

    @Override
    public String lockName() {
        return delegate.lockName();
    }

    @Override
    public long fencingToken() {
        return delegate.fencingToken();
    }

    @Override
    public LeaseState state() {
        return delegate.state();
    }

    @Override
    public Duration validFor() {
        return delegate.validFor();
    }

    @Override
    public void checkValid() {
        delegate.checkValid();
    }

    @Override
    public void addListener(LeaseListener listener) {
        java.util.Objects.requireNonNull(listener, "listener is null");
        LeaseListener wrapper = listeners.computeIfAbsent(listener,
                l -> (lease, previous, current) -> l.stateChanged(this, previous, current));
        try {
            delegate.addListener(wrapper);
        } catch (RuntimeException e) {
            listeners.remove(listener, wrapper); // UnsupportedOperationException: nothing added
            throw e;
        }
    }

    @Override
    public void removeListener(LeaseListener listener) {
        java.util.Objects.requireNonNull(listener, "listener is null");
        LeaseListener wrapper = listeners.remove(listener);
        if (wrapper != null) {
            delegate.removeListener(wrapper);
        }
    }

    @Override
    public void release() {
        try {
            delegate.release(); // IllegalMonitorStateException: not released, nothing recorded
        } catch (LockConnectionException e) {
            end(false); // released locally all the same
            throw e;
        }
        end(false);
    }

    /** Ends the hold once: released through the view, or (closing) ended by the close of its service. */
    void end(boolean closing) {
        if (ended.compareAndSet(false, true)) {
            open.remove(this);
            if (closing) {
                hold.closed();
            } else {
                hold.released();
            }
        }
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
