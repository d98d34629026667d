package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One acquisition: our node (a lock node or a semaphore lease node) in one session. It ends once: released, or lost
 * with its session (its node is gone), or revoked (lost, and its node is ours to delete, see
 * {@link RevocationWatch}).
 */
final class ZkLease implements BackendLease {
    private final ZkLockBackend backend;
    private final LockKind kind;
    private final String path;
    private final long czxid;
    private final long session;
    private final AtomicBoolean released = new AtomicBoolean();
    /** {@link #LIVE}, {@link #SESSION_LOST} or {@link #REVOKED}. */
    private final AtomicInteger loss = new AtomicInteger(LIVE);
    private static final int LIVE = 0;
    private static final int SESSION_LOST = 1;
    private static final int REVOKED = 2;
    /** Whether the acquisition was revocable: its node carries the mark and is watched for a request. */
    private final boolean revocable;

    ZkLease(ZkLockBackend backend, LockKind kind, String path, long czxid, long session, boolean revocable) {
        this.backend = backend;
        this.revocable = revocable;
        this.kind = kind;
        this.path = path;
        this.czxid = czxid;
        this.session = session;
    }

    String path() {
        return path;
    }

    long session() {
        return session;
    }

    boolean isRevocable() {
        return revocable;
    }

    /** Marks the lease lost with its session; true the first time it ends so. */
    boolean markLost() {
        return !released.get() && loss.compareAndSet(LIVE, SESSION_LOST);
    }

    /** Marks the lease lost by a revocation (its node still there, ours to delete); true the first time. */
    boolean markRevoked() {
        return !released.get() && loss.compareAndSet(LIVE, REVOKED);
    }

    /** @return whether the lease's node went with its session (a revoked lease's did not) */
    boolean isSessionLost() {
        return loss.get() == SESSION_LOST;
    }

    /** Marks the lease released; true the first time. */
    boolean markReleased() {
        return released.compareAndSet(false, true);
    }

    @Override
    public long fencingToken() {
        return czxid;
    }

    @Override
    public boolean isLost() {
        return loss.get() != LIVE;
    }

    @Override
    public long confirmedUntilNanos() {
        return backend.confirmedUntilNanos();
    }

    @Override
    public long validUntilNanos() {
        return backend.validUntilNanos();
    }

    @Override
    public void release() {
        backend.release(this);
    }

    @Override
    public String toString() {
        return kind + " " + path + " (czxid " + czxid + (isLost() ? ", lost" : "") + ")";
    }
}
