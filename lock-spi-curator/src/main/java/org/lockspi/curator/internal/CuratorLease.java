package org.lockspi.curator.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One Curator acquisition: the recipe object that made it, the node it holds, and that node's czxid (the fencing
 * token) and ephemeral owner (the session it lives and dies with).
 */
final class CuratorLease implements BackendLease {

    /** Curator's own release of the acquisition, as the recipe does it. */
    @FunctionalInterface
    interface CuratorRelease {
        void release() throws Exception;
    }

    final CuratorBackend backend;
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
    private final CuratorRelease curatorRelease;
    private final AtomicBoolean lost = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();

    CuratorLease(CuratorBackend backend, LockKind kind, String name, String node, long czxid, long session,
                 Thread owner, ReadWriteHalves readWrite, CuratorRelease curatorRelease) {
        this.backend = backend;
        this.kind = kind;
        this.name = name;
        this.node = node;
        this.czxid = czxid;
        this.session = session;
        this.owner = owner;
        this.readWrite = readWrite;
        this.curatorRelease = curatorRelease;
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
    public void release() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        backend.forget(this);
        if (lost.get() || backend.isClosed() || (owner != null && owner != Thread.currentThread())) {
            // Curator would refuse (thread-owned recipes) or block on a dead session: delete our own node, and only
            // it, in the background, retried by Curator until the server confirms; a later holder's node has
            // another name, so this never touches it.
            backend.deleteInBackground(node);
            return;
        }
        try {
            curatorRelease.release();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // Curator's guaranteed delete keeps retrying in the background; the session end frees it otherwise.
            throw backend.connectionFailure("could not release " + this, e);
        }
    }

    @Override
    public String toString() {
        return kind + " '" + name + "' node " + node + " czxid " + czxid
                + (lost.get() ? " (lost)" : released.get() ? " (released)" : "");
    }
}
