package org.lockspi;

/**
 * A capability a provider declares, in the manner of a JCA {@code Provider.Service} attribute.
 *
 * <p>A feature a provider lacks is a contract too: the operations that need it throw
 * {@link UnsupportedOperationException}, and the conformance kit reports the tests of that feature as skipped,
 * naming the missing feature.
 */
public enum LockFeature {
    /** {@link LockService#mutex(String)}: a mutex that the holding thread may acquire again (hold counts). */
    REENTRANT_MUTEX,
    /** {@link LockService#nonReentrantMutex(String)}: a one-holder lock whose lease any thread may release. */
    NON_REENTRANT_MUTEX,
    /** {@link LockService#readWriteLock(String)}: shared readers, exclusive writers, write-to-read downgrade. */
    READ_WRITE,
    /** {@link LockService#semaphore(String, int)}: at most N leases on one name across all clients. */
    SEMAPHORE,
    /** Waiters are granted the lock in the order they asked for it (FIFO), across clients. */
    FAIR,
    /** A release wakes only the next waiter; no waiter polls and no release wakes every waiter. */
    HERD_FREE,
    /** {@link Lease#fencingToken()}: each new holder of a lock gets a token greater than every earlier holder's. */
    FENCING_TOKENS,
    /** Leases are kept alive by the provider (session heartbeats or renewal) for as long as the client lives. */
    LEASE_RENEWAL,
    /** A lease that may be or is lost says so through {@link Lease#state()} and tells its listeners. */
    LOST_NOTIFICATION,
    /** A holder whose process dies loses the lock within a bounded time (session timeout or lease time). */
    CRASH_RELEASE,
    /**
     * A held lease survives a restart of the server that is shorter than the session timeout or lease time: it
     * turns {@link LeaseState#UNCERTAIN} while the server is down and {@link LeaseState#HELD} again after, and no
     * other client can take the lock meanwhile (ZooKeeper: the session and its nodes outlive the restart).
     * Without it, a restart may end the lease instead: it turns {@link LeaseState#LOST}, as when the server's
     * sessions die with it.
     */
    SURVIVES_RESTART,
    /**
     * {@link LockService#inspect(String)} and {@link LockService#list(String)}: a read-only view of a lock's
     * holders (with their fencing tokens and, where the server records it, since when) and waiters, from any
     * client, and the names of the locks that have state on the server.
     */
    INSPECTION,
    /**
     * {@link Acquirable#withLeaseTime(java.time.Duration)}: an acquisition that holds for at most a lease time of
     * its own, even while its holder lives. The lease turns {@link LeaseState#LOST} when it ends and the server
     * frees the lock by then on its own clock, for another client to take. A provider whose server can only end
     * an acquisition with its holder's session (ZooKeeper's ephemeral nodes) lacks it.
     */
    LEASE_TIME,
    /**
     * {@link LockService#revoke(String, long, java.time.Duration)}: an operator ends another client's lease by its
     * fencing token. The holder's service must have opted in ({@link Locks#REVOCABLE_PARAMETER}); its lease turns
     * {@link LeaseState#LOST} within the provider's revocation bound, its listeners are told, and only then does the
     * lock pass on. Needs {@link #FENCING_TOKENS} and {@link #INSPECTION}.
     */
    REVOCATION
}
