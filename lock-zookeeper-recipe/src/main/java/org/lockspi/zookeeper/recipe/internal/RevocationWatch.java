package org.lockspi.zookeeper.recipe.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.lockspi.spi.BackendEvents;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The holder's side of a revocation (spec §27; the node data is {@link ZkLayout}'s): a one-shot data watch on the
 * node of each revocable lease of this backend, set again after every event, and none on other leases. The watch's
 * callback only queues a read; the read runs on the backend's revocation thread (started when there is work, gone
 * one second after), sets the watch again and, when the data is a request, ends the lease:
 * {@link ZkLease#markRevoked() lost} first, then {@link BackendEvents#leaseLost(org.lockspi.spi.BackendLease,
 * String)} ({@code "revoked at the request of <requester>"}), and only then the release ({@link LeaseRelease}: the
 * node's delete and the hand-off to the waiter behind it), so no other client holds before the lease reads LOST.
 *
 * <p>The bound: the request reaches the holder one watch notification after the revoker's {@code setData}, plus a
 * read, while the connection is up. A read that meets a lost connection is done again when it returns (a watch set
 * before survives the reconnection); an expired session loses the lease anyway. A holder that never hears of the
 * request keeps its node until its session ends.
 *
 * <p>Thread-safe. The thread's name starts with {@code lockspi-zk-revocation}.
 */
final class RevocationWatch {
    private static final System.Logger LOG = System.getLogger(RevocationWatch.class.getName());
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final ZkOps ops;
    private final SessionGate gate;
    private final LiveLeases leases;
    private final BackendEvents events;
    private final LeaseRelease releases;
    private final ThreadPoolExecutor reader;
    /** Leases whose read met a lost connection: read again when it returns. */
    private final Set<Watched> retry = ConcurrentHashMap.newKeySet();

    RevocationWatch(ZkOps ops, SessionGate gate, LiveLeases leases, BackendEvents events, LeaseRelease releases) {
        this.ops = ops;
        this.gate = gate;
        this.leases = leases;
        this.events = events;
        this.releases = releases;
        this.reader = OnDemandThread.executor("lockspi-zk-revocation", THREADS);
    }

    /** Starts watching a revocable lease just granted: its node is read (and watched) on the revocation thread. */
    void watch(ZkLease lease) {
        new Watched(lease).run();
    }

    /** The connection returned in the same session: the reads it failed are done again. */
    void reconnected() {
        for (Watched watched : retry) {
            if (retry.remove(watched)) {
                watched.run();
            }
        }
    }

    /** The session expired: its leases are lost, and their watches gone. */
    void sessionExpired() {
        retry.clear();
    }

    /** The backend closes: the thread stops (interrupting a read under way); {@link #awaitClosed()} follows. */
    void shutdown() {
        retry.clear();
        reader.shutdownNow();
    }

    /** Waits, at most 5 s, for the thread to end. */
    void awaitClosed() {
        try {
            reader.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One revocable lease's watch callback: queues one read at a time. */
    private final class Watched implements Runnable {
        private final ZkLease lease;
        private final AtomicBoolean queued = new AtomicBoolean();

        Watched(ZkLease lease) {
            this.lease = lease;
        }

        /** The watch fired (or the lease is new, or the connection returned): never blocks. */
        @Override
        public void run() {
            if (!queued.compareAndSet(false, true)) {
                return;
            }
            try {
                reader.execute(this::read);
            } catch (RejectedExecutionException e) {
                queued.set(false); // closing: the session's end frees the node
            }
        }

        private void read() {
            queued.set(false);
            if (!leases.isLive(lease) || gate.isClosed() || gate.session() != lease.session()) {
                return; // released, lost or closing: its watch goes with the node's delete or the session
            }
            ZkOps.NodeData data;
            try {
                data = ops.watchData(lease.path(), this);
            } catch (KeeperException.ConnectionLossException e) {
                retry.add(this);
                if (gate.isConnected()) {
                    reconnected(); // it returned while we failed: do not wait for the next return
                }
                return;
            } catch (KeeperException.SessionExpiredException e) {
                return; // the session's loss ends the lease
            } catch (KeeperException | RuntimeException e) {
                if (!gate.isClosed()) {
                    LOG.log(System.Logger.Level.WARNING, "cannot read " + lease.path() + " at ZooKeeper "
                            + ops.address() + " for a revocation request; the lease is not revocable until the "
                            + "connection next returns", e);
                    retry.add(this);
                }
                return;
            } catch (InterruptedException e) {
                return; // closing
            }
            String requestedBy = data == null ? null : ZkLayout.requestedBy(data.bytes());
            if (requestedBy != null) {
                revoked(requestedBy);
            }
        }

        /** Ends the lease: lost, told, then released as {@code release()} would. */
        private void revoked(String requestedBy) {
            if (!lease.markRevoked()) {
                return; // released or lost meanwhile
            }
            events.leaseLost(lease, "revoked at the request of " + requestedBy);
            try {
                releases.release(lease);
            } catch (RuntimeException e) {
                // the delete is left to the reconnection or the session's end; nobody else holds meanwhile
                LOG.log(System.Logger.Level.DEBUG, "release of revoked " + lease + " not done now", e);
            }
        }
    }
}
