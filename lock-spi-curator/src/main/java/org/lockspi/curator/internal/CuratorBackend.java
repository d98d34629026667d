package org.lockspi.curator.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockConnectionException;
import org.lockspi.LockInfo;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockUri;
import org.lockspi.zookeeper.recipe.internal.ZkInspection;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;
import org.lockspi.zookeeper.recipe.internal.ZkRevocation;

/**
 * A {@link LockBackend} on one {@link CuratorFramework}, a facade over its parts: the client and its timing
 * ({@link CuratorClient}), the live leases read against Curator's connection states and the session id
 * ({@link CuratorSessions}), one acquisition path per kind ({@link CuratorAcquisitions}) and the deletes the backend
 * makes itself ({@link CuratorDeletes}) and revocation ({@link CuratorRevocations}). Here: the acquisitions under way,
 * so that close() can end them, inspection, the revoker's side of revocation, and close.
 */
public final class CuratorBackend implements LockBackend {
    private static final System.Logger LOG = System.getLogger(CuratorBackend.class.getName());
    /** How long close() waits for interrupted acquisitions to clean up before it ends the session. */
    private static final long CLOSE_WAIT_MILLIS = 10_000;

    private final CuratorClient client;
    private final String basePath;
    private final CuratorSessions sessions;
    private final CuratorDeletes deletes;
    private final CuratorAcquisitions acquisitions;
    private final CuratorRevocations revocations;
    private final RevocableLeftovers leftovers;

    // ReentrantLocks, not monitors: an acquiring virtual thread passes them without pinning its carrier
    private final ReentrantLock gate = new ReentrantLock();
    private final Condition gateChanged = gate.newCondition();
    private final Set<Thread> waiting = new HashSet<>(); // guarded by gate
    private final Set<Thread> interruptedByClose = new HashSet<>(); // guarded by gate
    private volatile boolean closed;

    private CuratorBackend(CuratorClient client, String basePath, BackendEvents events) {
        this.client = client;
        this.basePath = basePath;
        this.sessions = new CuratorSessions(client, events);
        this.deletes = new CuratorDeletes(client, sessions, this::isClosed);
        this.leftovers = new RevocableLeftovers(client::isConnected,
                path -> deletes.deleteRevocableLeftovers(ZKPaths.makePath(path, ZkLayout.SEMAPHORE_LEASES)));
        this.acquisitions = new CuratorAcquisitions(client, sessions, deletes, leftovers);
        this.revocations = new CuratorRevocations(client, sessions, deletes);
        client.framework.getConnectionStateListenable().addListener(sessions);
        client.framework.getConnectionStateListenable().addListener(deletes);
        client.framework.getConnectionStateListenable().addListener(revocations);
    }

    /**
     * Starts a client for the URI and waits for its first connection.
     *
     * @param uri    the URI, its parameters among {@link Settings#PARAMETERS}
     * @param events where to report
     * @return the open backend, owning its client
     * @throws IllegalArgumentException if a parameter is malformed
     * @throws LockConnectionException  if no server answers within the connect timeout
     */
    public static CuratorBackend connect(LockUri uri, BackendEvents events) {
        Settings settings = Settings.of(uri);
        CuratorClient client = CuratorClient.start(settings);
        try {
            return new CuratorBackend(client, settings.basePath(), events);
        } catch (RuntimeException e) {
            throw client.failedToOpen(e, uri.hostList());
        }
    }

    /**
     * A backend on an application's started client, which it never closes.
     *
     * @param client   the started client; lock names live under its namespace and {@code basePath}
     * @param basePath the lock names' base path within the client's namespace, {@code "/"} for its root
     * @param events   where to report
     * @return the open backend
     * @throws LockConnectionException if the client does not connect within its connection timeout
     */
    public static CuratorBackend onClient(CuratorFramework client, String basePath, BackendEvents events) {
        return new CuratorBackend(CuratorClient.of(client, basePath), basePath, events);
    }

    /**
     * @param client   a client
     * @param basePath a base path within its namespace
     * @return where its locks live, for messages
     */
    public static String describe(CuratorFramework client, String basePath) {
        return CuratorClient.describe(client, basePath);
    }

    private boolean isClosed() {
        return closed;
    }

