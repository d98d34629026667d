package org.lockspi.curator.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One Curator acquisition: the recipe object that made it, the node it holds, and that node's czxid (the fencing
 * token) and ephemeral owner (the session it lives and dies with).
 */
final class CuratorLease implements BackendLease {

    /** Curator's own release of the acquisition, as the recipe does it (used when a grant cannot be kept). */
    @FunctionalInterface
    interface CuratorRelease {
        void release() throws Exception;
    }

    private final CuratorSessions sessions;
    private final CuratorDeletes deletes;
    final LockKind kind;
    final String name;
    /** The node this acquisition holds, absolute in the client's namespace. */
    final String node;
    final long czxid;
    /** The session that owns the node. */
    final long session;
    /** For Curator's thread-owned recipes (mutex, read-write) the acquiring thread; null for semaphore leases. */
    final Thread owner;
    /** For a WRITE lease, the read-write lock whose read half a downgrade must use; else null. */
    final ReadWriteHalves readWrite;
    private final AtomicBoolean lost = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();

    CuratorLease(CuratorSessions sessions, CuratorDeletes deletes, LockKind kind, String name, String node,
                 long czxid, long session, Thread owner, ReadWriteHalves readWrite) {
        this.sessions = sessions;
        this.deletes = deletes;
        this.kind = kind;
        this.name = name;
        this.node = node;
        this.czxid = czxid;
        this.session = session;
        this.owner = owner;
        this.readWrite = readWrite;
    }

    @Override
    public long fencingToken() {
        return czxid;
    }

    @Override
    public boolean isLost() {
        return lost.get();
    }

    /** @return whether this call marked it lost (it was neither lost nor released before) */
    boolean markLost() {
        return !released.get() && lost.compareAndSet(false, true);
    }

    boolean isReleased() {
        return released.get();
    }

    @Override
    public long confirmedUntilNanos() {
        return sessions.confirmedUntilNanos();
    }

    @Override
    public long validUntilNanos() {
        return sessions.validUntilNanos();
    }

    /**
     * Deletes our own node, and only it (a later holder's node has another name), as Curator's recipes do, but
     * with a guaranteed background delete waited for at most the release bound: also for a lost lease (the
     * session may live on after the engine judged the lease lost) and from another thread (Curator's
     * thread-owned recipes would refuse). The Curator recipe object is discarded with the lease.
     */
    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        sessions.forget(this);
        if (deletes.backendClosed()) {
            return; // the session is over, or close() deletes the nodes of an application's client
        }
        if (lost.get()) {
            deletes.deleteInBackground(node); // its session is gone: nothing to wait for, nothing to report
            return;
        }
        deletes.deleteBounded(node);
    }

    @Override
    public String toString() {
        return kind + " '" + name + "' node " + node + " czxid " + czxid
                + (lost.get() ? " (lost)" : released.get() ? " (released)" : "");
    }
}
