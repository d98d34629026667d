package org.lockspi.zookeeper.recipe;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;

/**
 * The ZooKeeper lock recipe, written once over {@link ZkOps}: mutex, read-write lock (with downgrade),
 * semaphore and non-reentrant mutex, in Apache Curator's node layout ({@link ZkLayout}), so that every ZooKeeper
 * provider and any plain Curator application on the same path exclude each other.
 *
 * <ul>
 *   <li><b>Waiting.</b> Each waiter watches only the node it waits for (its predecessor, or for a reader the first
 *       writer ahead of it) with {@code getData}, and sleeps on its own monitor until that watch fires: no polling,
 *       no herd, FIFO order. A node that vanishes between the listing and the watch means "look again". A mutex
 *       waiter woken because the node it waited for was one of this backend's own, was granted, and is deleted,
 *       holds without listing the queue again (it checks that its own node exists, see {@link ZkOwnNode}): a
 *       hand-off between threads of one client costs a request of constant size, not a listing of the queue.</li>
 *   <li><b>Downgrade.</b> The read node of a thread that holds the write lock takes the write node's sequence
 *       number, as Curator's does: a writer queued behind the write waits until the downgraded read is released
 *       too, whoever's client it is (ours or a plain Curator application's).</li>
 *   <li><b>Failures.</b> On timeout, interrupt, close or error the acquisition deletes its node (and, for a
 *       semaphore, releases the internal mutex) before it returns. When the server cannot be told, the delete is
 *       retried when the connection returns; a node created while the connection dropped is found again by its
 *       Curator-protected {@code _c_<uuid>-} prefix.</li>
 *   <li><b>Connection.</b> {@code Disconnected} suspends every lease ({@link BackendEvents#connectionSuspended()});
 *       a reconnection with the same session restores them; an expired session loses every lease
 *       ({@link BackendEvents#leaseLost(BackendLease)}). An operation that meets a lost connection waits for it to
 *       return, at most until the deadline and at most {@code reconnectWait}, then fails with
 *       {@link LockConnectionException}.</li>
 *   <li><b>Deadlines.</b> Every answered request (and a heartbeat, {@link ZkContact}, while leases are held)
 *       confirms the session; a lease's {@code confirmedUntilNanos()} and {@code validUntilNanos()} come from the
 *       last confirmation, so the engine reports UNCERTAIN, then LOST, before any event arrives. A lease the
 *       engine judged lost while the session lives on still deletes its node on release.</li>
 *   <li><b>Bounded release and close.</b> {@code release()} waits at most
 *       {@link ZkSettings#releaseBound()} for the delete (then leaves it to the reconnection), and {@code close()}
 *       at most as long for the client's own close.</li>
 *   <li><b>Fencing token:</b> the czxid of the lease's own node, which grows with every creation on the ensemble,
 *       also across server restarts and the removal of an empty parent.</li>
 * </ul>
 *
 * <p>The provider opens the client, waits until it is connected, then constructs this backend over it; closing the
 * backend closes the {@link ZkOps}.
 */
public final class ZkLockBackend implements LockBackend {
    private static final System.Logger LOG = System.getLogger(ZkLockBackend.class.getName());
    private static final String[] MUTEX_ORDER = {ZkLayout.MUTEX};
    private static final String[] READ_WRITE_ORDER = {ZkLayout.READ, ZkLayout.WRITE};
    private static final AtomicInteger CLEANERS = new AtomicInteger();

    private final ZkOps ops;
    private final String root;
    private final BackendEvents events;
    private final long reconnectWaitNanos;
    private final Set<ZkLease> leases = ConcurrentHashMap.newKeySet();
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();
    /** Our mutex nodes in this session, by path, for the waiter behind each (see {@link ZkOwnNode}). */
    private final Map<String, ZkOwnNode> ownNodes = new ConcurrentHashMap<>();
    /** Nodes to delete once the connection returns: parent path and a node-name prefix (or whole name). */
    private final Set<Residue> residue = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor cleaner;
    private final ZkContact contact;
    private final Duration releaseBound;

