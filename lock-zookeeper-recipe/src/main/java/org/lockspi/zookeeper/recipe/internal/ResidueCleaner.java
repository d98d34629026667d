package org.lockspi.zookeeper.recipe.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The nodes of ours that must go and could not yet: deleted now if the server can be told, else kept as residue and
 * deleted when the connection returns, on the backend's cleaner threads (started when there is work, each gone one
 * second after its last). An expired session takes the residue with it (the nodes are ephemeral); so does close.
 *
 * <p>Up to {@value #WIDTH} deletes run at once: each waits for its answer on a thread of its own, and the client
 * pipelines them, so the releases of a service's threads do not queue behind one round trip each (one cleaner
 * thread capped a service at about one release per round trip). A thread starts only when a delete finds none
 * idle, so a service whose releases come one at a time keeps one.
 *
 * <p>Thread-safe. The cleaner threads' names start with {@code lockspi-zk-cleaner}.
 */
final class ResidueCleaner {
    private static final System.Logger LOG = System.getLogger(ResidueCleaner.class.getName());
    private static final AtomicInteger CLEANERS = new AtomicInteger();
    /** The most deletes under way at once. */
    static final int WIDTH = 8;

    private final ZkOps ops;
    private final SessionGate gate;
    /** Nodes to delete once the connection returns: parent path and a node-name prefix (or whole name). */
    private final Set<Residue> residue = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor cleaner;

    ResidueCleaner(ZkOps ops, SessionGate gate) {
        this.ops = ops;
        this.gate = gate;
        this.cleaner = OnDemandThread.executor("lockspi-zk-cleaner", CLEANERS, WIDTH);
    }

    /** Node(s) to delete: the children of {@code parent} whose names start with {@code name}, or that one node. */
    record Residue(String parent, String name, boolean exact) {
        /** @return our own node at {@code path} */
        static Residue node(String path) {
            return new Residue(Nodes.parentOf(path), ZkLayout.nodeName(path), true);
        }

        /** @return true when done (deleted or already gone); false if the connection is down */
        boolean delete(ZkOps ops, SessionGate gate) {
            try {
                if (exact) {
                    deleteIfThere(ops, ZkLayout.join(parent, name));
                    return true;
                }
                for (String child : Nodes.childrenOrEmpty(ops, parent)) {
                    if (child.startsWith(name)) {
                        deleteIfThere(ops, ZkLayout.join(parent, child));
                    }
                }
                return true;
            } catch (KeeperException.ConnectionLossException e) {
                return false;
            } catch (KeeperException.SessionExpiredException e) {
                return true; // ephemeral: gone with the session
            } catch (KeeperException e) {
                throw gate.unexpected("delete " + this, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private static void deleteIfThere(ZkOps ops, String path) throws KeeperException, InterruptedException {
            try {
                ops.delete(path);
            } catch (KeeperException.NoNodeException e) {
                // gone
            }
        }

        @Override
        public String toString() {
            return ZkLayout.join(parent, name) + (exact ? "" : "*");
        }
    }

    /**
     * Deletes the nodes under {@code parent} whose names start with {@code name} (our node, or the node a create
     * may have made), now if the connection is up, else when it returns. Never throws; an unexpected failure is
     * attached to {@code failure}, if any, else logged. The interrupt flag is cleared for the delete and set again.
     */
    void discard(String parent, String name, boolean exact, Throwable failure) {
        if (gate.isClosed()) {
            return; // closing the session frees every node
        }
        Residue r = new Residue(parent, name, exact);
        if (!gate.isConnected()) {
            // the connection is known down: a delete now would wait out the client's retries (an acquisition
            // that fails fast would not), so the node goes when the connection returns, or with the session
            residue.add(r);
            return;
        }
        boolean interrupted = Thread.interrupted();
        try {
            if (!r.delete(ops, gate)) {
                residue.add(r);
            }
        } catch (RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else if (!gate.isClosed()) {
                LOG.log(System.Logger.Level.WARNING, DeleteFailures.couldNotDelete(r.toString(), ops.address()), e);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Keeps {@code r} for the connection's return, without trying now (the connection is known down). */
    void leave(Residue r) {
        residue.add(r);
    }

    /**
     * Runs a delete of ours on a cleaner thread: {@link #deleteOrLeave} and then {@code done} with whether the
     * node is gone.
     *
     * @throws RejectedExecutionException if the backend is closing
     */
    Future<?> submit(Residue own, OutcomeListener done) {
        return cleaner.submit(() -> {
            boolean gone = false;
            try {
                if (!gate.isClosed()) {
                    gone = deleteOrLeave(own);
                }
            } finally {
                done.deleted(gone);
            }
        });
    }

    /** Told whether a delete run by {@link #submit} made sure the node is gone. */
    @FunctionalInterface
    interface OutcomeListener {
        void deleted(boolean gone);
    }

    /**
     * @return true when deleted (or found gone)
     * @throws org.lockspi.LockConnectionException if the connection is lost: the delete is left to its return
     */
    private boolean deleteOrLeave(Residue own) {
        if (!own.delete(ops, gate)) {
            residue.add(own);
            if (gate.isConnected()) {
                drain(); // the connection returned while we failed: do not wait for the next return
            }
            throw DeleteFailures.connectionLost(own.toString(), ops.address());
        }
        return true;
    }

    /** The connection is back: deletes the residue on a cleaner thread. */
    void drainLater() {
        if (!residue.isEmpty() && !gate.isClosed()) {
            try {
                cleaner.execute(this::drain);
            } catch (RejectedExecutionException e) {
                // closing
            }
        }
    }

    private void drain() {
        for (Residue r : residue) {
            if (gate.isClosed()) {
                return;
            }
            try {
                if (r.delete(ops, gate)) {
                    residue.remove(r);
                }
            } catch (RuntimeException e) {
                residue.remove(r);
                LOG.log(System.Logger.Level.WARNING, DeleteFailures.couldNotDelete(r.toString(), ops.address()), e);
            }
        }
    }

    /** The session expired: its ephemeral nodes are gone, and so is the residue. */
    void sessionExpired() {
        residue.clear();
    }

    /** Stops the cleaner threads (interrupting the deletes under way); {@link #awaitClosed()} follows. */
    void shutdown() {
        cleaner.shutdownNow();
    }

    /** Forgets the residue (the session's end frees it) and waits, at most 5 s, for the cleaner threads to end. */
    void awaitClosed() {
        residue.clear();
        try {
            cleaner.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
