package org.lockspi.curator.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;

/**
 * The holder's side of a revocation (spec §27) in the node data every ZooKeeper provider shares ({@link ZkLayout}: a
 * revocable acquisition's node is created with the mark, a revoker writes the request over it, see
 * {@code ZkRevocation}). Each revocable lease's node is read with a data watch, in the background, set again after
 * every change (ZooKeeper keeps a watch across a reconnection of the same session and, on it, reports a change made
 * meanwhile). A read that finds the request marks the lease lost, tells the engine, and only then deletes the node as
 * a release does (Curator's guaranteed delete, in the background: the reads' callbacks run on the client's event
 * thread, which must not wait). A read that failed is made again when the connection is back.
 *
 * <p>The bound: one watch notification after the revoker's {@code setData}, plus one read, while connected.
 */
final class CuratorRevocations implements ConnectionStateListener {
    private static final System.Logger LOG = System.getLogger(CuratorRevocations.class.getName());

    private final CuratorClient client;
    private final CuratorSessions sessions;
    private final CuratorDeletes deletes;
    /** Revocable leases whose last read failed: read again when the connection is back. */
    private final Set<CuratorLease> unwatched = ConcurrentHashMap.newKeySet();

    CuratorRevocations(CuratorClient client, CuratorSessions sessions, CuratorDeletes deletes) {
        this.client = client;
        this.sessions = sessions;
        this.deletes = deletes;
    }

    // ---- the holder's side ---------------------------------------------------------------------------------------

    /**
     * Reads a registered revocable lease's node with a data watch, in the background, and acts on a request found
     * there (one written before the watch was set included).
     */
    void watch(CuratorLease lease) {
        if (lease.isLost() || lease.isReleased()) {
            return;
        }
        CuratorWatcher watcher = event -> changed(lease, event);
        try {
            client.framework.getData().usingWatcher(watcher).inBackground((c, event) -> read(lease, event))
                    .forPath(lease.node);
        } catch (Exception e) {
            failed(lease, e.toString(), false); // the client is closing: the session's end frees the node
        }
    }

    private void changed(CuratorLease lease, WatchedEvent event) {
        // NodeDeleted: released, or gone with its session (which the session states report); None: the connection
        // changed, the watch stays
        if (event.getType() == Watcher.Event.EventType.NodeDataChanged) {
            watch(lease);
        }
    }

    private void read(CuratorLease lease, CuratorEvent event) {
        int rc = event.getResultCode();
        if (rc == KeeperException.Code.NONODE.intValue()) {
            return; // released, or gone with its session
        }
        if (rc != KeeperException.Code.OK.intValue()) {
            KeeperException.Code code = KeeperException.Code.get(rc);
            failed(lease, String.valueOf(code), code == KeeperException.Code.CONNECTIONLOSS
                    || code == KeeperException.Code.OPERATIONTIMEOUT);
            return;
        }
        String requestedBy = ZkLayout.requestedBy(event.getData());
        if (requestedBy != null && sessions.revoked(lease, "revoked at the request of " + requestedBy)) {
            deletes.deleteInBackground(lease.node); // only now: the engine knows the lease is lost
        }
    }

    /**
     * A read failed: it is made again when the connection is next back, or at once if it failed for the connection
     * and the connection is back already.
     */
    private void failed(CuratorLease lease, String why, boolean connectionLost) {
        if (lease.isLost() || lease.isReleased()) {
            return;
        }
        LOG.log(connectionLost ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING, () -> "could not read "
                + lease + " for a revocation request (" + why + "); the lease is not revocable until the connection"
                + " next returns: " + client.description);
        unwatched.add(lease);
        if (connectionLost && client.isConnected()) {
            rewatch(); // the connection came back before this failure was told
        }
    }

    /** The connection is back: the leases whose read failed are read again. */
    @Override
    public void stateChanged(CuratorFramework changed, ConnectionState state) {
        if (state == ConnectionState.RECONNECTED || state == ConnectionState.CONNECTED) {
            rewatch();
        }
    }

    private void rewatch() {
        for (CuratorLease lease : unwatched) {
            if (unwatched.remove(lease)) {
                watch(lease);
            }
        }
    }
}