    /** Guards the connection fields; waiters for the connection wait on {@link #stateChanged}. */
    private final ReentrantLock state = new ReentrantLock();
    private final Condition stateChanged = state.newCondition();
    private boolean connected = true; // guarded by state
    private long epoch;               // guarded by state; changes on every connection event
    private volatile long session;    // written under state; changes when a session expires
    private volatile boolean closed;

    /**
     * The backend a provider returns from {@code open}: this recipe on a connected client, with the URI's
     * settings. If the backend cannot be made, the client is closed before the failure is thrown.
     *
     * @param ops      the connected client; the backend closes it
     * @param settings the URI's settings
     * @param events   where to report connection and lease events
     * @return the backend
     */
    public static LockBackend open(ZkOps ops, ZkSettings settings, BackendEvents events) {
        try {
            return new ZkLockBackend(ops, settings, events);
        } catch (RuntimeException e) {
            try {
                ops.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * @param ops      the connected client; this backend becomes its connection listener and closes it
     * @param settings the path under which lock names live ({@code ""} or {@code "/app"}), how long an operation
     *                 waits for a lost connection to return (the connect timeout), the confirmation threshold and
     *                 the release bound
     * @param events   where to report connection and lease events
     */
    private ZkLockBackend(ZkOps ops, ZkSettings settings, BackendEvents events) {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.root = settings.path();
        this.events = Objects.requireNonNull(events, "events");
        this.reconnectWaitNanos = settings.connectTimeout().toNanos();
        this.releaseBound = settings.releaseBound();
        this.cleaner = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "lockspi-zk-cleaner-" + CLEANERS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        String probePath = root.isEmpty() ? "/" : root;
        this.contact = new ZkContact(ops.address(), settings.uncertainAfter(), ops::sessionTimeoutMillis,
                settings.sessionTimeout(), () -> ops.czxid(probePath), () -> !leases.isEmpty(),
                events::leasesConfirmed);
        ops.connectionListener(new Connection());
    }

    // ---- acquisition ---------------------------------------------------------------------------------------

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(deadline, "deadline");
        checkOpen();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring " + request);
        }
        String path = ZkLayout.join(root.isEmpty() ? "/" : root, request.name());
        Waiter waiter = new Waiter();
        waiters.add(waiter);
        try {
            long notSession = -1;
            while (true) {
                long gen = awaitSession(notSession, deadline);
                try {
                    return attempt(request, path, waiter, gen, deadline);
                } catch (SessionLost e) {
                    // Our node went with the session (or was deleted): start again in the next one.
                    notSession = gen;
                    if (deadline.hasExpired()) {
                        return null;
                    }
                }
            }
        } finally {
            waiters.remove(waiter);
        }
    }

    private ZkLease attempt(AcquireRequest request, String path, Waiter waiter, long gen, Deadline deadline)
            throws InterruptedException, SessionLost {
        switch (request.kind()) {
            case MUTEX:
                return lease(request.kind(), enqueue(path, ZkLayout.MUTEX, Order.MUTEX, waiter, gen, deadline),
                        gen);
            case WRITE:
                return lease(request.kind(), enqueue(path, ZkLayout.WRITE, Order.WRITE, waiter, gen, deadline),
                        gen);
            case READ:
                ZkLease write = downgradeOf(request, path, gen);
                return lease(request.kind(), write != null ? downgrade(path, write, deadline, gen)
                        : enqueue(path, ZkLayout.READ, Order.READ, waiter, gen, deadline), gen);
            case NON_REENTRANT_MUTEX:
            case SEMAPHORE:
                return semaphore(request.kind(), path, request.permits(), waiter, gen, deadline);
            default:
                throw new IllegalArgumentException("unknown lock kind: " + request.kind());
        }
    }

    private ZkLease lease(LockKind kind, ZkOps.Node node, long gen) {
        if (node == null) {
            return null;
        }
        ZkLease lease = new ZkLease(this, kind, node.path(), node.czxid(), gen);
        leases.add(lease);
        if (session != gen && leases.remove(lease) && lease.markLost()) {
            events.leaseLost(lease); // the session expired while we were granted
        }
        return lease;
    }

    /**
     * The write lease a READ request downgrades from: the request's held write, if it is ours, alive, in session
     * {@code gen} and on the same lock. A held write from an earlier session is no ground for a grant at once: its
     * node is gone, and the read queues like any other.
     */
    private ZkLease downgradeOf(AcquireRequest request, String path, long gen) {
        if (request.heldWrite() instanceof ZkLease write && leases.contains(write) && !write.isLost()
                && write.session() == gen && parentOf(write.path()).equals(path)) {
            return write;
        }
        return null;
    }

    /**
     * A downgrade, granted at once: the read node takes the sequence number of our write node instead of a new
     * one ({@code _c_<uuid>-__READ__<the write's 10 digits>}, an {@code EPHEMERAL} node), as Curator's read lock
     * does since CURATOR-621. It sorts where the write node sorts: no writer is ahead of it, and every writer that
     * queued behind our write stays behind the read, so it keeps waiting until the read is released too. Readers
     * that come later wait only for write nodes, so once the write is released they share with the downgraded read.
     *
     * @return the read node; never null (the create is retried until the deadline, then fails)
     */
    private ZkOps.Node downgrade(String path, ZkLease write, Deadline deadline, long gen)
            throws InterruptedException, SessionLost {
        String name = ZkLayout.protectedPrefix(UUID.randomUUID()) + ZkLayout.READ;
        String sequence = ZkLayout.sortKey(ZkLayout.nodeName(write.path()), ZkLayout.WRITE);
        ZkOps.Node node = null;
        Throwable failure = null;
        try {
            node = create(path, name, sequence, deadline, gen);
            return node;
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            if (node == null) {
                discard(path, name, false, failure); // a create lost with the connection may have made it
            }
        }
    }

    /** How a queued node decides whether it holds the lock. */
    private enum Order {
        /** A mutex lease's node: known to {@link #ownNodes} until released. */
        MUTEX(MUTEX_ORDER),
        /** The semaphore's internal mutex. */
        EXCLUSIVE(MUTEX_ORDER),
        WRITE(READ_WRITE_ORDER),
        READ(READ_WRITE_ORDER);

        final String[] baseNames;

        Order(String[] baseNames) {
            this.baseNames = baseNames;
        }

        ZkPredicates.Verdict verdict(List<String> children, String ours) {
            // one pass over the listing, no sort: a wake-up in a long queue costs the listing, not a sort of it
            return this == READ ? ZkPredicates.read(children, ours)
                    : ZkPredicates.exclusive(children, ours, baseNames);
        }
    }

    /**
     * Creates our node under {@code path} and waits until it holds the lock.
     *
     * @return our node, holding; null if the deadline passed first (the node is deleted then)
     */
    private ZkOps.Node enqueue(String path, String base, Order order, Waiter waiter, long gen, Deadline deadline)
            throws InterruptedException, SessionLost {
        String name = ZkLayout.protectedPrefix(UUID.randomUUID()) + base;
        ZkOps.Node node = null;
        ZkOwnNode own = null;
        String watched = null;
        boolean held = false;
        Throwable failure = null;
        try {
            node = create(path, name, null, deadline, gen);
            String ours = ZkLayout.nodeName(node.path());
            if (order == Order.MUTEX) {
                own = new ZkOwnNode();
                ownNodes.put(node.path(), own);
            }
            ZkOwnNode predecessor = null; // the node we wait for, if it is one of our own mutex nodes
            while (true) {
                if (predecessor != null && predecessor.grantedAndGone(
                        Math.min(deadline.remainingNanos(), releaseBound.toNanos()))) {
                    // it held, and it is gone: so is everything that was ahead of us (see ZkOwnNode)
                    String ourPath = node.path();
                    if (call(() -> ops.czxid(ourPath), deadline, gen) < 0) {
                        throw SessionLost.INSTANCE; // our node is gone
                    }
                    held = true;
                    own.granted();
                    return node;
                }
                List<String> children = call(() -> childrenOrEmpty(path), deadline, gen);
                ZkPredicates.Verdict verdict = order.verdict(children, ours);
                if (verdict == null) {
                    throw SessionLost.INSTANCE; // our node is gone
                }
                if (verdict.holds()) {
                    held = true;
                    if (own != null) {
                        own.granted();
                    }
                    return node;
                }
                if (deadline.hasExpired()) {
                    return null;
                }
                String target = ZkLayout.join(path, verdict.watch());
                predecessor = own != null ? ownNodes.get(target) : null;
                boolean set = call(() -> ops.watchNode(target, waiter), deadline, gen);
                if (!set) {
                    continue; // it went between the listing and the watch: look again
                }
                watched = target;
                if (!waiter.await(deadline)) {
                    return null;
                }
                checkOpen();
            }
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            if (watched != null && !held) {
                ops.unwatch(watched, waiter);
            }
            if (!held) {
                if (own != null) {
                    ownNodes.remove(node.path(), own);
                }
                discard(path, node != null ? ZkLayout.nodeName(node.path()) : name, node != null, failure);
            }
        }
    }

    /** A semaphore permit: Curator's InterProcessSemaphoreV2 (internal mutex, then a lease node). */
    private ZkLease semaphore(LockKind kind, String path, int permits, Waiter waiter, long gen, Deadline deadline)
            throws InterruptedException, SessionLost {
        String locksPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LOCKS);
        String leasesPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LEASES);
        ZkOps.Node internal = enqueue(locksPath, ZkLayout.MUTEX, Order.EXCLUSIVE, waiter, gen, deadline);
        if (internal == null) {
            return null;
        }
        Throwable failure = null;
        try {
            String name = ZkLayout.protectedPrefix(UUID.randomUUID()) + ZkLayout.LEASE;
            ZkOps.Node node = null;
            boolean held = false;
            Throwable leaseFailure = null;
            try {
                node = create(leasesPath, name, null, deadline, gen);
                String ours = ZkLayout.nodeName(node.path());
                while (true) {
                    List<String> children = call(() -> {
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
                        return lease(kind, node, gen);
                    }
                    if (deadline.hasExpired() || !waiter.await(deadline)) {
                        return null;
                    }
                    checkOpen();
                }
            } catch (Throwable t) {
                leaseFailure = t;
                throw t;
            } finally {
                ops.unwatch(leasesPath, waiter);
                if (!held) {
                    discard(leasesPath, node != null ? ZkLayout.nodeName(node.path()) : name, node != null,
                            leaseFailure);
                }
            }
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            discard(locksPath, ZkLayout.nodeName(internal.path()), true, failure);
        }
    }

