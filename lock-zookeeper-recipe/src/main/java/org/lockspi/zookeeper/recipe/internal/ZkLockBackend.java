package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkSettings;

/**
 * The ZooKeeper lock recipe, written once over {@link ZkOps}: mutex, read-write lock (with downgrade),
 * semaphore and non-reentrant mutex, in Apache Curator's node layout ({@link ZkLayout}), so that every ZooKeeper
 * provider and any plain Curator application on the same path exclude each other. This class is the facade; each
 * part has a class of its own:
 *
 * <ul>
 *   <li><b>Waiting</b> ({@link WaitQueue}, its rule a {@link QueueRule}). Each waiter watches only the node it
 *       waits for (its predecessor, or for a reader the first writer ahead of it) with {@code getData}, and sleeps
 *       on its own {@link Waiter} until that watch fires: no polling, no herd, FIFO order. A node that vanishes
 *       between the listing and the watch means "look again". A mutex waiter behind one of this backend's own
 *       granted nodes holds, once that node is deleted, without listing the queue again (see {@link ZkOwnNode}).</li>
 *   <li><b>Downgrade</b> ({@link Downgrade}). The read node of a thread that holds the write lock takes the write
 *       node's sequence number, as Curator's does: a writer queued behind the write waits until the downgraded read
 *       is released too, whoever's client it is (ours or a plain Curator application's).</li>
 *   <li><b>Semaphore</b> ({@link SemaphoreRecipe}): Curator's {@code InterProcessSemaphoreV2}.</li>
 *   <li><b>Failures</b> ({@link ResidueCleaner}, {@link Nodes}). On timeout, interrupt, close or error the
 *       acquisition deletes its node (and, for a semaphore, releases the internal mutex) before it returns. When
 *       the server cannot be told, the delete is retried when the connection returns; a node created while the
 *       connection dropped is found again by its Curator-protected {@code _c_<uuid>-} prefix.</li>
 *   <li><b>Connection</b> ({@link SessionGate}). {@code Disconnected} suspends every lease
 *       ({@link BackendEvents#connectionSuspended()}); a reconnection with the same session restores them; an
 *       expired session loses every lease ({@link BackendEvents#leaseLost(BackendLease)}, {@link LiveLeases}). An
 *       operation that meets a lost connection waits for it to return, at most until the deadline and at most the
 *       connect timeout, then fails with {@link LockConnectionException}.</li>
 *   <li><b>Deadlines</b> ({@link ZkContact}). Every answered request (and a heartbeat while leases are held)
 *       confirms the session; a lease's {@code confirmedUntilNanos()} and {@code validUntilNanos()} come from the
 *       last confirmation, so the engine reports UNCERTAIN, then LOST, before any event arrives. A lease the
 *       engine judged lost while the session lives on still deletes its node on release.</li>
 *   <li><b>Bounded release and close</b> ({@link LeaseRelease}, {@link BoundedClose}). {@code release()} waits at
 *       most {@link ZkSettings#releaseBound()} for the delete (then leaves it to the reconnection), and
 *       {@code close()} at most as long for the client's own close.</li>
 *   <li><b>Revocation</b> ({@link ZkRevocation}, {@link RevocationWatch}; the node data is {@link ZkLayout}'s). A
 *       revocable acquisition's node is created with the mark; {@code revoke} writes the request over it with a
 *       conditional {@code setData}; the holder's data watch on its node sees it, and the lease turns lost, the
 *       engine is told, and only then the node is deleted as a release deletes it.</li>
 *   <li><b>Fencing token:</b> the czxid of the lease's own node, which grows with every creation on the ensemble,
 *       also across server restarts and the removal of an empty parent.</li>
 * </ul>
 *
 * <p>The provider opens the client, waits until it is connected, then constructs this backend over it; closing the
 * backend closes the {@link ZkOps}.
 */
