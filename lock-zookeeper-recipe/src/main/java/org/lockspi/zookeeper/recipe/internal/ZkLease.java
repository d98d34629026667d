package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/** One acquisition: our node (a lock node or a semaphore lease node) in one session. */
final class ZkLease implements BackendLease {
    private final ZkLockBackend backend;
    private final LockKind kind;
    private final String path;
    private final long czxid;
    private final long session;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile boolean lost;

    ZkLease(ZkLockBackend backend, LockKind kind, String path, long czxid, long session) {
        this.backend = backend;
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

    /** Marks the lease lost; true the first time. */
    boolean markLost() {
        if (lost || released.get()) {
            return false;
        }
        lost = true;
        return true;
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
        return lost;
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
        return kind + " " + path + " (czxid " + czxid + (lost ? ", lost" : "") + ")";
    }
}
