package org.lockspi.zookeeper.recipe.internal;

import java.util.List;
import java.util.UUID;
import org.apache.zookeeper.KeeperException;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKind;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * A semaphore permit as Curator's {@code InterProcessSemaphoreV2} takes it (and the non-reentrant mutex, a semaphore
 * of one, as {@code InterProcessSemaphoreMutex}): hold the internal mutex under {@code <path>/locks}, create a lease
 * node under {@code <path>/leases}, and wait, on a child watch of {@code leases}, until at most {@code permits}
 * lease nodes are there; then release the internal mutex. On every other way out, the lease node goes first, then
 * the internal mutex's node.
 */
final class SemaphoreRecipe {
    private static final byte[] NO_DATA = new byte[0];
    private final ZkOps ops;
    private final SessionGate gate;
    private final Nodes nodes;
    private final WaitQueue queue;
    private final ResidueCleaner cleaner;
    private final LiveLeases leases;

    SemaphoreRecipe(ZkOps ops, SessionGate gate, Nodes nodes, WaitQueue queue, ResidueCleaner cleaner,
                    LiveLeases leases) {
        this.ops = ops;
        this.gate = gate;
        this.nodes = nodes;
        this.queue = queue;
        this.cleaner = cleaner;
        this.leases = leases;
    }

    /**
     * @param path    the semaphore's full path
     * @param permits how many lease nodes may hold at once
     * @param data    our lease node's data ({@link ZkLayout#revocableData()} or empty); the internal mutex's node
     *                has none
     * @return the lease on our lease node; null if the deadline passed first (nothing is left behind then)
     * @throws SessionLost if the session ended, or our lease node is gone: the acquisition starts again
     */
    ZkLease acquire(LockKind kind, String path, int permits, Waiter waiter, long gen, byte[] data,
                    Deadline deadline)
            throws InterruptedException, SessionLost {
        String locksPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LOCKS);
        String leasesPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LEASES);
        ZkOps.Node internal = queue.enqueue(locksPath, QueueRule.SEMAPHORE_MUTEX, waiter, gen, NO_DATA, deadline);
        if (internal == null) {
            return null;
        }
        Throwable failure = null;
        try {
            return lease(kind, leasesPath, permits, waiter, gen, data, deadline);
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            cleaner.discard(locksPath, ZkLayout.nodeName(internal.path()), true, failure);
        }
    }

    /** Inside the internal mutex: our lease node, held once at most {@code permits} are there. */
    private ZkLease lease(LockKind kind, String leasesPath, int permits, Waiter waiter, long gen, byte[] data,
                          Deadline deadline)
            throws InterruptedException, SessionLost {
        String name = ZkLayout.protectedPrefix(UUID.randomUUID()) + ZkLayout.LEASE;
        ZkOps.Node node = null;
        boolean held = false;
        Throwable failure = null;
        try {
            node = nodes.create(leasesPath, name, null, data, deadline, gen);
            String ours = ZkLayout.nodeName(node.path());
            while (true) {
                List<String> children = gate.call(() -> {
                    try {
                        return ops.watchChildren(leasesPath, waiter);
                    } catch (KeeperException.NoNodeException e) {
                        return List.<String>of();
                    }
                }, deadline, gen);
                if (!children.contains(ours)) {
                    throw SessionLost.INSTANCE;
                }
                // the lease nodes only: a child that is none is the node of a lock named <name>/leases/...
                if (children.stream().filter(c -> ZkLayout.isNode(c, ZkLayout.LEASE)).count() <= permits) {
                    held = true;
                    return leases.grant(kind, node, gen, data.length > 0);
                }
                if (deadline.hasExpired() || !waiter.await(deadline)) {
                    return null;
                }
                gate.checkOpen();
            }
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            ops.unwatch(leasesPath, waiter);
            if (!held) {
                cleaner.discard(leasesPath, node != null ? ZkLayout.nodeName(node.path()) : name, node != null,
                        failure);
            }
        }
    }
}
