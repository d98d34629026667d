package org.lockspi.curator.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockUri;
import org.lockspi.zookeeper.recipe.BoundedClose;
import org.lockspi.zookeeper.recipe.ZkConnectFailures;
import org.lockspi.zookeeper.recipe.ZkContact;
import org.lockspi.zookeeper.recipe.ZkInspection;
import org.lockspi.zookeeper.recipe.ZkSettings;

/**
 * A {@link LockBackend} on one {@link CuratorFramework}: every acquisition is made by a fresh Curator recipe object
 * ({@link InterProcessMutex}, {@link ReadWriteHalves an InterProcessReadWriteLock},
 * {@link InterProcessSemaphoreV2}), so that Curator's per-thread bookkeeping never outlives one lockspi hold, and
 * lease loss is read from Curator's connection states and the ZooKeeper session id.
 */
public final class CuratorBackend implements LockBackend, ConnectionStateListener {
    private static final System.Logger LOG = System.getLogger(CuratorBackend.class.getName());
    /** Curator's semaphore keeps its leases in this child of the semaphore's path. */
    private static final String SEMAPHORE_LEASES = "leases";
    /** Stands for "no deadline" where Curator's semaphore needs a number (its untimed form has no closed check). */
    private static final long UNBOUNDED_MILLIS = TimeUnit.DAYS.toMillis(365 * 100L);
    /** How long close() waits for interrupted acquisitions to clean up before it ends the session. */
    private static final long CLOSE_WAIT_MILLIS = 10_000;

    private static final AtomicInteger CLIENTS = new AtomicInteger();
    private static final AtomicInteger WATCHDOGS = new AtomicInteger();

    private final CuratorFramework client;
    /** The client's notify thread, for a client of our own; null on an application's client. */
    private final ExecutorService notifier;
    private final boolean ownsClient;
    private final String basePath;
    private final BackendEvents events;
    private final String description;

    /** Leases granted and neither released nor lost; registration and loss are guarded by {@code sessions}. */
    private final Set<CuratorLease> live = ConcurrentHashMap.newKeySet();
    private final ReentrantLock sessions = new ReentrantLock();
    private long currentSession; // guarded by sessions; 0 if unknown
    private boolean suspended; // guarded by sessions: SUSPENDED or LOST seen, RECONNECTED not yet
    private final Set<Long> deadSessions = new HashSet<>(); // guarded by sessions

    private final ZkContact contact;
    /** Cuts a synchronous release delete short at the release bound. */
    private final Watchdog watchdog;
    private final Duration releaseBound;
    private final long uncertainAfterNanos;
    /** The session timeout asked for, while the negotiated one is not known. */
    private final long sessionTimeoutNanos;
    /** The negotiated session timeout, read on connection events: the deadlines must not ask Curator. */
    private volatile int negotiatedMillis = -1;

    // ReentrantLocks, not monitors: an acquiring virtual thread passes them without pinning its carrier
    private final ReentrantLock gate = new ReentrantLock();
    private final Condition gateChanged = gate.newCondition();
    private final Set<Thread> waiting = new HashSet<>(); // guarded by gate
    private final Set<Thread> interruptedByClose = new HashSet<>(); // guarded by gate
    private volatile boolean closed;

    private CuratorBackend(CuratorFramework client, ExecutorService notifier, String basePath,
                           BackendEvents events, String description, Duration sessionTimeout,
                           Duration uncertainAfter, Duration releaseBound) {
        this.client = client;
        this.notifier = notifier;
        this.ownsClient = notifier != null;
        this.basePath = basePath;
        this.events = events;
        this.description = description;
        this.releaseBound = releaseBound;
        this.uncertainAfterNanos = uncertainAfter.toNanos();
        this.sessionTimeoutNanos = sessionTimeout.toNanos();
        this.currentSession = sessionId();
        this.negotiatedMillis = negotiatedSessionTimeout();
        // the heartbeat goes straight to the ZooKeeper handle: one request, no Curator retry, no connection wait
        this.contact = new ZkContact(client.getZookeeperClient().getCurrentConnectionString(), uncertainAfter,
                () -> negotiatedMillis, sessionTimeout,
                () -> client.getZookeeperClient().getZooKeeper().exists("/", false), () -> !live.isEmpty(),
                events::leasesConfirmed);
        this.watchdog = new Watchdog("lockspi-curator-release-bound-" + WATCHDOGS.incrementAndGet());
        client.getConnectionStateListenable().addListener(this);
    }