    /**
     * Creates {@code parent/name<sequence>}: with the server's next sequence number when {@code sequence} is null,
     * else with the one given (a downgraded read node). After a connection loss during the create, looks for it by
     * its protected name before creating again.
     */
    private ZkOps.Node create(String parent, String name, String sequence, Deadline deadline, long gen)
            throws InterruptedException, SessionLost {
        String prefixPath = ZkLayout.join(parent, name);
        boolean[] uncertain = {false};
        return call(() -> {
            if (uncertain[0]) {
                ZkOps.Node found = find(parent, name);
                if (found != null) {
                    return found;
                }
            }
            uncertain[0] = true;
            return sequence == null ? ops.createEphemeralSequential(prefixPath)
                    : ops.createEphemeral(prefixPath + sequence);
        }, deadline, gen);
    }

    private ZkOps.Node find(String parent, String name) throws KeeperException, InterruptedException {
        for (String child : childrenOrEmpty(parent)) {
            if (child.startsWith(name)) {
                String path = ZkLayout.join(parent, child);
                long czxid = ops.czxid(path);
                if (czxid >= 0) {
                    return new ZkOps.Node(path, czxid);
                }
            }
        }
        return null;
    }

    private List<String> childrenOrEmpty(String path) throws KeeperException, InterruptedException {
        try {
            return ops.children(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
        checkOpen();
        String path = ZkLayout.join(root.isEmpty() ? "/" : root, name);
        Set<String> own = new java.util.HashSet<>();
        for (ZkLease lease : leases) {
            own.add(lease.path());
        }
        return read("inspect " + path, () -> ZkInspection.inspect(reader(), path, name, own::contains));
    }

    @Override
    public List<String> list(String prefix) throws InterruptedException {
        checkOpen();
        String base = root.isEmpty() ? "/" : root;
        return read("list " + base, () -> ZkInspection.list(reader(), base, prefix));
    }

    private ZkInspection.Reader reader() {
        return new ZkInspection.Reader() {
            @Override
            public List<String> children(String path) throws KeeperException, InterruptedException {
                return childrenOrEmpty(path);
            }

            @Override
            public org.apache.zookeeper.data.Stat stat(String path) throws KeeperException, InterruptedException {
                return ops.stat(path);
            }
        };
    }

    private interface Read<T> {
        T run() throws KeeperException, InterruptedException;
    }

    /** One read for inspection: no retry; a connection failure says so. */
    private <T> T read(String what, Read<T> op) throws InterruptedException {
        try {
            long sent = System.nanoTime();
            T result = op.run();
            contact.confirmed(sent);
            return result;
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
            throw new LockConnectionException("cannot " + what + " at ZooKeeper " + ops.address() + ": " + e.code(),
                    e);
        } catch (KeeperException e) {
            throw unexpected(what, e);
        } catch (IllegalStateException e) {
            checkOpen();
            throw e;
        }
    }

    // ---- release and clean-up --------------------------------------------------------------------------------

    /** @return the instant until which the last confirmed contact vouches for the session */
    long confirmedUntilNanos() {
        return contact.confirmedUntilNanos();
    }

    /** @return the instant before which the session cannot have expired on the server */
    long validUntilNanos() {
        return contact.validUntilNanos();
    }

    /**
     * Deletes the lease's node (also of a lease the engine judged lost by its deadline while the session lives
     * on), waiting at most the release bound; past it, or with the connection down, the delete is left to the
     * reconnection (or the session's end) and the caller is told.
     */
    void release(ZkLease lease) {
        if (!lease.markReleased()) {
            return;
        }
        leases.remove(lease);
        ZkOwnNode mine = ownNodes.remove(lease.path());
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
        if (lease.isLost() || closed || session != lease.session()) {
            return false; // its node went with its session; never touch a later holder's
        }
        String path = lease.path();
        Residue own = new Residue(parentOf(path), ZkLayout.nodeName(path), true);
        boolean down;
        state.lock();
        try {
            down = !connected;
        } finally {
            state.unlock();
        }
        if (down) {
            residue.add(own);
            throw new LockConnectionException("could not delete " + path + " at ZooKeeper " + ops.address()
                    + ": not connected; it is deleted when the connection returns or the session ends");
        }
        Future<?> delete;
        try {
            delete = cleaner.submit(() -> deleteOrLeave(own, mine));
        } catch (RejectedExecutionException e) {
            return false; // closing: the session's end frees it
        }
        try {
            delete.get(releaseBound.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            throw new LockConnectionException("could not delete " + path + " at ZooKeeper " + ops.address()
                    + " within " + releaseBound.toMillis() + " ms; it is deleted when the connection returns or"
                    + " the session ends", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while deleting " + path + " at ZooKeeper "
                    + ops.address() + "; it is deleted when the connection returns or the session ends", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new LockException("ZooKeeper at " + ops.address() + " failed: delete " + path, cause);
        }
    }

    /**
     * On the cleaner: deletes now, or leaves the delete to the reconnection; tells {@code mine} (if not null)
     * whether the node is gone.
     */
    private void deleteOrLeave(Residue own, ZkOwnNode mine) {
        boolean gone = false;
        try {
            if (!closed) {
                gone = deleteOrLeave(own);
            }
        } finally {
            if (mine != null) {
                mine.deleteDone(gone);
            }
        }
    }

    /** @return true when deleted (or found gone) */
    private boolean deleteOrLeave(Residue own) {
        if (!own.delete(this)) {
            residue.add(own);
            boolean up;
            state.lock();
            try {
                up = connected;
            } finally {
                state.unlock();
            }
            if (up) {
                drainResidue(); // the connection returned while we failed: do not wait for the next return
            }
            throw new LockConnectionException("could not delete " + own + " at ZooKeeper " + ops.address()
                    + ": connection lost; it is deleted when the connection returns or the session ends");
        }
        return true;
    }

    /**
     * Deletes the nodes under {@code parent} whose names start with {@code name} (our node, or the node a create
     * may have made), now if possible, else when the connection returns. Never throws; an unexpected failure is
     * attached to {@code failure}, if any.
     */
    private void discard(String parent, String name, boolean exact, Throwable failure) {
        if (closed) {
            return; // closing the session frees every node
        }
        Residue r = new Residue(parent, name, exact);
        boolean interrupted = Thread.interrupted();
        try {
            if (!r.delete(this)) {
                residue.add(r);
            }
        } catch (RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else if (!closed) {
                LOG.log(System.Logger.Level.WARNING, "could not delete " + r + " at ZooKeeper " + ops.address(), e);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Node(s) to delete: the children of {@code parent} whose names start with {@code name}. */
    private record Residue(String parent, String name, boolean exact) {
        /** @return true when done (deleted or already gone); false if the connection is down */
        boolean delete(ZkLockBackend b) {
            try {
                if (exact) {
                    try {
                        b.ops.delete(ZkLayout.join(parent, name));
                    } catch (KeeperException.NoNodeException e) {
                        // gone
                    }
                    return true;
                }
                for (String child : b.childrenOrEmpty(parent)) {
                    if (child.startsWith(name)) {
                        try {
                            b.ops.delete(ZkLayout.join(parent, child));
                        } catch (KeeperException.NoNodeException e) {
                            // gone
                        }
                    }
                }
                return true;
            } catch (KeeperException.ConnectionLossException e) {
                return false;
            } catch (KeeperException.SessionExpiredException e) {
                return true; // ephemeral: gone with the session
            } catch (KeeperException e) {
                throw b.unexpected("delete " + this, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public String toString() {
            return ZkLayout.join(parent, name) + (exact ? "" : "*");
        }
    }

    private void drainResidue() {
        for (Residue r : residue) {
            if (closed) {
                return;
            }
            try {
                if (r.delete(this)) {
                    residue.remove(r);
                }
            } catch (RuntimeException e) {
                residue.remove(r);
                LOG.log(System.Logger.Level.WARNING, "could not delete " + r + " at ZooKeeper " + ops.address(), e);
            }
        }
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    // ---- operations with connection-loss handling ------------------------------------------------------------

    @FunctionalInterface
    private interface Op<T> {
        T run() throws KeeperException, InterruptedException;
    }

    /** Our node's session is gone (or our node was deleted): the acquisition starts again. */
    private static final class SessionLost extends Exception {
        private static final long serialVersionUID = 1L;
        static final SessionLost INSTANCE = new SessionLost();

        private SessionLost() {
            super("session lost", null, false, false);
        }
    }

    /** Runs an operation in session {@code gen}, waiting for the connection to return after a loss. */
    private <T> T call(Op<T> op, Deadline deadline, long gen) throws InterruptedException, SessionLost {
        while (true) {
            long before;
            state.lock();
            try {
                checkOpen();
                if (session != gen) {
                    throw SessionLost.INSTANCE;
                }
                before = epoch;
            } finally {
                state.unlock();
            }
            try {
                long sent = System.nanoTime();
                T result = op.run();
                contact.confirmed(sent);
                return result;
            } catch (KeeperException.ConnectionLossException e) {
                awaitReconnect(before, deadline, e);
            } catch (KeeperException.SessionExpiredException e) {
                throw SessionLost.INSTANCE;
            } catch (KeeperException e) {
                throw unexpected(e.getPath(), e);
            } catch (IllegalStateException e) {
                checkOpen(); // closed underneath us: say so in our words
                throw e;
            }
        }
    }

    /** Waits until connected after connection event {@code before}; fails at the deadline or reconnectWait. */
    private void awaitReconnect(long before, Deadline deadline, KeeperException cause) throws InterruptedException {
        long limit = System.nanoTime() + reconnectWaitNanos;
        state.lock();
        try {
            while (true) {
                checkOpen();
                if (connected && epoch != before) {
                    return;
                }
                long left = Math.min(deadline.remainingNanos(), limit - System.nanoTime());
                if (left <= 0) {
                    throw new LockConnectionException("connection to ZooKeeper at " + ops.address()
                            + " lost and not back " + (deadline.hasExpired() ? "before the deadline"
                            : "within " + Duration.ofNanos(reconnectWaitNanos)), cause);
                }
                stateChanged.awaitNanos(left);
            }
        } finally {
            state.unlock();
        }
    }

    /** Waits until connected in a session other than {@code notSession}; returns that session. */
    private long awaitSession(long notSession, Deadline deadline) throws InterruptedException {
        long limit = System.nanoTime() + reconnectWaitNanos;
        state.lock();
        try {
            while (true) {
                checkOpen();
                if (connected && session != notSession) {
                    return session;
                }
                long left = Math.min(deadline.remainingNanos(), limit - System.nanoTime());
                if (left <= 0) {
                    throw new LockConnectionException("not connected to ZooKeeper at " + ops.address() + " "
                            + (deadline.hasExpired() ? "before the deadline"
                            : "within " + Duration.ofNanos(reconnectWaitNanos)));
                }
                stateChanged.awaitNanos(left);
            }
        } finally {
            state.unlock();
        }
    }

    private LockException unexpected(String what, KeeperException e) {
        return new LockException("ZooKeeper at " + ops.address() + " failed: " + what + ": " + e.code(), e);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock backend is closed: ZooKeeper at " + ops.address());
        }
    }

    // ---- connection events -------------------------------------------------------------------------------------

    private final class Connection implements ZkOps.ConnectionListener {
        @Override
        public void disconnected() {
            state.lock();
            try {
                connected = false;
                epoch++;
            } finally {
                state.unlock();
            }
            events.connectionSuspended();
        }

        @Override
        public void reconnected() {
            // The engine first, then the waiters: an acquisition woken here registers its lease with the
            // connection already restored, not UNCERTAIN for the moment between the two.
            events.connectionRestored();
            state.lock();
            try {
                connected = true;
                epoch++;
                stateChanged.signalAll();
            } finally {
                state.unlock();
            }
            contact.wakeUp(); // confirm at once: the leases turn HELD without waiting a heartbeat period
            if (!residue.isEmpty() && !closed) {
                try {
                    cleaner.execute(ZkLockBackend.this::drainResidue);
                } catch (RejectedExecutionException e) {
                    // closing
                }
            }
        }

        @Override
        public void sessionExpired() {
            state.lock();
            try {
                connected = false;
                epoch++;
                session++;
                stateChanged.signalAll();
            } finally {
                state.unlock();
            }
            residue.clear(); // ephemeral: gone with the session
            ownNodes.clear();
            for (ZkLease lease : leases) {
                if (leases.remove(lease) && lease.markLost()) {
                    events.leaseLost(lease);
                }
            }
            waiters.forEach(Waiter::run);
        }

        @Override
        public void newSession() {
            events.connectionRestored(); // before the waiters wake, as in reconnected()
            state.lock();
            try {
                connected = true;
                epoch++;
                stateChanged.signalAll();
            } finally {
                state.unlock();
            }
        }
    }

    // ---- waiting and closing -----------------------------------------------------------------------------------

    /** One acquisition's wake-up call: the watch callback, and the nudge on close or session loss. */
    private static final class Waiter implements Runnable {
        // a ReentrantLock, not a monitor: a virtual thread waiting here does not pin its carrier
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition woken = lock.newCondition();
        private boolean signalled; // guarded by lock

        @Override
        public void run() {
            lock.lock();
            try {
                signalled = true;
                woken.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** @return true when signalled; false when the deadline passed first */
        boolean await(Deadline deadline) throws InterruptedException {
            lock.lock();
            try {
                while (!signalled) {
                    if (deadline.isInfinite()) {
                        woken.await();
                    } else {
                        long left = deadline.remainingNanos();
                        if (left <= 0) {
                            return false;
                        }
                        woken.awaitNanos(left);
                    }
                }
                signalled = false;
                return true;
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public void close() {
        state.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            stateChanged.signalAll();
        } finally {
            state.unlock();
        }
        waiters.forEach(Waiter::run);
        contact.close();
        cleaner.shutdownNow();
        try {
            BoundedClose.run(ops.address(), ops::close, releaseBound);
        } finally {
            leases.clear();
            residue.clear();
            try {
                cleaner.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "ZkLockBackend[" + ops.address() + root + "]";
    }
}
