package org.lockspi.tck;

import java.util.List;
import java.util.Set;

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
        /** {@link #restart()} works and keeps the server's data. */
        RESTART,
        /** {@link #watchCount(String)} works. */
        WATCH_COUNT,
        /** {@link #removeEmptyParents(String)} works. */
        PARENT_REMOVAL,
        /**
         * Clients in other JVM processes on this machine reach the server at {@link #uri()} (a real server does;
         * an in-memory one does not); the cross-process and crash contracts need it.
         */
        OTHER_PROCESSES,
        /**
         * The backend is a replicated ensemble whose members can be killed one at a time: it implements
         * {@link EnsembleBackend}. The ensemble contracts (§19) need it.
         */
        ENSEMBLE
    }

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
     * @param lockName the lock's name as given to the service
     * @return the paths or keys, sorted
     */
    List<String> residue(String lockName);

    /**
     * Makes every current holder of the lock lose it on the server, as a session expiry or lease expiry would:
     * ZooKeeper, expire the sessions that own the lock's ephemeral nodes; Redis, delete the lock's key.
     *
     * @param lockName the lock's name as given to the service
     */
    void forceLoss(String lockName);

    /** Stops the server and starts it again on the same address with the same data; returns once it serves. */
    void restart();

    /**
     * Counts the watches the server holds on a lock's nodes. {@code lockName} may also be a lock's name followed
     * by {@code '/'} and the name of one of its nodes (as {@link #residue(String)} lists them, last segment), to
     * count the watches on that node alone.
     *
     * @param lockName the lock's name as given to the service, or that name plus {@code "/<node>"}
     * @return how many watches are registered on that path and the nodes below it, summed over sessions
     */
    int watchCount(String lockName);

    /**
     * Removes the lock's path if it has no children left, as ZooKeeper's container reaper does, so the next
     * acquisition recreates it and its sequence numbers start again.
     *
     * @param lockName the lock's name as given to the service
     */
    void removeEmptyParents(String lockName);

    /** Stops the server and deletes its data. Idempotent. */
    @Override
    void close();
}