    // ---- acquire --------------------------------------------------------------------------------------------

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        Thread me = Thread.currentThread();
        String path = ZKPaths.makePath(basePath, request.name());
        gate.lock();
        try {
            checkOpen();
            waiting.add(me);
        } finally {
            gate.unlock();
        }
        // on the provider's own client only: its session serves this backend alone (see RevocableLeftovers)
        boolean gated = request.isRevocable() && client.owned()
                && (request.kind() == LockKind.SEMAPHORE || request.kind() == LockKind.NON_REENTRANT_MUTEX);
        if (gated) {
            boolean entered;
            try {
                entered = leftovers.enter(path, deadline);
            } catch (InterruptedException e) {
                leave(me);
                if (closed) {
                    throw closedDuring(request, e);
                }
                throw e;
            }
            if (!entered) {
                leave(me);
                return null; // the deadline passed while a search for a node left behind ran
            }
        }
        DeadlineRetry.begin(deadline);
        LockListing.begin(ZKPaths.fixForNamespace(client.framework.getNamespace(), path), request.kind());
        try {
            CuratorLease lease;
            try {
                lease = acquisitions.acquire(request, path, deadline, me);
            } catch (InterruptedException e) {
                Thread.interrupted();
                deletes.settle(path);
                if (closed) {
                    throw closedDuring(request, e);
                }
                throw e;
            } catch (RuntimeException e) {
                if (closed) {
                    throw closedDuring(request, e);
                }
                throw e;
            }
            if (lease != null) {
                sessions.register(lease);
                if (closed) {
                    lease.release();
                    throw closedDuring(request, null);
                }
                if (request.isRevocable()) {
                    revocations.watch(lease);
                }
            } else if (closed) {
                throw closedDuring(request, null);
            }
            return lease;
        } finally {
            DeadlineRetry.clear();
            LockListing.clear();
            if (gated) {
                leftovers.leave(path); // the lease, if any, is registered: a search may run
            }
            leave(me);
        }
    }

    /** The calling thread's acquisition is over: close() need not wait for it. */
    private void leave(Thread me) {
        gate.lock();
        try {
            waiting.remove(me);
            if (interruptedByClose.remove(me)) {
                Thread.interrupted(); // the interrupt was close()'s, not the caller's
            }
            gateChanged.signalAll();
        } finally {
            gate.unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock backend is closed: " + client.description);
        }
    }

    private IllegalStateException closedDuring(AcquireRequest request, Exception cause) {
        IllegalStateException e = new IllegalStateException("lock backend closed while acquiring " + request
                + ": " + client.description);
        if (cause != null) {
            e.addSuppressed(cause);
        }
        return e;
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public LockInfo inspect(String name) throws InterruptedException {
        checkOpen();
        String path = ZKPaths.makePath(basePath, name);
        Set<String> own = sessions.nodes();
        try {
            return ZkInspection.inspect(reader(), path, name, own::contains);
        } catch (KeeperException e) {
            throw client.failure("could not inspect " + path, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws InterruptedException {
        checkOpen();
        try {
            return ZkInspection.list(reader(), basePath, prefix);
        } catch (KeeperException e) {
            throw client.failure("could not list the locks under " + basePath, e);
        }
    }

    // ---- revocation -----------------------------------------------------------------------------------------------

    @Override
    public boolean revoke(String name, long fencingToken, String requestedBy) throws InterruptedException {
        checkOpen();
        String path = ZKPaths.makePath(basePath, name);
        try {
            return ZkRevocation.request(reader(), path, fencingToken, requestedBy, client.address());
        } catch (KeeperException e) {
            throw client.failure("could not revoke token " + fencingToken + " of " + path, e);
        }
    }

    private CuratorReader reader() {
        return new CuratorReader(client.framework, client::failure);
    }

    // ---- close ------------------------------------------------------------------------------------------------

    @Override
    public void close() {
        if (!endAcquisitions()) {
            return;
        }
        client.framework.getConnectionStateListenable().removeListener(sessions);
        client.framework.getConnectionStateListenable().removeListener(deletes);
        client.framework.getConnectionStateListenable().removeListener(revocations);
        sessions.close();
        deletes.close();
        List<CuratorLease> live = sessions.takeAll();
        if (client.owned()) {
            client.close(); // ends the session: the server deletes every node of ours
            return;
        }
        // the application's client lives on: delete our nodes, and only ours, waiting at most the bound
        List<CountDownLatch> deleting = new ArrayList<>();
        for (CuratorLease lease : live) {
            deleting.add(deletes.deleteInBackground(lease.node));
        }
        long end = System.nanoTime() + client.releaseBound.toNanos();
        try {
            for (CountDownLatch done : deleting) {
                if (!done.await(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new LockConnectionException("could not free every lock of " + client.description
                            + " within " + client.releaseBound.toMillis() + " ms of close; the guaranteed deletes"
                            + " are retried in the background");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while freeing the locks of " + client.description
                    + " on close; the guaranteed deletes are retried in the background", e);
        }
    }

    /**
     * Marks the backend closed and ends the acquisitions under way: Curator's waits end only on a watch or a
     * timeout, so they are interrupted, and given {@value #CLOSE_WAIT_MILLIS} ms to clean up.
     *
     * @return false if it was closed already
     */
    private boolean endAcquisitions() {
        gate.lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
            for (Thread t : waiting) {
                interruptedByClose.add(t);
                t.interrupt();
            }
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
            boolean interrupted = false;
            while (!waiting.isEmpty()) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    LOG.log(System.Logger.Level.WARNING, waiting.size() + " acquisitions still running "
                            + CLOSE_WAIT_MILLIS + " ms after close of " + client.description);
                    break;
                }
                try {
                    gateChanged.await(left, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return true;
        } finally {
            gate.unlock();
        }
    }

    @Override
    public String toString() {
        return "CuratorBackend[" + client.description + (closed ? ", closed" : "") + "]";
    }
}
