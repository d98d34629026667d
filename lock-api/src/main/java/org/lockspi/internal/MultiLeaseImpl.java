package org.lockspi.internal;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.MultiLease;

/**
 * The lease over every part of a multi-lock. Its state is the worst of the parts'; the parts tell it of their
 * changes under the service's guard ({@link LeaseImpl#fire}), so its listeners are queued on the service's event
 * thread in order with theirs, exactly as a lease's own are.
 */
final class MultiLeaseImpl implements MultiLease {
    private final EngineService service;
    private final String name;
    private final List<LeaseImpl> parts;
    /** The thread that acquired it, if a part is thread-owned; else null (any thread may release). */
    private final Thread owner;
    private final AtomicBoolean released = new AtomicBoolean();
    private final List<LeaseListener> listeners = new CopyOnWriteArrayList<>();
    // guarded by the service's guard: the worst state last told to the listeners, and the one before it
    private LeaseState told;
    private LeaseState previous;

    MultiLeaseImpl(EngineService service, String name, List<LeaseImpl> parts, Thread owner) {
        this.service = service;
        this.name = name;
        this.parts = List.copyOf(parts);
        this.owner = owner;
        service.guard.lock();
        try {
            for (LeaseImpl part : this.parts) {
                part.partOf(this);
            }
            told = worstStored();
            previous = told;
        } finally {
            service.guard.unlock();
        }
    }

    /** LOST before RELEASED (the service closed) before UNCERTAIN before HELD: {@code LOST} is final. */
    private static int rank(LeaseState state) {
        switch (state) {
            case LOST:
                return 3;
            case RELEASED:
                return 2;
            case UNCERTAIN:
                return 1;
            default:
                return 0;
        }
    }

    /** @return the worst of the parts' states as last worked out, without the clock. Caller holds the guard. */
    private LeaseState worstStored() {
        LeaseState worst = LeaseState.HELD;
        for (LeaseImpl part : parts) {
            LeaseState state = part.hold().storedState();
            if (rank(state) > rank(worst)) {
                worst = state;
            }
        }
        return worst;
    }

    /** A part changed: tells the listeners if the worst state did. Caller holds the service's guard. */
    void partChanged() {
        if (released.get() || told.isTerminal()) {
            return;
        }
        LeaseState now = worstStored();
        if (now == told) {
            return;
        }
        previous = told;
        told = now;
        if (now != LeaseState.RELEASED) { // the service closing: listeners are not told of a release
            for (LeaseListener listener : listeners) {
                service.dispatch(listener, this, previous, now);
            }
        }
    }

    @Override
    public String lockName() {
        return name;
    }

    @Override
    public long fencingToken() {
        throw new UnsupportedOperationException("multi-lease '" + name + "' has no fencing token of its own: a "
                + "token orders the holders of one lock, so pass each resource the token of the part that guards it "
                + "(part(name).fencingToken())");
    }

    @Override
    public List<Lease> parts() {
        return List.copyOf(parts);
    }

    @Override
    public Lease part(String lockName) {
        Objects.requireNonNull(lockName, "lockName is null");
        for (LeaseImpl part : parts) {
            if (part.lockName().equals(lockName)) {
                return part;
            }
        }
        throw new IllegalArgumentException("'" + lockName + "' is not a part of multi-lease '" + name + "'; its parts: "
                + parts.stream().map(Lease::lockName).collect(Collectors.toList()));
    }

    @Override
    public LeaseState state() {
        if (released.get()) {
            return LeaseState.RELEASED;
        }
        LeaseState worst = LeaseState.HELD;
        for (LeaseImpl part : parts) {
            LeaseState state = part.state(); // brings the part up to the clock: a change tells partChanged()
            if (rank(state) > rank(worst)) {
                worst = state;
            }
        }
        return worst;
    }

    @Override
    public Duration validFor() {
        service.guard.lock();
        try {
            if (state() != LeaseState.HELD) {
                return Duration.ZERO;
            }
            Duration shortest = ChronoUnit.FOREVER.getDuration();
            for (LeaseImpl part : parts) {
                Duration left = part.validFor();
                if (left.compareTo(shortest) < 0) {
                    shortest = left;
                }
            }
            return shortest;
        } finally {
            service.guard.unlock();
        }
    }

    /** Names the part in the worst state (or this lease, once released), with that state. */
    @Override
    public void checkValid() {
        if (released.get()) {
            throw new LeaseLostException(name, LeaseState.RELEASED);
        }
        Lease worst = null;
        LeaseState worstState = LeaseState.HELD;
        for (LeaseImpl part : parts) {
            LeaseState state = part.state();
            if (rank(state) > rank(worstState)) {
                worst = part;
                worstState = state;
            }
        }
        if (worst != null) {
            throw new LeaseLostException(worst.lockName(), worstState);
        }
    }

    @Override
    public void addListener(LeaseListener listener) {
        Objects.requireNonNull(listener, "listener is null");
        service.requireFeature(LockFeature.LOST_NOTIFICATION, "lease listeners");
        service.guard.lock();
        try {
            // Under the guard: the parts are brought up to the clock first (a change found now is told to the
            // listeners there were), then the new listener hears the state as found, or later changes, not both.
            state();
            listeners.add(listener);
            if (!released.get() && (told == LeaseState.UNCERTAIN || told == LeaseState.LOST)) {
                service.dispatch(listener, this, previous, told);
            }
        } finally {
            service.guard.unlock();
        }
    }

    @Override
    public void removeListener(LeaseListener listener) {
        Objects.requireNonNull(listener, "listener is null");
        listeners.remove(listener);
    }

    @Override
    public void release() {
        if (released.get() || state() == LeaseState.RELEASED) {
            return; // released before, or ended by the service's close()
        }
        if (owner != null && owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("multi-lease '" + name + "' has a part owned by thread '"
                    + owner.getName() + "' and must be released by it, not by '" + Thread.currentThread().getName()
                    + "'");
        }
        if (!released.compareAndSet(false, true)) {
            return;
        }
        RuntimeException failure = null;
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).releasePart();
            } catch (RuntimeException e) { // every part is attempted; the first failure carries the others
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public String toString() {
        return "MultiLease['" + name + "', " + state() + "]";
    }
}
