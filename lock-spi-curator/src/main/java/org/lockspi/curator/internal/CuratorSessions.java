package org.lockspi.curator.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.lockspi.spi.BackendEvents;
import org.lockspi.zookeeper.recipe.internal.ZkContact;

/**
 * The live leases of one backend (granted, neither released nor lost), read against Curator's connection states
 * and the ZooKeeper session id: {@code SUSPENDED} makes them UNCERTAIN; {@code LOST} (the session expired, or
 * Curator's default handling injected the expiry once the session timeout passed while suspended) makes them LOST;
 * on {@code RECONNECTED} leases whose node belongs to an earlier session are LOST (Curator's mutex still calls
 * itself acquired) and the others HELD again. With them, the last confirmed contact ({@link ZkContact}): its
 * heartbeat runs while leases are live, and the leases' deadlines come from it.
 *
 * <p>Registration, loss and the session fields are guarded by one lock; the engine's events never block nor call
 * back, so they are called under it, in order.
 */
final class CuratorSessions implements ConnectionStateListener {
    private final CuratorClient client;
    private final BackendEvents events;
    /** Leases granted and neither released nor lost; registration and loss are guarded by {@code sessions}. */
    private final Set<CuratorLease> live = ConcurrentHashMap.newKeySet();
    private final ReentrantLock sessions = new ReentrantLock();
    private long currentSession; // guarded by sessions; 0 if unknown
    private boolean suspended; // guarded by sessions: SUSPENDED or LOST seen, RECONNECTED not yet
    private final Set<Long> deadSessions = new HashSet<>(); // guarded by sessions

    private final ZkContact contact;
    private final long uncertainAfterNanos;
    /** The session timeout asked for, while the negotiated one is not known. */
    private final long sessionTimeoutNanos;
    /** The negotiated session timeout, read on connection events: the deadlines must not ask Curator. */
    private volatile int negotiatedMillis;

    /** Starts the heartbeat; the caller adds this as the client's connection state listener. */
    CuratorSessions(CuratorClient client, BackendEvents events) {
        this.client = client;
        this.events = events;
        this.uncertainAfterNanos = client.uncertainAfter.toNanos();
        this.sessionTimeoutNanos = client.sessionTimeout.toNanos();
        this.currentSession = client.sessionId();
        this.negotiatedMillis = client.negotiatedSessionTimeout();
        // the heartbeat goes straight to the ZooKeeper handle: one request, no Curator retry, no connection wait
        CuratorFramework framework = client.framework;
        this.contact = new ZkContact(client.address(), client.uncertainAfter, () -> negotiatedMillis,
                client.sessionTimeout, () -> framework.getZookeeperClient().getZooKeeper().exists("/", false),
                () -> !live.isEmpty(), events::leasesConfirmed);
    }

    // ---- the live leases -------------------------------------------------------------------------------------------

    /**
     * Records a granted lease, unless its session is already known dead. A grant proves the connection is up; if
     * Curator's RECONNECTED is still queued, the reconciliation happens now, so the lease is not born UNCERTAIN.
     */
    void register(CuratorLease lease) {
        sessions.lock();
        try {
            if (suspended && client.isConnected()) {
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

    /**
     * A revocation request seen for a live lease: marks it lost and tells the engine, in order with the other
     * losses. The caller deletes its node only after this returned true.
     *
     * @param why the reason for the engine's log
     * @return whether it was live (neither released nor lost before)
     */
    boolean revoked(CuratorLease lease, String why) {
        sessions.lock();
        try {
            if (!live.contains(lease) || !lease.markLost()) {
                return false;
            }
            live.remove(lease);
            events.leaseLost(lease, why);
            return true;
        } finally {
            sessions.unlock();
        }
    }

    /** Called by a lease on release. */
    void forget(CuratorLease lease) {
        live.remove(lease);
    }

    /** @return the nodes of the live leases, for inspection's {@code own} */
    Set<String> nodes() {
        Set<String> nodes = new HashSet<>();
        for (CuratorLease lease : live) {
            nodes.add(lease.node);
        }
        return nodes;
    }

    /** @return the live leases, which are live no longer (the backend closes) */
    List<CuratorLease> takeAll() {
        List<CuratorLease> all = new ArrayList<>();
        for (CuratorLease lease : new ArrayList<>(live)) {
            live.remove(lease);
            all.add(lease);
        }
        return all;
    }

    // ---- connection states ---------------------------------------------------------------------------------------

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
        long now = client.sessionId();
        if (now == 0) {
            return;
        }
        if (now != currentSession) {
            if (currentSession != 0) {
                deadSessions.add(currentSession);
            }
            currentSession = now;
        }
        negotiatedMillis = client.negotiatedSessionTimeout();
        takeLost(lease -> lease.session != now).forEach(events::leaseLost);
        suspended = false;
        events.connectionRestored();
        contact.wakeUp(); // confirm at once: the leases turn HELD without waiting a heartbeat period
    }

    /** Marks and removes the live leases that match. Caller holds {@code sessions}. */
    private List<CuratorLease> takeLost(Predicate<CuratorLease> dead) {
        List<CuratorLease> lost = new ArrayList<>();
        for (CuratorLease lease : live) {
            if (dead.test(lease) && lease.markLost()) {
                live.remove(lease);
                lost.add(lease);
            }
        }
        return lost;
    }

    // ---- confirmed contact -----------------------------------------------------------------------------------------

    /** @param sentNanos {@link System#nanoTime()} before an answered request of the current session was sent */
    void confirmed(long sentNanos) {
        contact.confirmed(sentNanos);
    }

    /**
     * Whether a request of this client sent within the last eighth of the confirmation span (the shorter of
     * {@code uncertainAfter} and the session's validity) is known answered: a lease granted now without a request
     * of its own is then born HELD, and stays so until the heartbeat (every half of {@code uncertainAfter})
     * confirms it again.
     */
    boolean confirmedLately() {
        int negotiated = negotiatedMillis;
        long session = negotiated > 0 ? TimeUnit.MILLISECONDS.toNanos(negotiated) : sessionTimeoutNanos;
        long span = Math.min(uncertainAfterNanos, (long) (session * (1 - ZkContact.DRIFT_MARGIN)));
        return contact.confirmedUntilNanos() - System.nanoTime() >= span - span / 8;
    }

    /** @return the instant until which the last confirmed contact vouches for the session */
    long confirmedUntilNanos() {
        return contact.confirmedUntilNanos();
    }

    /** @return the instant before which the session cannot have expired on the server */
    long validUntilNanos() {
        return contact.validUntilNanos();
    }

    /** Ends the heartbeat; the caller has removed this listener. */
    void close() {
        contact.close();
    }
}
