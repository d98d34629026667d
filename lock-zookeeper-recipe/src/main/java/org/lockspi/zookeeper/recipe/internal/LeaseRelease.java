package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.LockException;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The release of a lease: its node deleted on a cleaner thread, waited for at most the release bound (past it, or
 * with the connection down, the delete is left to the reconnection or the session's end, and the caller is told
 * with {@link DeleteFailures}). A release whose delete is under way when the connection drops stops waiting then:
 * the request may wait for the client's next reconnection attempt, seconds, and the cleaner leaves the delete to
 * the reconnection if it fails. A lease the engine judged lost by its deadline while the session lives on still
 * deletes its node, and so does a revoked lease (see {@link RevocationWatch}); a lease whose session is gone
 * touches nothing (a later holder's node is never ours). The waiter behind a released mutex node is told whether
 * it is known gone ({@link ZkOwnNode}).
 */
final class LeaseRelease {
    private final ZkOps ops;
    private final SessionGate gate;
    private final ResidueCleaner cleaner;
    private final WaitQueue queue;
    private final LiveLeases leases;
    private final Duration releaseBound;
    private final ConnectionDrops drops = new ConnectionDrops();

    LeaseRelease(ZkOps ops, SessionGate gate, ResidueCleaner cleaner, WaitQueue queue, LiveLeases leases,
                 Duration releaseBound) {
        this.ops = ops;
        this.gate = gate;
        this.cleaner = cleaner;
        this.queue = queue;
        this.leases = leases;
        this.releaseBound = releaseBound;
    }

    /**
     * Releases the lease, once; later calls do nothing.
     *
     * @throws org.lockspi.LockConnectionException if the delete did not go through within the bound; it is left
     *                                             to the reconnection or the session's end
     */
    void release(ZkLease lease) {
        if (!lease.markReleased()) {
            return;
        }
        leases.forget(lease);
        ZkOwnNode mine = queue.released(lease.path());
        if (mine == null) {
            releaseNode(lease, null);
            return;
        }
        mine.released();
        boolean reported = false;
        try {
            reported = releaseNode(lease, mine);
        } finally {
            if (!reported) {
                mine.deleteDone(false);
            }
        }
    }

    /**
     * @return true when the delete went through the cleaner within the bound (the cleaner told {@code mine} its
     *         outcome); false (or an exception) otherwise, and the caller tells {@code mine} "not known gone" (a
     *         late delete may still tell it "gone" afterwards, which is then true)
     */
    private boolean releaseNode(ZkLease lease, ZkOwnNode mine) {
        if (lease.isSessionLost() || gate.isClosed() || gate.session() != lease.session()) {
            return false; // its node went with its session; never touch a later holder's
        }
        String path = lease.path();
        ResidueCleaner.Residue own = ResidueCleaner.Residue.node(path);
        long dropsBefore = drops.count();
        if (!gate.isConnected()) {
            cleaner.leave(own);
            throw DeleteFailures.notConnected(path, ops.address());
        }
        long end = System.nanoTime() + releaseBound.toNanos();
        AtomicBoolean done = new AtomicBoolean();
        Future<?> delete;
        try {
            delete = cleaner.submit(own, gone -> {
                if (mine != null) {
                    mine.deleteDone(gone);
                }
                done.set(true);
                drops.wake();
            });
        } catch (RejectedExecutionException e) {
            return false; // closing: the session's end frees it
        }
        try {
            if (!drops.await(done::get, dropsBefore, end)) {
                throw DeleteFailures.connectionLost(path, ops.address()); // the cleaner leaves it to the return
            }
            delete.get(); // its outcome: the cleaner has just told it
            return true;
        } catch (TimeoutException e) {
            throw DeleteFailures.notWithin(path, ops.address(), releaseBound, e);
        } catch (InterruptedException e) {
            throw DeleteFailures.interrupted(path, ops.address(), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new LockException("ZooKeeper at " + ops.address() + " failed: delete " + path, cause);
        }
    }

    /** The connection dropped: releases waiting for their delete stop waiting. */
    void disconnected() {
        drops.dropped();
    }
}
