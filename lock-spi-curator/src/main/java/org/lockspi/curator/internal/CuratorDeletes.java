package org.lockspi.curator.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.zookeeper.recipe.internal.ConnectionDrops;
import org.lockspi.zookeeper.recipe.internal.DeleteFailures;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;

/**
 * Every delete of our nodes the backend makes itself, beside Curator's recipes: a released lease's node within the
 * release bound (a synchronous request cut short by the {@link Watchdog}, then Curator's guaranteed delete in the
 * background), and the clean-up after an acquisition that failed (a node Curator did not delete, or left behind
 * when an interrupt landed between its create and its return). A delete never touches a node that is not ours: a
 * later holder's node has another name.
 *
 * <p>While the connection is known down no clean-up waits for it (a synchronous Curator request would wait out its
 * retries, each up to the connection timeout, and an acquisition that fails fast would not): a node we know goes to
 * Curator's guaranteed delete in the background, and a search for marked nodes waits for the connection on the
 * backend's clean-up thread (started when there is work, gone one second after). A release waiting for its delete
 * when the connection is lost (the client's connection state listener, {@code SUSPENDED}) stops waiting then.
 */
final class CuratorDeletes implements ConnectionStateListener, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CuratorDeletes.class.getName());
    private static final AtomicInteger WATCHDOGS = new AtomicInteger();
    private static final AtomicInteger CLEANERS = new AtomicInteger();

    private final CuratorClient client;
    private final CuratorSessions sessions;
    private final BooleanSupplier backendClosed;
    /** Cuts a synchronous release delete short at the release bound. */
    private final Watchdog watchdog;
    /** Runs the clean-ups that need the server's answers once the connection is back. */
    private final ThreadPoolExecutor cleaner;
    /** The connection's losses: a release waiting for a background delete stops waiting at the next. */
    private final ConnectionDrops drops = new ConnectionDrops();

    /**
     * @param sessions      told of each answered delete (it confirms the session)
     * @param backendClosed whether the backend is closed
     */
    CuratorDeletes(CuratorClient client, CuratorSessions sessions, BooleanSupplier backendClosed) {
        this.client = client;
        this.sessions = sessions;
        this.backendClosed = backendClosed;
        this.watchdog = new Watchdog("lockspi-curator-release-bound-" + WATCHDOGS.incrementAndGet());
        this.cleaner = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "lockspi-curator-cleaner-" + CLEANERS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** @return whether the backend is closed (its session over, or its close deleting the leases' nodes) */
    boolean backendClosed() {
        return backendClosed.getAsBoolean();
    }

    // ---- a released lease's node -------------------------------------------------------------------------------

    /**
     * Deletes a released lease's node, waiting at most the release bound: the same delete Curator's recipes make
     * (our node, and only it). While connected, it is one synchronous request (its reply wakes the caller directly),
     * cut short by the {@link Watchdog} at the bound; if it fails or is cut short, Curator's guaranteed delete takes
     * over in the background, so that an outage never holds the caller.
     *
     * @throws LockConnectionException if the server did not confirm within the bound; Curator goes on retrying
     */
    void deleteBounded(String node) {
        long dropsBefore = drops.count();
        if (!client.isConnected()) {
            deleteInBackground(node);
            throw DeleteFailures.notConnected(node, client.address());
        }
        long start = System.nanoTime();
        long end = start + client.releaseBound.toNanos();
        if (!Thread.currentThread().isInterrupted() && deleteNow(node, end)) {
            sessions.confirmed(start);
            return;
        }
        CountDownLatch done = deleteInBackground(node);
        try {
            if (!drops.await(() -> done.getCount() == 0, dropsBefore, end)) {
                throw DeleteFailures.connectionLost(node, client.address()); // Curator goes on retrying
            }
        } catch (TimeoutException e) {
            throw DeleteFailures.notWithin(node, client.address(), client.releaseBound, e);
        } catch (InterruptedException e) {
            throw DeleteFailures.interrupted(node, client.address(), e);
        }
    }

    /** The connection is lost: the synchronous deletes under way are cut, and no release waits for its delete. */
    @Override
    public void stateChanged(CuratorFramework changed, ConnectionState state) {
        if (state != ConnectionState.SUSPENDED && state != ConnectionState.LOST) {
            return;
        }
        watchdog.cutAll();
        drops.dropped();
    }

    /** One synchronous delete on the ZooKeeper handle, cut short at {@code end}; true if the node is gone. */
    private boolean deleteNow(String node, long end) {
        Watchdog.Ticket ticket = watchdog.arm(end);
        if (ticket == null) {
            return false; // closed
        }
        boolean interrupted = false;
        try {
            client.framework.getZookeeperClient().getZooKeeper()
                    .delete(ZKPaths.fixForNamespace(client.framework.getNamespace(), node), -1);
            return true;
        } catch (KeeperException.NoNodeException e) {
            return true; // gone with its session, or deleted by an earlier attempt
        } catch (InterruptedException e) {
            interrupted = true;
            return false;
        } catch (Exception e) {
            LOG.log(System.Logger.Level.DEBUG, "deleting " + node + " failed, retried in the background", e);
            return false;
        } finally {
            boolean cutShort = watchdog.disarm(ticket);
            if (interrupted && !cutShort) {
                Thread.currentThread().interrupt(); // the caller's interrupt, not the watchdog's
            }
        }
    }

    /**
     * Deletes our own node in the background; Curator retries a guaranteed delete until the server confirms.
     *
     * @return a latch counted down once the server confirmed it (or it was never sent)
     */
    CountDownLatch deleteInBackground(String node) {
        CountDownLatch done = new CountDownLatch(1);
        if (client.owned() && backendClosed()) {
            done.countDown();
            return done; // the session is over, the server removed it
        }
        long sent = System.nanoTime();
        try {
            client.framework.delete().quietly().guaranteed().inBackground((c, event) -> {
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
                    sessions.confirmed(sent); // answered: the session was alive (keeps a draining queue confirmed)
                    done.countDown();
                    drops.wake(); // a release may be waiting for it
                }
            }).forPath(node);
        } catch (Exception e) {
            done.countDown();
            LOG.log(System.Logger.Level.WARNING, DeleteFailures.couldNotDelete(node, client.address())
                    + " (" + client.description + "); the session end frees it", e);
        }
        return done;
    }

    // ---- after a failed acquisition --------------------------------------------------------------------------------

    /**
     * One synchronous round trip on our session. Curator deletes its node when an acquisition is interrupted, but
     * it re-sets the interrupt flag first, so its delete is sent and not waited for; requests of one session run in
     * order, so once this returns that delete is done.
     */
    void settle(String path) {
        if (!client.isConnected()) {
            return; // nothing goes out now; Curator's guaranteed deletes retry in the background
        }
        try {
            client.framework.checkExists().forPath(path);
        } catch (Exception e) {
            clearInterrupt(e);
            LOG.log(System.Logger.Level.DEBUG, "settling " + path + " after an interrupt failed", e);
        }
    }

    /**
     * Deletes the lease nodes whose data is {@code mark} (the interrupt flag clear), now if the connection is up
     * (failures go to {@code failure}), else once it is back, on the clean-up thread.
     */
    void deleteMarkedLeases(String leases, byte[] mark, Exception failure) {
        if (!client.isConnected()) {
            deleteMarkedLater(leases, mark);
            return;
        }
        deleteMarked(leases, mark, (node, stat) -> true, failure);
    }

    /**
     * Deletes the revocable lease nodes a failed acquisition left under {@code leases}: those with the revocable
     * mark, of this client's session, that are none of the backend's live leases. The caller makes sure no other
     * acquisition of this backend is under way on the semaphore ({@link RevocableLeftovers}). Failures are logged;
     * the session end frees what is left.
     */
    void deleteRevocableLeftovers(String leases) {
        long session = client.sessionId();
        if (session == 0) {
            return;
        }
        Set<String> live = sessions.nodes();
        Exception failure = new IllegalStateException("deleting the revocable lease nodes left under " + leases);
        deleteMarked(leases, ZkLayout.revocableData(),
                (node, stat) -> stat.getEphemeralOwner() == session && !live.contains(node), failure);
        if (failure.getSuppressed().length > 0) {
            LOG.log(System.Logger.Level.WARNING, failure.getMessage() + " failed (" + client.description
                    + "); the session end frees them", failure);
        }
    }

    /**
     * Waits for the connection on the clean-up thread, then deletes the marked lease nodes; tries again while the
     * connection fails it. Ends with the client (an owned client's session end frees the nodes).
     */
    private void deleteMarkedLater(String leases, byte[] mark) {
        Runnable task = () -> {
            int waitMillis = client.framework.getZookeeperClient().getConnectionTimeoutMs();
            while (client.framework.getState() == CuratorFrameworkState.STARTED
                    && !(client.owned() && backendClosed())) {
                try {
                    if (!client.framework.blockUntilConnected(waitMillis, TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                } catch (InterruptedException e) {
                    return; // close() of an owned client: its session end frees the nodes
                }
                Exception failure = new IllegalStateException("deleting the marked lease nodes under " + leases);
                deleteMarked(leases, mark, (node, stat) -> true, failure);
                if (failure.getSuppressed().length == 0) {
                    return;
                }
                if (client.isConnected()) {
                    LOG.log(System.Logger.Level.WARNING, failure.getMessage() + " failed (" + client.description
                            + "); the session end frees them", failure);
                    return;
                }
            }
        };
        try {
            cleaner.execute(task);
        } catch (RejectedExecutionException e) {
            // closed: an owned client's session end frees the nodes
        }
    }

    /** Deletes the lease nodes whose data is {@code mark} and that {@code also} accepts. */
    private void deleteMarked(String leases, byte[] mark, BiPredicate<String, Stat> also, Exception failure) {
        List<String> children;
        try {
            children = client.framework.getChildren().forPath(leases);
        } catch (KeeperException.NoNodeException e) {
            return;
        } catch (Exception e) {
            clearInterrupt(e);
            failure.addSuppressed(e);
            return;
        }
        for (String child : children) {
            String node = ZKPaths.makePath(leases, child);
            try {
                Stat stat = new Stat();
                if (Arrays.equals(mark, client.framework.getData().storingStatIn(stat).forPath(node))
                        && also.test(node, stat)) {
                    deleteQuietly(node, failure);
                }
            } catch (KeeperException.NoNodeException e) {
                // another's, released meanwhile
            } catch (Exception e) {
                clearInterrupt(e);
                failure.addSuppressed(e);
            }
        }
    }

    /**
     * Deletes our own node now, or in the background if the connection is down; a missing node is fine. Failures
     * are attached to {@code failure}.
     */
    void deleteQuietly(String node, Exception failure) {
        if (node == null) {
            return;
        }
        if (!client.isConnected()) {
            deleteInBackground(node);
            return;
        }
        try {
            client.framework.delete().quietly().guaranteed().forPath(node);
        } catch (Exception e) {
            clearInterrupt(e);
            failure.addSuppressed(e);
        }
    }

    /** A clean-up that was interrupted carries on without the flag: the caller reports the interrupt. */
    private static void clearInterrupt(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.interrupted();
        }
    }

    /**
     * Ends the watchdog's thread; on an owned client, also the clean-ups waiting for the connection (its session end
     * frees the nodes), while on an application's client they go on until the connection is back.
     */
    @Override
    public void close() {
        watchdog.close();
        if (client.owned()) {
            cleaner.shutdownNow();
        } else {
            cleaner.shutdown();
        }
    }
}
