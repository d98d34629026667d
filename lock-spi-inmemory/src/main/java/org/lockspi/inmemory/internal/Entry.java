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

    Entry(Space space, SpaceClient client, String key, AcquireRequest request, long seq) {
        this.space = space;
        this.client = client;
        this.key = key;
        this.kind = request.kind();
        this.permits = request.permits();
        this.seq = seq;
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
