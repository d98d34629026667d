package org.lockspi.tck;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.lockspi.tck.support.WireProtocol;

/**
 * A real lock server the TCK runs against, with the server-side operations the contracts need to look behind
 * a provider's back. Implementations: an embedded ZooKeeper, an embedded Redis, a server in a container, or an
 * external server by URI (which offers fewer {@link Capability capabilities}).
 *
 * <p>A backend is started by its factory and shared by the tests of one TCK class; tests isolate themselves by
 * lock names, not by servers.
 */
public interface TckBackend extends AutoCloseable {

    /** What a backend can do besides serving clients; a contract that needs a missing one is skipped. */
    enum Capability {
        /** {@link #residue(String)} works. */
        INSPECT,
        /** {@link #forceLoss(String)} works. */
        FORCE_LOSS,
        /** {@link #restart()}, {@link #stopServer()} and {@link #startServer()} work and keep the server's data. */
        RESTART,
        /**
         * {@link #wakeupRegistrations(String)} works: the server can count what each waiter registered to be woken
         * (ZooKeeper: data and child watches), so that herd-free waiting can be checked (§14.2, §14.6).
         */
        WAKEUP_REGISTRATIONS,
        /**
         * {@link #removeEmptyState(String)} works: what the server keeps of a lock while nobody holds or waits for
         * it can be removed, as the server's own clean-up would (ZooKeeper: container parents, reaped; Redis: the
         * fencing counter, expired), so that fencing tokens can be checked across it (§13.4, §13.5).
         */
        EMPTY_STATE_REMOVAL,
        /**
         * Clients in other JVM processes on this machine reach the server at {@link #uri()} (a real server does;
         * an in-memory one does not); the cross-process and crash contracts need it.
         */
        OTHER_PROCESSES,
        /**
         * The server's own counters, from which a provider takes its fencing tokens, are above {@code 2^32} from
         * the start (ZooKeeper: every zxid, the server having begun a later epoch; the high 32 bits of a zxid are
         * its epoch), so a correct token is above {@code 2^32} and a token cut to 32 bits is not. Claimed only by a
         * backend that makes it so; a provider that draws its tokens from elsewhere is not tested by it.
         */
        COUNTERS_ABOVE_32_BITS,
        /**
         * A client may reach the server through a TCP proxy on this machine: its URI's single {@code host:port}
         * may be replaced by the proxy's (the fault contracts cut it off there, §18).
         */
        PARTITION,
        /** {@link #restartWithoutData(Duration)} works. */
        RESTART_WITHOUT_DATA,
        /**
         * The server ends, by itself, the locks of a client it no longer hears from, within the lease span
         * {@code T} of the test class ({@code LockProviderTck.leaseSpan()}): ZooKeeper expires the session, Redis
         * lets the key's time to live run out, a database lease row's expiry passes by the database's clock. A
         * server that frees a client's locks only when its connection closes (database advisory locks, held for
         * as long as a silent TCP connection stays open) does not: a partitioned or paused holder keeps such a
         * lock, and the rules that expect another client to take it over (§18.1 to §18.3, §20.4) cannot be shown.
         */
        ENDS_SILENT_SESSIONS,
        /**
         * The backend is a replicated ensemble whose members can be killed one at a time: it implements
         * {@link EnsembleBackend}. The ensemble contracts (§19) need it.
         */
        ENSEMBLE,
        /**
         * {@link #wireProtocol()} frames the server's protocol, and a client may reach the server through a TCP proxy
         * on this machine (as {@link #PARTITION} says), so that the proxy can drop or delay one chosen request or
         * answer instead of a whole connection: the single-message faults (§24.1 to §24.4) need it.
         */
        REQUEST_FAULTS,
        /**
         * {@link #openSessions()} lists the client sessions or connections the server has open, with the address
         * each comes from, and {@link #endSession(Session)} ends one server-side (ZooKeeper: expires it; Redis:
         * {@code CLIENT KILL}): a session replaced under a live service, and what its {@code close()} ends (§24.5).
         */
        SESSIONS
    }

    /**
     * A client session or connection the server has open.
     *
     * @param id   the server's name for it (ZooKeeper: the session id in hex, {@code 0x...}; Redis: the client id)
     * @param peer the address its connection comes from, {@code host:port} as the server sees it; {@code ""} for a
     *             session with no connection now (a ZooKeeper session whose client is reconnecting)
     */
    record Session(String id, String peer) {
        /**
         * @param id   the server's name for it
         * @param peer where its connection comes from, or {@code ""}
         */
        public Session {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(peer, "peer");
        }
    }

    /** The floor of every counter on a {@link Capability#COUNTERS_ABOVE_32_BITS} backend: {@code 2^32}. */
    long COUNTER_FLOOR = 1L << 32;

    /** @return a one-line description for reports, e.g. {@code embedded ZooKeeper 3.9.5 at 127.0.0.1:40123} */
    String description();

    /** @return the URI scheme clients use, e.g. {@code zookeeper} */
    String scheme();

    /** @return the base URI for clients, without query parameters, e.g. {@code zookeeper://127.0.0.1:40123/tck} */
    String uri();

    /** @return a URI of the same scheme pointing at a local port where nothing listens */
    String unreachableUri();

    /** @return the capabilities this backend offers */
    Set<Capability> capabilities();

