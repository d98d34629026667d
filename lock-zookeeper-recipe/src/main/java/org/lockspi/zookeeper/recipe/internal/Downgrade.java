package org.lockspi.zookeeper.recipe.internal;

import java.util.UUID;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.Deadline;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The read taken by the thread that holds the write (a downgrade), granted at once: the read node takes the
 * sequence number of our write node instead of a new one ({@code _c_<uuid>-__READ__<the write's 10 digits>}, an
 * {@code EPHEMERAL} node), as Curator's read lock does since CURATOR-621. It sorts where the write node sorts: no
 * writer is ahead of it, and every writer that queued behind our write stays behind the read, so it keeps waiting
 * until the read is released too, whoever's client it is (ours or a plain Curator application's). Readers that come
 * later wait only for write nodes, so once the write is released they share with the downgraded read.
 */
final class Downgrade {
    private final Nodes nodes;
    private final ResidueCleaner cleaner;
    private final LiveLeases leases;

    Downgrade(Nodes nodes, ResidueCleaner cleaner, LiveLeases leases) {
        this.nodes = nodes;
        this.cleaner = cleaner;
        this.leases = leases;
    }

    /**
     * The write lease a READ request downgrades from: the request's held write, if it is ours, alive, in session
     * {@code gen} and on the same lock. A held write from an earlier session is no ground for a grant at once: its
     * node is gone, and the read queues like any other.
     *
     * @param path the lock's full path
     * @return the write lease, or null if the read queues
     */
    ZkLease heldWrite(AcquireRequest request, String path, long gen) {
        if (request.heldWrite() instanceof ZkLease write && leases.isLive(write) && !write.isLost()
                && write.session() == gen && Nodes.parentOf(write.path()).equals(path)) {
            return write;
        }
        return null;
    }

    /**
     * Creates the downgraded read node beside {@code write}'s.
     *
     * @param data the read node's data ({@link ZkLayout#revocableData()} or empty)
     * @return the read node; never null (the create is retried until the deadline, then fails)
     * @throws SessionLost if session {@code gen} ended
     */
    ZkOps.Node readNode(String path, ZkLease write, byte[] data, Deadline deadline, long gen)
            throws InterruptedException, SessionLost {
        String name = ZkLayout.protectedPrefix(UUID.randomUUID()) + ZkLayout.READ;
        String sequence = ZkLayout.sortKey(ZkLayout.nodeName(write.path()), ZkLayout.WRITE);
        ZkOps.Node node = null;
        Throwable failure = null;
        try {
            node = nodes.create(path, name, sequence, data, deadline, gen);
            return node;
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            if (node == null) {
                cleaner.discard(path, name, false, failure); // a create lost with the connection may have made it
            }
        }
    }
}
