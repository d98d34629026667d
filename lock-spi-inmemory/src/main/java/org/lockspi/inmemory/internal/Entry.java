package org.lockspi.inmemory.internal;

import java.time.Instant;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One acquisition in a space's queue, held or waiting: the server's state and the backend's lease at once. Its
 * mutable fields are guarded by the space's lock, but for {@link #lost} and {@link #token}, which the engine reads
 * from any thread.
 */
public final class Entry implements BackendLease {
    final Space space;
    final SpaceClient client;
    final String key;
    final LockKind kind;
    final int permits;
    final long seq;
    boolean granted;
    /** Set while the acquiring thread sleeps; woken when the entry is granted or its client closes. */
    Waiter waiter;
    volatile long token = -1;
    /** When the entry was granted, for inspection; null while it waits. */
    Instant since;
    volatile boolean lost;
    /** The lease time the acquisition asked for, in nanoseconds; 0 for none. */
    final long leaseTimeNanos;
    /** Whether operators may revoke it: its service opted in (spec §27). */
    final boolean revocable;
    /** When a lease time ends the grant (nanoTime), set when granted; Long.MAX_VALUE without one. */
    volatile long endNanos = Long.MAX_VALUE;

    Entry(Space space, SpaceClient client, String key, AcquireRequest request, long seq) {
        this.space = space;
        this.client = client;
        this.key = key;
        this.kind = request.kind();
        this.permits = request.permits();
        this.seq = seq;
        this.leaseTimeNanos = request.leaseTime().map(java.time.Duration::toNanos).orElse(0L);
        this.revocable = request.isRevocable();
    }

    /** @return the instant its lease time ends it, the space's and the engine's deadline at once */
    @Override
    public long validUntilNanos() {
        return endNanos;
    }

    /** @return whether a lease time has ended this grant by {@code now}. Caller holds the space's lock. */
    boolean endedBy(long now) {
        long end = endNanos;
        return granted && end != Long.MAX_VALUE && now - end >= 0;
    }

    /** Wakes the acquiring thread, if it sleeps. Caller holds the space's lock. */
    void wake() {
        if (waiter != null) {
            waiter.wake();
        }
    }

    @Override
    public long fencingToken() {
        return token;
    }

    @Override
    public boolean isLost() {
        return lost;
    }

    /** Frees this entry; after a loss (its entry is gone already) it does nothing. */
    @Override
    public void release() {
        space.release(this);
    }

    /** @return {@code <key>/<KIND>-<sequence>}, the entry as the space shows it */
    @Override
    public String toString() {
        return key + "/" + kind + "-" + String.format("%010d", seq);
    }
}