    private int negotiatedSessionTimeout() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionTimeout();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return -1;
        }
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
        ZkConnectFailures.resolve(uri.hostList());
        int id = CLIENTS.incrementAndGet();
        // ZooKeeper's event thread may deliver a last watch after close: drop its wake-up quietly then
        ExecutorService notifier = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "lockspi-curator-notify-" + id);
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.DiscardPolicy());
        CuratorFramework client;
        try {
            client = settings.newClient(notifier);
        } catch (RuntimeException e) {
            notifier.shutdownNow();
            throw e;
        }
        try {
            client.start();
            if (!client.blockUntilConnected((int) settings.connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw ZkConnectFailures.unreachable(uri.hostList(), settings.connectTimeout, null);
            }
            return new CuratorBackend(client, notifier, settings.basePath(), events, uri.toString(),
                    settings.sessionTimeout, settings.uncertainAfter, settings.releaseBound());
        } catch (InterruptedException e) {
            LockConnectionException failure = ZkConnectFailures.interrupted(uri.hostList(), e);
            closeQuietly(client, notifier, failure);
            throw failure;
        } catch (RuntimeException e) {
            closeQuietly(client, notifier, e);
            throw e instanceof LockConnectionException || e instanceof IllegalArgumentException ? e
                    : new LockConnectionException("cannot connect to ZooKeeper at " + uri.hostList() + ": " + e, e);
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
        if (client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalArgumentException("the Curator client is not started: " + client.getState());
        }
        String description = describe(client, basePath);
        int wait = client.getZookeeperClient().getConnectionTimeoutMs();
        try {
            if (!client.blockUntilConnected(wait, TimeUnit.MILLISECONDS)) {
                throw new LockConnectionException("the Curator client did not connect within " + wait + " ms: "
                        + description);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while waiting for the Curator client: " + description, e);
        }
        Duration session = Duration.ofMillis(client.getZookeeperClient().getConnectionTimeoutMs());
        try {
            session = Duration.ofMillis(client.getZookeeperClient().getZooKeeper().getSessionTimeout());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        return new CuratorBackend(client, null, basePath, events, description, session, session.dividedBy(2),
                ZkSettings.releaseBound(Duration.ofMillis(wait), session));
    }

    /**
     * @param client   a client
     * @param basePath a base path within its namespace
     * @return where its locks live, for messages
     */
    public static String describe(CuratorFramework client, String basePath) {
        String namespace = client.getNamespace();
        String root = namespace == null || namespace.isEmpty() ? "" : "/" + namespace;
        return "zookeeper://" + client.getZookeeperClient().getCurrentConnectionString() + root
                + (basePath.equals("/") ? "" : basePath) + " (application's Curator client)";
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
        DeadlineRetry.begin(deadline);
        LockListing.begin(ZKPaths.fixForNamespace(client.getNamespace(), path), request.kind());
        try {
            CuratorLease lease;
            try {
                awaitConnection(request, deadline);
                lease = acquireOnServer(request, path, deadline, me);
            } catch (InterruptedException e) {
                Thread.interrupted();
                settle(path);
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
                register(lease);
                if (closed) {
                    lease.release();
                    throw closedDuring(request, null);
                }
            } else if (closed) {
                throw closedDuring(request, null);
            }
            return lease;
        } finally {
            DeadlineRetry.clear();
            LockListing.clear();
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
    }

    /**
     * While the connection is down Curator would wait for it, per operation and per retry, past any deadline: wait
     * here instead, at most the client's connection timeout and never past the deadline.
     */
    private void awaitConnection(AcquireRequest request, Deadline deadline) throws InterruptedException {
        if (client.getZookeeperClient().isConnected()) {
            return;
        }
        long wait = Math.min(deadline.remainingMillis(), client.getZookeeperClient().getConnectionTimeoutMs());
        if (wait > 0 && client.blockUntilConnected((int) wait, TimeUnit.MILLISECONDS)) {
            return;
        }
        if (!client.getZookeeperClient().isConnected()) {
            throw new LockConnectionException("not connected, cannot acquire " + request + " on " + description);
        }
    }

    private CuratorLease acquireOnServer(AcquireRequest request, String path, Deadline deadline, Thread me)
            throws InterruptedException {
        try {
            switch (request.kind()) {
                case MUTEX:
                    return acquireMutex(request, path, deadline, me);
                case WRITE: {
                    ReadWriteHalves rw = ReadWriteHalves.create(client, path);
                    if (!acquire(rw.write(), deadline)) {
                        return null;
                    }
                    return granted(request, rw.write().node(), me, rw, rw.write()::release);
                }
                case READ:
                    return acquireRead(request, path, deadline, me);
                case NON_REENTRANT_MUTEX:
                case SEMAPHORE:
                    return acquireSemaphore(request, path, deadline);
                default:
                    throw new IllegalArgumentException("unknown kind: " + request.kind());
            }
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw connectionFailure("could not acquire " + request, e);
        }
    }

    private CuratorLease acquireMutex(AcquireRequest request, String path, Deadline deadline, Thread me)
            throws Exception {
        RecordingDriver driver = new RecordingDriver(contact::confirmed);
        InterProcessMutex mutex = new InterProcessMutex(client, path, driver);
        boolean acquired;
        try {
            acquired = acquire(mutex, deadline);
        } catch (InterruptedException e) {
            // Curator queued the delete of its node with the interrupt flag set; delete it ourselves as well
            Thread.interrupted();
            deleteQuietly(driver.created(), e);
            throw e;
        }
        if (!acquired) {
            return null;
        }
        Stat created = driver.createStat();
        if (created == null || !confirmedLately()) {
            // no stat from the create (Curator found its node again after a connection loss), or no request of
            // this client sent lately is known answered (a long wait): read the node, which confirms afresh
            return granted(request, driver.created(), me, null, mutex::release);
        }
        // the create's stat has the token and the session; no request more
        return new CuratorLease(this, request.kind(), request.name(), driver.created(), created.getCzxid(),
                created.getEphemeralOwner(), me, null);
    }

    private CuratorLease acquireRead(AcquireRequest request, String path, Deadline deadline, Thread me)
            throws Exception {
        BackendLease heldWrite = request.heldWrite();
        ReadWriteHalves rw = null;
        if (heldWrite instanceof CuratorLease) {
            CuratorLease write = (CuratorLease) heldWrite;
            if (write.readWrite != null && write.owner == me && !write.isLost() && !write.isReleased()) {
                // a downgrade: Curator grants the read half at once because this thread owns the write half
                rw = write.readWrite;
            }
        }
        boolean downgrade = rw != null;
        if (!downgrade) {
            rw = ReadWriteHalves.create(client, path);
        }
        if (!acquire(rw.read(), deadline)) {
            return null;
        }
        if (downgrade && heldWrite.isLost()) {
            // the write half died while Curator granted the read on its word: take the read the normal way
            rw.read().release();
            return acquireRead(AcquireRequest.read(request.name(), null), path, deadline, me);
        }
        ReadWriteHalves.Read read = rw.read();
        return granted(request, read.node(), me, null, read::release);
    }

    private CuratorLease acquireSemaphore(AcquireRequest request, String path, Deadline deadline)
            throws Exception {
        // NON_REENTRANT_MUTEX is a semaphore of one, as Curator's InterProcessSemaphoreMutex is; that class does not
        // show its lease node, which the fencing token needs, so the semaphore is used directly (same nodes).
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, path, request.permits());
        // A mark of this acquisition in its lease node: Curator leaves the node behind when an interrupt lands
        // between its create and its return (releasing its internal lock); the mark finds it. Curator reads no data.
        byte[] mark = ("lockspi-" + java.util.UUID.randomUUID()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        semaphore.setNodeData(mark);
        long millis = deadline.isInfinite() ? UNBOUNDED_MILLIS : deadline.remainingMillis();
        Lease lease;
        try {
            lease = semaphore.acquire(millis, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            boolean interrupted = Thread.interrupted() || e instanceof InterruptedException;
            deleteMarkedLeases(ZKPaths.makePath(path, SEMAPHORE_LEASES), mark, e);
            if (interrupted && !(e instanceof InterruptedException)) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
        if (lease == null) {
            return null;
        }
        String node = ZKPaths.makePath(path, SEMAPHORE_LEASES, lease.getNodeName());
        return granted(request, node, null, null, lease::close);
    }

    private static boolean acquire(InterProcessMutex mutex, Deadline deadline) throws Exception {
        if (deadline.isInfinite()) {
            mutex.acquire(); // false from Curator (client closed) surfaces as an IOException
            return true;
        }
        return mutex.acquire(deadline.remainingMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Whether a request of this client sent within the last eighth of the confirmation span (the shorter of
     * {@code uncertainAfter} and the session's validity) is known answered: a lease granted now without a request
     * of its own is then born HELD, and stays so until the heartbeat (every half of {@code uncertainAfter})
     * confirms it again.
     */
    private boolean confirmedLately() {
        int negotiated = negotiatedMillis;
        long session = negotiated > 0 ? TimeUnit.MILLISECONDS.toNanos(negotiated) : sessionTimeoutNanos;
        long span = Math.min(uncertainAfterNanos, (long) (session * (1 - ZkContact.DRIFT_MARGIN)));
        return contact.confirmedUntilNanos() - System.nanoTime() >= span - span / 8;
    }

    /** Reads the node's czxid and owner; if the node is already gone, the lease is born lost. */
    private CuratorLease granted(AcquireRequest request, String node, Thread owner, ReadWriteHalves readWrite,
                                 CuratorLease.CuratorRelease curatorRelease) throws Exception {
        Stat stat;
        try {
            long sent = System.nanoTime();
            stat = client.checkExists().forPath(node);
            contact.confirmed(sent); // the acquisition's last request: the session was alive when it arrived
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.interrupted();
            }
            try {
                curatorRelease.release();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
                deleteInBackground(node);
            }
            throw e;
        }
        CuratorLease lease = new CuratorLease(this, request.kind(), request.name(), node,
                stat == null ? -1 : stat.getCzxid(), stat == null ? 0 : stat.getEphemeralOwner(), owner, readWrite);
        if (stat == null) {
            lease.markLost();
        }
        return lease;
    }

    /**
     * Records a granted lease, unless its session is already known dead. A grant proves the connection is up; if
     * Curator's RECONNECTED is still queued, the reconciliation happens now, so the lease is not born UNCERTAIN.
     */
    private void register(CuratorLease lease) {
        sessions.lock();
        try {
            if (suspended && client.getZookeeperClient().isConnected()) {
                reconcile();
            }
            if (lease.isLost() || deadSessions.contains(lease.session)) {
                lease.markLost();
                return;
            }
            live.add(lease);
        } finally {
            sessions.unlock();
        }
    }

    /** Called by a lease on release. */
    void forget(CuratorLease lease) {
        live.remove(lease);
    }

    boolean isClosed() {
        return closed;
    }

    // ---- connection states ---------------------------------------------------------------------------------

    @Override
    public void stateChanged(CuratorFramework changed, ConnectionState state) {
        // BackendEvents never block nor call back, so they are called under the lock that orders them
        sessions.lock();
        try {
            switch (state) {
                case SUSPENDED:
                    suspended = true;
                    events.connectionSuspended();
                    break;
                case LOST:
                    // the session expired (told by the server, or injected by Curator once the session timeout
                    // passed while suspended): every node of that session is gone or about to be
                    suspended = true;
                    if (currentSession != 0) {
                        deadSessions.add(currentSession);
                    }
                    takeLost(lease -> deadSessions.contains(lease.session)).forEach(events::leaseLost);
                    break;
                case CONNECTED:
                case RECONNECTED:
                    reconcile();
                    break;
                default:
                    break; // READ_ONLY: this provider does not ask for read-only mode
            }
        } finally {
            sessions.unlock();
        }
    }

    /**
     * The connection is up: leases whose node belongs to an earlier session are lost (Curator's mutex still calls
     * itself acquired), the others held again. Caller holds {@code sessions}.
     */
    private void reconcile() {
        long now = sessionId();
        if (now == 0) {
            return;
        }
        if (now != currentSession) {
            if (currentSession != 0) {
                deadSessions.add(currentSession);
            }
            currentSession = now;
        }
        negotiatedMillis = negotiatedSessionTimeout();
        takeLost(lease -> lease.session != now).forEach(events::leaseLost);
        suspended = false;
        events.connectionRestored();
        contact.wakeUp(); // confirm at once: the leases turn HELD without waiting a heartbeat period
    }

    /** Marks and removes the live leases that match. Caller holds {@code sessions}. */
    private List<CuratorLease> takeLost(java.util.function.Predicate<CuratorLease> dead) {
        List<CuratorLease> lost = new ArrayList<>();
        for (CuratorLease lease : live) {
            if (dead.test(lease) && lease.markLost()) {
                live.remove(lease);
                lost.add(lease);
            }
        }
        return lost;
    }

    private long sessionId() {
        try {
            return client.getZookeeperClient().isConnected()
                    ? client.getZookeeperClient().getZooKeeper().getSessionId() : 0;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }
    }

    // ---- clean-up helpers --------------------------------------------------------------------------------------

    /**
     * One synchronous round trip on our session. Curator deletes its node when an acquisition is interrupted, but
     * it re-sets the interrupt flag first, so its delete is sent and not waited for; requests of one session run in
     * order, so once this returns that delete is done.
     */
    private void settle(String path) {
        if (!client.getZookeeperClient().isConnected()) {
            return; // nothing goes out now; Curator's guaranteed deletes retry in the background
        }
        try {
            client.checkExists().forPath(path);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.interrupted();
            }
            LOG.log(System.Logger.Level.DEBUG, "settling " + path + " after an interrupt failed", e);
        }
    }

    /** Deletes the lease nodes whose data is {@code mark} (the interrupt flag clear); failures go to {@code failure}. */
    private void deleteMarkedLeases(String leases, byte[] mark, Exception failure) {
        List<String> children;
        try {
            children = client.getChildren().forPath(leases);
        } catch (KeeperException.NoNodeException e) {
            return;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.interrupted();
            }
            failure.addSuppressed(e);
            return;
        }
        for (String child : children) {
            String node = ZKPaths.makePath(leases, child);
            try {
                if (java.util.Arrays.equals(mark, client.getData().forPath(node))) {
                    deleteQuietly(node, failure);
                }
            } catch (KeeperException.NoNodeException e) {
                // another's, released meanwhile
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.interrupted();
                }
                failure.addSuppressed(e);
            }
        }
    }

    /** Deletes our own node now; a missing node is fine. Failures are attached to {@code failure}. */
    private void deleteQuietly(String node, Exception failure) {
        if (node == null) {
            return;
        }
        try {
            client.delete().quietly().guaranteed().forPath(node);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.interrupted();
            }
            failure.addSuppressed(e);
        }
    }

    /**
     * Deletes our own node in the background; Curator retries a guaranteed delete until the server confirms.
     *
     * @return a latch counted down once the server confirmed it (or it was never sent)
     */
    CountDownLatch deleteInBackground(String node) {
        CountDownLatch done = new CountDownLatch(1);
        if (ownsClient && closed) {
            done.countDown();
            return done; // the session is over, the server removed it
        }
        long sent = System.nanoTime();
        try {
            client.delete().quietly().guaranteed().inBackground((c, event) -> {
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
                    contact.confirmed(sent); // answered: the session was alive (keeps a draining queue confirmed)
                    done.countDown();
                }
            }).forPath(node);
        } catch (Exception e) {
            done.countDown();
            LOG.log(System.Logger.Level.WARNING, "could not delete " + node + " of " + description
                    + "; the session end frees it", e);
        }
        return done;
    }

    /**
     * Deletes a released lease's node, waiting at most the release bound: the same delete Curator's recipes make
     * (our node, and only it). While connected, it is one synchronous request (its reply wakes the caller directly),
     * cut short by the {@link Watchdog} at the bound; if it fails or is cut short, Curator's guaranteed delete takes
     * over in the background, so that an outage never holds the caller.
     *
     * @throws LockConnectionException if the server did not confirm within the bound; Curator goes on retrying
     */
    void deleteBounded(String node) {
        if (!client.getZookeeperClient().isConnected()) {
            deleteInBackground(node);
            throw new LockConnectionException("could not delete " + node + " at ZooKeeper "
                    + client.getZookeeperClient().getCurrentConnectionString()
                    + ": not connected; it is deleted when the connection returns or the session ends");
        }
        long start = System.nanoTime();
        long end = start + releaseBound.toNanos();
        if (!Thread.currentThread().isInterrupted()) {
            Watchdog.Ticket ticket = watchdog.arm(end);
            if (ticket != null) {
                boolean deleted = false;
                boolean interrupted = false;
                try {
                    client.getZookeeperClient().getZooKeeper()
                            .delete(ZKPaths.fixForNamespace(client.getNamespace(), node), -1);
                    deleted = true;
                } catch (KeeperException.NoNodeException e) {
                    deleted = true; // gone with its session, or deleted by an earlier attempt
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "deleting " + node + " failed, retried in the background", e);
                } finally {
                    boolean cutShort = watchdog.disarm(ticket);
                    if (interrupted && !cutShort) {
                        Thread.currentThread().interrupt(); // the caller's interrupt, not the watchdog's
                    }
                }
                if (deleted) {
                    contact.confirmed(start);
                    return;
                }
            }
        }
        CountDownLatch done = deleteInBackground(node);
        try {
            if (!done.await(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new LockConnectionException("could not delete " + node + " at ZooKeeper "
                        + client.getZookeeperClient().getCurrentConnectionString() + " within "
                        + releaseBound.toMillis() + " ms; it is deleted when the connection returns or the session"
                        + " ends");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while deleting " + node + " at ZooKeeper "
                    + client.getZookeeperClient().getCurrentConnectionString()
                    + "; it is deleted when the connection returns or the session ends", e);
        }
    }

    /** @return the instant until which the last confirmed contact vouches for the session */
    long confirmedUntilNanos() {
        return contact.confirmedUntilNanos();
    }

    /** @return the instant before which the session cannot have expired on the server */
    long validUntilNanos() {
        return contact.validUntilNanos();
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
        checkOpen();
        String path = ZKPaths.makePath(basePath, name);
        Set<String> own = new HashSet<>();
        for (CuratorLease lease : live) {
            own.add(lease.node);
        }
        try {
            return ZkInspection.inspect(reader(), path, name, own::contains);
        } catch (KeeperException e) {
            throw connectionFailure("could not inspect " + path, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws InterruptedException {
        checkOpen();
        try {
            return ZkInspection.list(reader(), basePath, prefix);
        } catch (KeeperException e) {
            throw connectionFailure("could not list the locks under " + basePath, e);
        }
    }

    private ZkInspection.Reader reader() {
        return new CuratorReader(client, this::connectionFailure);
    }

    LockConnectionException connectionFailure(String what, Exception e) {
        if (e instanceof LockConnectionException) {
            return (LockConnectionException) e;
        }
        String detail = e instanceof KeeperException ? ((KeeperException) e).code().toString() : e.toString();
        return new LockConnectionException(what + " on " + description + ": " + detail, e);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock backend is closed: " + description);
        }
    }

    private IllegalStateException closedDuring(AcquireRequest request, Exception cause) {
        IllegalStateException e = new IllegalStateException("lock backend closed while acquiring " + request
                + ": " + description);
        if (cause != null) {
            e.addSuppressed(cause);
        }
        return e;
    }

    // ---- close ------------------------------------------------------------------------------------------------

    @Override
    public void close() {
        gate.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            // Curator's waits end only on a watch or a timeout: interrupt them, and let them clean up
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
                            + CLOSE_WAIT_MILLIS + " ms after close of " + description);
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
        } finally {
            gate.unlock();
        }
        client.getConnectionStateListenable().removeListener(this);
        contact.close();
        watchdog.close();
        if (ownsClient) {
            live.clear();
            // ends the session: the server deletes every node of ours; during an outage, never past the bound
            BoundedClose.run(client.getZookeeperClient().getCurrentConnectionString(), () -> {
                try {
                    client.close();
                } finally {
                    notifier.shutdownNow();
                }
            }, releaseBound);
            return;
        }
        // the application's client lives on: delete our nodes, and only ours, waiting at most the bound
        List<CountDownLatch> deletes = new ArrayList<>();
        for (CuratorLease lease : new ArrayList<>(live)) {
            live.remove(lease);
            deletes.add(deleteInBackground(lease.node));
        }
        long end = System.nanoTime() + releaseBound.toNanos();
        try {
            for (CountDownLatch done : deletes) {
                if (!done.await(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new LockConnectionException("could not free every lock of " + description + " within "
                            + releaseBound.toMillis() + " ms of close; the guaranteed deletes are retried in the"
                            + " background");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while freeing the locks of " + description
                    + " on close; the guaranteed deletes are retried in the background", e);
        }
    }

    private static void closeQuietly(CuratorFramework client, ExecutorService notifier, Exception failure) {
        try {
            client.close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        } finally {
            notifier.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "CuratorBackend[" + description + (closed ? ", closed" : "") + "]";
    }
}