public final class ZkLockBackend implements LockBackend {
    private static final byte[] NO_DATA = new byte[0];
    private final ZkOps ops;
    /** The full path under which lock names live: {@code "/"} or {@code "/app"}. */
    private final String base;
    private final BackendEvents events;
    private final Duration releaseBound;
    private final ZkContact contact;
    private final SessionGate gate;
    private final LiveLeases leases;
    private final ResidueCleaner cleaner;
    private final WaitQueue queue;
    private final Downgrade downgrade;
    private final SemaphoreRecipe semaphore;
    private final LeaseRelease releases;
    private final RevocationWatch revocations;
    /** The wake-up calls of the acquisitions under way, nudged on close and session loss. */
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();

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
        this.base = settings.path().isEmpty() ? "/" : settings.path();
        this.events = Objects.requireNonNull(events, "events");
        this.releaseBound = settings.releaseBound();
        LiveLeases live = new LiveLeases(this, events, this::session);
        this.leases = live;
        this.contact = new ZkContact(ops.address(), settings.uncertainAfter(), ops::sessionTimeoutMillis,
                settings.sessionTimeout(), () -> ops.czxid(base), () -> !live.isEmpty(), events::leasesConfirmed);
        this.gate = new SessionGate(ops.address(), settings.connectTimeout(), contact::confirmed);
        this.cleaner = new ResidueCleaner(ops, gate);
        Nodes nodes = new Nodes(ops, gate);
        this.queue = new WaitQueue(ops, gate, nodes, cleaner, releaseBound);
        this.downgrade = new Downgrade(nodes, cleaner, leases);
        this.semaphore = new SemaphoreRecipe(ops, gate, nodes, queue, cleaner, leases);
        this.releases = new LeaseRelease(ops, gate, cleaner, queue, leases, releaseBound);
        this.revocations = new RevocationWatch(ops, gate, leases, events, releases);
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
        String path = ZkLayout.join(base, request.name());
        Waiter waiter = new Waiter();
        waiters.add(waiter);
        try {
            long notSession = -1;
            while (true) {
                long gen = gate.awaitSession(notSession, deadline);
                try {
                    ZkLease lease = attempt(request, path, waiter, gen, deadline);
                    if (lease != null && lease.isRevocable()) {
                        revocations.watch(lease);
                    }
                    return lease;
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
        boolean revocable = request.isRevocable();
        byte[] data = revocable ? ZkLayout.revocableData() : NO_DATA; // the mark: see ZkLayout
        switch (request.kind()) {
            case MUTEX:
                return leases.grant(request.kind(),
                        queue.enqueue(path, QueueRule.MUTEX, waiter, gen, data, deadline), gen, revocable);
            case WRITE:
                return leases.grant(request.kind(),
                        queue.enqueue(path, QueueRule.WRITE, waiter, gen, data, deadline), gen, revocable);
            case READ:
                ZkLease write = downgrade.heldWrite(request, path, gen);
                return leases.grant(request.kind(), write != null ? downgrade.readNode(path, write, data, deadline, gen)
                        : queue.enqueue(path, QueueRule.READ, waiter, gen, data, deadline), gen, revocable);
            case NON_REENTRANT_MUTEX:
            case SEMAPHORE:
                return semaphore.acquire(request.kind(), path, request.permits(), waiter, gen, data, deadline);
            default:
                throw new IllegalArgumentException("unknown lock kind: " + request.kind());
        }
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
        gate.checkOpen();
        String path = ZkLayout.join(base, name);
        Set<String> own = leases.paths();
        return gate.once("inspect " + path, () -> ZkInspection.inspect(reader(), path, name, own::contains));
    }

    @Override
    public List<String> list(String prefix) throws InterruptedException {
        gate.checkOpen();
        return gate.once("list " + base, () -> ZkInspection.list(reader(), base, prefix));
    }

    // ---- revocation -------------------------------------------------------------------------------------------------

    /**
     * Writes the request on the holder's node ({@link ZkRevocation}); the holder's backend sees it through its watch
     * ({@link RevocationWatch}). One attempt, as an inspection: a lost connection fails it.
     */
    @Override
    public boolean revoke(String name, long fencingToken, String requestedBy) throws InterruptedException {
        gate.checkOpen();
        String path = ZkLayout.join(base, name);
        return gate.once("revoke token " + fencingToken + " of " + path,
                () -> ZkRevocation.request(reader(), path, fencingToken, requestedBy, ops.address()));
    }

    private ZkRevocation.Client reader() {
        return new ZkRevocation.Client() {
            @Override
            public ZkOps.NodeData data(String path) throws KeeperException, InterruptedException {
                return ops.data(path);
            }

            @Override
            public void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
                ops.setData(path, data, version);
            }

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

    // ---- leases ---------------------------------------------------------------------------------------------------

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
            releases.disconnected();
            events.connectionSuspended();
        }

        @Override
        public void reconnected() {
            // Up first, so that a release made as soon as the engine reports the lease HELD again deletes at once;
            // then the engine, then the waiters: an acquisition woken here registers its lease with the
            // connection already restored, not UNCERTAIN for the moment between the two.
            gate.connected();
            events.connectionRestored();
            gate.wakeWaiters();
            contact.wakeUp(); // confirm at once: the leases turn HELD without waiting a heartbeat period
            cleaner.drainLater();
            revocations.reconnected(); // the reads for revocation requests that met the outage
        }

        @Override
        public void sessionExpired() {
            gate.expired();
            cleaner.sessionExpired(); // ephemeral: gone with the session
            queue.sessionExpired();
            revocations.sessionExpired();
            leases.loseAll();
            waiters.forEach(Waiter::run);
        }

        @Override
        public void newSession() {
            gate.connected(); // in the order of reconnected()
            events.connectionRestored();
            gate.wakeWaiters();
        }
    }

    // ---- closing ------------------------------------------------------------------------------------------------

    @Override
    public void close() {
        if (!gate.close()) {
            return;
        }
        waiters.forEach(Waiter::run);
        contact.close();
        cleaner.shutdown();
        revocations.shutdown();
        try {
            BoundedClose.run(ops.address(), ops::close, releaseBound);
        } finally {
            leases.clear();
            cleaner.awaitClosed();
            revocations.awaitClosed();
        }
    }

    @Override
    public String toString() {
        return "ZkLockBackend[" + ops.address() + (base.equals("/") ? "" : base) + "]";
    }
}
