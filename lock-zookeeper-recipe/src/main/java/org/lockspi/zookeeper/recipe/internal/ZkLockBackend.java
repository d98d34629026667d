package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkSettings;

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
    private final ZkOps ops;
    private final String root;
    private final BackendEvents events;
    private final LiveLeases leases;
    private final LeaseRelease releases;
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();
    private final ResidueCleaner cleaner;
    private final Nodes nodes;
    private final WaitQueue queue;
    private final ZkContact contact;
    private final Duration releaseBound;

    private final SessionGate gate;

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
        this.releaseBound = settings.releaseBound();
        this.leases = new LiveLeases(this, events, this::session);
        String probePath = root.isEmpty() ? "/" : root;
        LiveLeases live = leases;
        this.contact = new ZkContact(ops.address(), settings.uncertainAfter(), ops::sessionTimeoutMillis,
                settings.sessionTimeout(), () -> ops.czxid(probePath), () -> !live.isEmpty(),
                events::leasesConfirmed);
        this.gate = new SessionGate(ops.address(), settings.connectTimeout(), contact::confirmed);
        this.cleaner = new ResidueCleaner(ops, gate);
        this.nodes = new Nodes(ops, gate);
        this.queue = new WaitQueue(ops, gate, nodes, cleaner, releaseBound);
        this.releases = new LeaseRelease(ops, gate, cleaner, queue, leases, releaseBound);
        ops.connectionListener(new Connection());
    }

    // ---- acquisition ---------------------------------------------------------------------------------------

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(deadline, "deadline");
        gate.checkOpen();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring " + request);
        }
        String path = ZkLayout.join(root.isEmpty() ? "/" : root, request.name());
        Waiter waiter = new Waiter();
        waiters.add(waiter);
        try {
            long notSession = -1;
            while (true) {
                long gen = gate.awaitSession(notSession, deadline);
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
                return leases.grant(request.kind(), queue.enqueue(path, QueueRule.MUTEX, waiter, gen, deadline),
                        gen);
            case WRITE:
                return leases.grant(request.kind(), queue.enqueue(path, QueueRule.WRITE, waiter, gen, deadline),
                        gen);
            case READ:
                ZkLease write = downgradeOf(request, path, gen);
                return leases.grant(request.kind(), write != null ? downgrade(path, write, deadline, gen)
                        : queue.enqueue(path, QueueRule.READ, waiter, gen, deadline), gen);
            case NON_REENTRANT_MUTEX:
            case SEMAPHORE:
                return semaphore(request.kind(), path, request.permits(), waiter, gen, deadline);
            default:
                throw new IllegalArgumentException("unknown lock kind: " + request.kind());
        }
    }

    /**
     * The write lease a READ request downgrades from: the request's held write, if it is ours, alive, in session
     * {@code gen} and on the same lock. A held write from an earlier session is no ground for a grant at once: its
     * node is gone, and the read queues like any other.
     */
    private ZkLease downgradeOf(AcquireRequest request, String path, long gen) {
        if (request.heldWrite() instanceof ZkLease write && leases.isLive(write) && !write.isLost()
                && write.session() == gen && Nodes.parentOf(write.path()).equals(path)) {
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
            node = nodes.create(path, name, sequence, deadline, gen);
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

    /** A semaphore permit: Curator's InterProcessSemaphoreV2 (internal mutex, then a lease node). */
    private ZkLease semaphore(LockKind kind, String path, int permits, Waiter waiter, long gen, Deadline deadline)
            throws InterruptedException, SessionLost {
        String locksPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LOCKS);
        String leasesPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LEASES);
        ZkOps.Node internal = queue.enqueue(locksPath, QueueRule.SEMAPHORE_MUTEX, waiter, gen, deadline);
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
                node = nodes.create(leasesPath, name, null, deadline, gen);
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
                    if (children.size() <= permits) {
                        held = true;
                        return leases.grant(kind, node, gen);
                    }
                    if (deadline.hasExpired() || !waiter.await(deadline)) {
                        return null;
                    }
                    gate.checkOpen();
                }
            } catch (Throwable t) {
                leaseFailure = t;
                throw t;
            } finally {
                ops.unwatch(leasesPath, waiter);
                if (!held) {
                    cleaner.discard(leasesPath, node != null ? ZkLayout.nodeName(node.path()) : name, node != null,
                            leaseFailure);
                }
            }
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            cleaner.discard(locksPath, ZkLayout.nodeName(internal.path()), true, failure);
        }
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
        gate.checkOpen();
        String path = ZkLayout.join(root.isEmpty() ? "/" : root, name);
        Set<String> own = leases.paths();
        return gate.once("inspect " + path, () -> ZkInspection.inspect(reader(), path, name, own::contains));
    }

    @Override
    public List<String> list(String prefix) throws InterruptedException {
        gate.checkOpen();
        String base = root.isEmpty() ? "/" : root;
        return gate.once("list " + base, () -> ZkInspection.list(reader(), base, prefix));
    }

    private ZkInspection.Reader reader() {
        return new ZkInspection.Reader() {
            @Override
            public List<String> children(String path) throws KeeperException, InterruptedException {
                return Nodes.childrenOrEmpty(ops, path);
            }

            @Override
            public org.apache.zookeeper.data.Stat stat(String path) throws KeeperException, InterruptedException {
                return ops.stat(path);
            }
        };
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

    /** @return the current session's number (for a grant, after construction) */
    private long session() {
        return gate.session();
    }

    /** Releases a lease of this backend, see {@link LeaseRelease}. */
    void release(ZkLease lease) {
        releases.release(lease);
    }

    // ---- connection events -------------------------------------------------------------------------------------

    private final class Connection implements ZkOps.ConnectionListener {
        @Override
        public void disconnected() {
            gate.disconnected();
            events.connectionSuspended();
        }

        @Override
        public void reconnected() {
            // The engine first, then the waiters: an acquisition woken here registers its lease with the
            // connection already restored, not UNCERTAIN for the moment between the two.
            events.connectionRestored();
            gate.connected();
            contact.wakeUp(); // confirm at once: the leases turn HELD without waiting a heartbeat period
            cleaner.drainLater();
        }

        @Override
        public void sessionExpired() {
            gate.expired();
            cleaner.sessionExpired(); // ephemeral: gone with the session
            queue.sessionExpired();
            leases.loseAll();
            waiters.forEach(Waiter::run);
        }

        @Override
        public void newSession() {
            events.connectionRestored(); // before the waiters wake, as in reconnected()
            gate.connected();
        }
    }

    // ---- waiting and closing -----------------------------------------------------------------------------------

    @Override
    public void close() {
        if (!gate.close()) {
            return;
        }
        waiters.forEach(Waiter::run);
        contact.close();
        cleaner.shutdown();
        try {
            BoundedClose.run(ops.address(), ops::close, releaseBound);
        } finally {
            leases.clear();
            cleaner.awaitClosed();
        }
    }

    @Override
    public String toString() {
        return "ZkLockBackend[" + ops.address() + root + "]";
    }
}
