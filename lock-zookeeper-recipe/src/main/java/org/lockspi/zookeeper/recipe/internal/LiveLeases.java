package org.lockspi.zookeeper.recipe.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockKind;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The leases of one backend granted and neither released nor lost: what the heartbeat keeps confirmed, what an
 * expired session loses (each lease told to the engine once), and what the inspection calls {@code own}.
 * Thread-safe.
 */
final class LiveLeases {
    private final Set<ZkLease> leases = ConcurrentHashMap.newKeySet();
    private final ZkLockBackend backend;
    private final BackendEvents events;
    private final LongSupplier session;

    /**
     * @param backend the backend the leases belong to (their deadlines and release)
     * @param events  where a loss is reported
     * @param session the current session's number
     */
    LiveLeases(ZkLockBackend backend, BackendEvents events, LongSupplier session) {
        this.backend = backend;
        this.events = events;
        this.session = session;
    }

    /**
     * Registers the lease of a node that holds.
     *
     * @param node the node, or null (no grant)
     * @param gen  the session it was granted in; if that has ended meanwhile, the lease is born lost (and said so)
     * @param revocable whether the acquisition was revocable (its node carries the mark)
     * @return the lease, or null if {@code node} is null
     */
    ZkLease grant(LockKind kind, ZkOps.Node node, long gen, boolean revocable) {
        if (node == null) {
            return null;
        }
        ZkLease lease = new ZkLease(backend, kind, node.path(), node.czxid(), gen, revocable);
        leases.add(lease);
        if (session.getAsLong() != gen && leases.remove(lease) && lease.markLost()) {
            events.leaseLost(lease, "its ZooKeeper session expired as it was granted");
        }
        return lease;
    }

    /** @return whether the lease is live (granted here, not released, not lost by the session) */
    boolean isLive(ZkLease lease) {
        return leases.contains(lease);
    }

    boolean isEmpty() {
        return leases.isEmpty();
    }

    /** @return the paths of the live leases' nodes */
    Set<String> paths() {
        Set<String> paths = new HashSet<>();
        for (ZkLease lease : leases) {
            paths.add(lease.path());
        }
        return paths;
    }

    /** The lease is being released: no longer live. */
    void forget(ZkLease lease) {
        leases.remove(lease);
    }

    /**
     * The session expired: every live lease is lost, and the engine is told of each. All are marked lost before the
     * first is told, so that whoever hears of one loss (a multi-lease's listener) finds the others lost too.
     */
    void loseAll() {
        List<ZkLease> lost = new ArrayList<>();
        for (ZkLease lease : leases) {
            if (leases.remove(lease) && lease.markLost()) {
                lost.add(lease);
            }
        }
        lost.forEach(lease -> events.leaseLost(lease, "its ZooKeeper session expired"));
    }

    /** The backend closes: the session's end frees every node. */
    void clear() {
        leases.clear();
    }
}
