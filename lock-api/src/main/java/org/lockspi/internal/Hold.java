package org.lockspi.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.lockspi.LeaseState;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One acquisition on the server and the leases that share it: one lease for a lease-style lock, one per
 * nested acquisition for a thread-owned lock. State changes are guarded by the service's guard.
 */
final class Hold {
    final EngineService service;
    final LockKind kind;
    final String name;
    final BackendLease backendLease;
    /** The owning thread for thread-owned kinds, else null (any thread may release). */
    final Thread owner;
    /** Where this hold is registered per thread, for thread-owned kinds; else null. */
    final ThreadOwnedLock lock;
    /** Run once when the hold ends (released, lost or closed): frees its place in a local gate; or null. */
    private final AtomicReference<Runnable> onEnd;
    /** The acquisition's own lease time, for the log of its end; null for none. */
    final java.time.Duration leaseTime;

    // guarded by service
    private LeaseState state;
    private LeaseState previous;
    private final List<LeaseImpl> leases = new ArrayList<>(1);

    Hold(EngineService service, LockKind kind, String name, BackendLease backendLease, Thread owner,
         ThreadOwnedLock lock, LeaseState initial, Runnable onEnd, java.time.Duration leaseTime) {
        this.service = service;
        this.kind = kind;
        this.name = name;
        this.backendLease = backendLease;
        this.owner = owner;
        this.lock = lock;
        this.onEnd = new AtomicReference<>(onEnd);
        this.leaseTime = leaseTime;
        this.state = initial;
        this.previous = initial;
    }

    /** @return the current state, with the backend's deadlines compared with the clock now */
    LeaseState state() {
        service.guard.lock();
        try {
            service.refresh(this, System.nanoTime());
            return state;
        } finally {
            service.guard.unlock();
        }
    }

    /** @return the state as last worked out, without looking at the clock. Caller holds the service's guard. */
    LeaseState storedState() {
        return state;
    }

    /** @return whether the monotonic instant {@code until} has come; {@link Long#MAX_VALUE} never comes */
    static boolean reached(long now, long until) {
        return until != Long.MAX_VALUE && now - until >= 0;
    }

    /**
     * The state the backend lease and the clock call for now, ignoring the current state.
     *
     * @param suspended whether the connection is suspended
     */
    LeaseState due(long now, boolean suspended) {
        return due(backendLease, now, suspended);
    }

    /** {@link #due(long, boolean)} for a backend lease not yet wrapped in a hold. */
    static LeaseState due(BackendLease backendLease, long now, boolean suspended) {
        if (backendLease.isLost() || reached(now, backendLease.validUntilNanos())) {
            return LeaseState.LOST;
        }
        return suspended || reached(now, backendLease.confirmedUntilNanos()) ? LeaseState.UNCERTAIN : LeaseState.HELD;
    }

    /**
     * The next instant at which {@link #due} may change without any event, or {@link Long#MAX_VALUE}.
     * Caller holds the service's guard.
     */
    long nextDeadline() {
        if (state.isTerminal()) {
            return Long.MAX_VALUE;
        }
        long next = backendLease.validUntilNanos();
        if (state == LeaseState.HELD) {
            long confirmed = backendLease.confirmedUntilNanos();
            if (confirmed != Long.MAX_VALUE && (next == Long.MAX_VALUE || confirmed - next < 0)) {
                next = confirmed;
            }
        }
        return next;
    }

    /** @return the state before the last change (the current state if it never changed) */
    LeaseState previous() {
        service.guard.lock();
        try {
            return previous;
        } finally {
            service.guard.unlock();
        }
    }

    /**
     * The lease of the acquisition that created this hold; it exists even if the hold was lost on arrival, so
     * the caller sees the loss.
     *
     * @return the lease
     */
    LeaseImpl firstLease() {
        service.guard.lock();
        try {
            LeaseImpl lease = new LeaseImpl(this);
            leases.add(lease);
            return lease;
        } finally {
            service.guard.unlock();
        }
    }

    /**
     * Adds a lease for a nested acquisition by the owning thread, unless the hold has ended.
     *
     * @return the lease, or null if the hold is LOST or RELEASED
     */
    LeaseImpl nestedLease() {
        service.guard.lock();
        try {
            service.refresh(this, System.nanoTime());
            if (state.isTerminal()) {
                return null;
            }
            LeaseImpl lease = new LeaseImpl(this);
            leases.add(lease);
            return lease;
        } finally {
            service.guard.unlock();
        }
    }

    /** @return the leases not yet released, a snapshot */
    List<LeaseImpl> liveLeases() {
        service.guard.lock();
        try {
            return new ArrayList<>(leases);
        } finally {
            service.guard.unlock();
        }
    }

    /**
     * Moves the state and tells the listeners of every live lease. Caller holds the service's guard.
     *
     * @return whether the state changed
     */
    boolean transition(LeaseState to) {
        if (state == to || state.isTerminal()) {
            return false;
        }
        previous = state;
        state = to;
        if (to != LeaseState.RELEASED) {
            for (LeaseImpl lease : leases) {
                lease.fire(previous, to);
            }
        }
        return true;
    }

    /**
     * Removes one lease; the last one ends the hold.
     *
     * @return whether that was the last lease, so the backend lease must be released
     */
    boolean removeLease(LeaseImpl lease) {
        service.guard.lock();
        try {
            leases.remove(lease);
            if (!leases.isEmpty()) {
                return false;
            }
            if (!state.isTerminal()) {
                previous = state;
                state = LeaseState.RELEASED;
            }
            return true;
        } finally {
            service.guard.unlock();
        }
    }

    /** Runs the end action, once. */
    void ended() {
        Runnable r = onEnd.getAndSet(null);
        if (r != null) {
            r.run();
        }
    }

    @Override
    public String toString() {
        return kind + " '" + name + "' " + state();
    }
}