    /**
     * The server-side state that acquisitions of a lock left behind: ZooKeeper, every node below the lock's path
     * other than (empty) parent nodes; Redis, the lock's keys other than its fencing counter. Empty when no one
     * holds or waits for the lock.
     *
     * @param lockName the lock's backend key, {@code LockKeys.key(name)}: a name of the readable form as it is
     * @return the paths or keys, sorted
     */
    List<String> residue(String lockName);

    /**
     * Makes every current holder of the lock lose it on the server, as a session expiry or lease expiry would:
     * ZooKeeper, expire the sessions that own the lock's ephemeral nodes; Redis, delete the lock's key.
     *
     * @param lockName the lock's backend key, {@code LockKeys.key(name)}: a name of the readable form as it is
     */
    void forceLoss(String lockName);

    /** Stops the server and starts it again on the same address with the same data; returns once it serves. */
    void restart();

    /**
     * Stops the server, keeping its address and data, until {@link #startServer()}: clients lose their connection
     * and cannot reconnect meanwhile. With {@link Capability#RESTART}; does nothing if it is stopped already.
     *
     * @throws UnsupportedOperationException if the backend lacks {@link Capability#RESTART}
     */
    default void stopServer() {
        throw new UnsupportedOperationException("backend " + description() + " lacks capability RESTART");
    }

    /**
     * Starts a server stopped by {@link #stopServer()} again on the same address with the same data; returns once
     * it serves. With {@link Capability#RESTART}; does nothing if it runs.
     *
     * @throws UnsupportedOperationException if the backend lacks {@link Capability#RESTART}
     */
    default void startServer() {
        throw new UnsupportedOperationException("backend " + description() + " lacks capability RESTART");
    }

    /**
     * Stops the server, deletes its data (every lock, fencing counters included), keeps it down for
     * {@code downtime} and starts it again on the same address, as a server without persistence comes back;
     * returns once it serves. (A server without persistence must stay down at least a session or lease time
     * for locks to stay safe: Redis calls this a delayed restart.)
     *
     * @param downtime how long the server stays stopped, at least zero
     * @throws IllegalArgumentException      if {@code downtime} is negative
     * @throws UnsupportedOperationException unless the backend offers {@link Capability#RESTART_WITHOUT_DATA}
     */
    default void restartWithoutData(Duration downtime) {
        throw new UnsupportedOperationException("capability RESTART_WITHOUT_DATA: " + description());
    }

    /**
     * Counts what waiters registered on the server to be woken about a lock's entries (ZooKeeper: the data and child
     * watches on the lock's nodes). {@code lockName} may also be a lock's name followed by {@code '/'} and the name of
     * one of its entries (as {@link #residue(String)} lists them, last segment), to count those on that entry alone.
     *
     * @param lockName the lock's backend key ({@code LockKeys.key(name)}: a name of the readable form as it is),
     *                 or that key plus {@code "/<entry>"}
     * @return how many registrations the server holds on that entry and those below it, summed over clients
     * @throws UnsupportedOperationException by default: the backend lacks {@link Capability#WAKEUP_REGISTRATIONS}
     */
    default int wakeupRegistrations(String lockName) {
        throw new UnsupportedOperationException("capability WAKEUP_REGISTRATIONS: " + description());
    }

    /**
     * Removes what the server keeps of a lock while nobody holds or waits for it, as the server's own clean-up
     * would: ZooKeeper, the lock's path if it has no children left (the container reaper), so that the next
     * acquisition recreates it and its sequence numbers start again; Redis, the lock's fencing counter (its
     * expiry). Fencing tokens must keep growing across it (§13.4, §13.5).
     *
     * @param lockName the lock's backend key, {@code LockKeys.key(name)}: a name of the readable form as it is
     * @throws UnsupportedOperationException by default: the backend lacks {@link Capability#EMPTY_STATE_REMOVAL}
     */
    default void removeEmptyState(String lockName) {
        throw new UnsupportedOperationException("capability EMPTY_STATE_REMOVAL: " + description());
    }

    /**
     * The framing of the server's wire protocol, for a {@link org.lockspi.tck.support.TcpProxy} that strikes one
     * message ({@link org.lockspi.tck.support.TcpProxy#inFrontOf(String, WireProtocol)}).
     *
     * @return the protocol clients speak to {@link #uri()}
     * @throws UnsupportedOperationException by default: the backend lacks {@link Capability#REQUEST_FAULTS}
     */
    default WireProtocol wireProtocol() {
        throw new UnsupportedOperationException("capability REQUEST_FAULTS: " + description());
    }

    /**
     * The client sessions (ZooKeeper) or connections (Redis) the server has open now, this backend's own
     * connection for asking left out.
     *
     * @return the sessions, in no particular order
     * @throws UnsupportedOperationException by default: the backend lacks {@link Capability#SESSIONS}
     */
    default List<Session> openSessions() {
        throw new UnsupportedOperationException("capability SESSIONS: " + description());
    }

    /**
     * Ends a session server-side, as the server itself would while its client lives on: ZooKeeper expires it (its
     * ephemeral nodes go, the client learns it when it reconnects), Redis closes the connection
     * ({@code CLIENT KILL}; keys stay). Returns once the server has ended it; does nothing for a session it no
     * longer has.
     *
     * @param session one of {@link #openSessions()}
     * @throws UnsupportedOperationException by default: the backend lacks {@link Capability#SESSIONS}
     */
    default void endSession(Session session) {
        throw new UnsupportedOperationException("capability SESSIONS: " + description());
    }

    /** Stops the server and deletes its data. Idempotent. */
    @Override
    void close();
}
