package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;

/** A lease that records its hold time when released; its listeners see this view. */
final class MeteredLease implements Lease {
    private final Lease delegate;
    private final LockMeters meters;
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Map<LeaseListener, LeaseListener> listeners = new ConcurrentHashMap<>();

    MeteredLease(Lease delegate, LockMeters meters, boolean notifies) {
        this.delegate = delegate;
        this.meters = meters;
        meters.started(this);
        if (notifies) {
            delegate.addListener((lease, previous, current) -> meters.transition(current));
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
            end(); // released locally all the same
            throw e;
        }
        end();
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            meters.released(this, System.nanoTime() - startNanos);
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
