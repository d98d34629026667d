package org.lockspi;

import java.util.Set;

/**
 * One client of a lock backend: one connection (a ZooKeeper session, a Redis connection pool) and the locks
 * handed out through it. Obtained from {@link Locks#open(String)}.
 *
 * <p><b>Clients.</b> Two services are two clients, even in one JVM: they exclude each other exactly as two
 * processes do. Reentrancy and ownership are per thread within one service.
 *
 * <p><b>Names.</b> Any string is a lock name: non-null, non-empty, well-formed UTF-16 (no unpaired surrogate),
 * at most 4096 UTF-8 bytes ({@link org.lockspi.spi.LockKeys#MAX_NAME_BYTES}); {@code user:alice@example.com},
 * {@code order#42} and a URL are names. Names of the <em>readable form</em> (one to eight segments separated by
 * {@code '/'}, each 1 to 64 characters from {@code [A-Za-z0-9_.-]}, not starting with {@code '.'}; 255
 * characters in all: {@code orders}, {@code billing/invoice-42}) are stored under the URI's path (ZooKeeper) or
 * key prefix (Redis) as they are; every other name is stored under the key {@code '~'} + URL-safe base64 of its
 * UTF-8 bytes, documented on {@link org.lockspi.spi.LockKeys}, the same for every provider. Two different names
 * are two different locks. {@link Acquirable#name()}, {@link Lease#lockName()} and messages show the name as
 * given. Use one name for one kind of lock: a service refuses to hand out the same name as two kinds.
 *
 * <p><b>Lifecycle.</b> {@link #close()} ends every lease of the service (they turn
 * {@link LeaseState#RELEASED} and the server frees them), stops its threads, and is idempotent; afterwards
 * every method but {@link #close()}, {@link #isClosed()}, {@link #connectionState()}, {@link #providerName()} and
 * {@link #features()} throws {@link IllegalStateException}.
 *
 * <p>Services are thread-safe. Locks whose leases belong to no thread ({@link AsyncAcquirable}) can also be
 * acquired asynchronously, in threads the service starts and {@link #close()} joins.
 */
public interface LockService extends AutoCloseable {

    /**
     * A mutex the holding thread may acquire again (hold counts).
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} is empty, not well-formed UTF-16 or longer
     *                                       than 4096 UTF-8 bytes, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#REENTRANT_MUTEX}
     * @throws IllegalStateException         if the service is closed
     */
    DistributedLock mutex(String name);

    /**
     * A mutex that is not reentrant: a second acquisition waits even from the holding thread, and any thread may
     * release the lease. Wire-compatible with Curator's {@code InterProcessSemaphoreMutex}.
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} is empty, not well-formed UTF-16 or longer
     *                                       than 4096 UTF-8 bytes, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#NON_REENTRANT_MUTEX}
     * @throws IllegalStateException         if the service is closed
     */
    AsyncAcquirable nonReentrantMutex(String name);

    /**
     * A read-write lock.
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} is empty, not well-formed UTF-16 or longer
     *                                       than 4096 UTF-8 bytes, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#READ_WRITE}
     * @throws IllegalStateException         if the service is closed
     */
    DistributedReadWriteLock readWriteLock(String name);

    /**
     * A read-write lock whose leases belong to no thread (each acquisition its own, releasable by any thread, and
     * acquirable asynchronously); it excludes and shares with {@link #readWriteLock(String)} of other clients on
     * the same name. Within one service a name is either kind, not both.
     *
     * @param name the lock's name
     * @return the lock; the same instance for the same name
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} breaks the name grammar, or is in use as another kind
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#READ_WRITE}
     * @throws IllegalStateException         if the service is closed
     */
    ThreadFreeReadWriteLock threadFreeReadWriteLock(String name);

    /**
     * A counting semaphore with {@code permits} permits.
     *
     * @param name    the semaphore's name
     * @param permits how many leases may be held at once, at least 1
     * @return the semaphore; the same instance for the same name and permits
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code permits < 1}, if {@code name} is empty, not well-formed
     *                                       UTF-16 or longer than 4096 UTF-8 bytes, is in use as another kind or
     *                                       with other permits
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#SEMAPHORE}
     * @throws IllegalStateException         if the service is closed
     */
    DistributedSemaphore semaphore(String name, int permits);

    // ---- several locks at once (spec section 25) ---------------------------------------------------------------

    /**
     * Several locks of this service, to be acquired all or nothing, in one global order (by name, then kind), for
     * one {@link MultiLease}; see {@link MultiLock}. Each part is obtained from this service's factory of its kind
     * ({@link #mutex(String)}, {@link #semaphore(String, int)}, ...), with the same checks, before anything is
     * acquired.
     *
     * @param parts the locks, in any order, at least one
     * @return a new multi-lock over the parts
     * @throws NullPointerException          if {@code parts} or one of them is null
     * @throws IllegalArgumentException      if there is no part, a part is given twice, a name is given twice as
     *                                       different kinds (or a semaphore with different permits), or a part's
     *                                       factory refuses it (a name in use in this service as another kind)
     * @throws UnsupportedOperationException if the provider lacks the feature of a part's kind, or this
     *                                       implementation of the interface hands out no multi-locks
     * @throws IllegalStateException         if the service is closed
     */
    default MultiLock multiLock(java.util.Collection<LockPart> parts) {
        throw new UnsupportedOperationException(getClass().getName() + " hands out no multi-locks: " + this);
    }

    /**
     * {@link #multiLock(java.util.Collection)} with the parts given one by one:
     * {@code locks.multiLock(LockPart.mutex("a"), LockPart.write("b"))}.
     *
     * @param parts the locks, in any order, at least one
     * @return a new multi-lock over the parts
     * @throws NullPointerException          as {@link #multiLock(java.util.Collection)}
     * @throws IllegalArgumentException      as {@link #multiLock(java.util.Collection)}
     * @throws UnsupportedOperationException as {@link #multiLock(java.util.Collection)}
     * @throws IllegalStateException         as {@link #multiLock(java.util.Collection)}
     */
    default MultiLock multiLock(LockPart... parts) {
        java.util.Objects.requireNonNull(parts, "parts is null");
        return multiLock(java.util.Arrays.asList(parts));
    }

    // ---- inspection (spec section 22) -------------------------------------------------------------------------

    /**
     * A read-only view of one lock as the server shows it now: its kind, its holders (each with its fencing token,
     * since when it holds, whether it is a read or write holder, whether it is this service's own lease) and how
     * many acquisitions wait. Any client may ask, whether or not it uses the lock; nothing is acquired or changed.
     *
     * <p>The view is a snapshot and may be stale at once: never use it to decide whether to write to a resource
     * the lock guards (hold a {@link Lease}, check it, and pass its fencing token instead). A name with no state on
     * the server gives {@link LockInfo#empty(String) an empty view}, not an error. The view does not depend on
     * which kind this service has used the name as.
     *
     * @param name the lock's name, checked like every other name
     * @return the view; its {@link LockInfo#name()} is {@code name}
     * @throws NullPointerException          if {@code name} is null
     * @throws IllegalArgumentException      if {@code name} is not a lock name (empty, malformed, too long)
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#INSPECTION}
     * @throws LockConnectionException       if the server cannot be reached or the read failed
     * @throws IllegalStateException         if the service is closed
     */
    LockInfo inspect(String name);

    /**
     * The names of the locks that have state on the server (a holder or a waiter) and start with
     * {@code prefix}, sorted. Like {@link #inspect(String)} a snapshot; it reads every lock under the URI's path
     * or key prefix, so it is for operators, not for a hot path.
     *
     * @param prefix the start of the names to list, compared as strings: {@code ""} for all, {@code "jobs/"},
     *               {@code "user:"}; names outside the readable form are found by their name, not their key
     * @return the names, sorted, without duplicates; immutable
     * @throws NullPointerException          if {@code prefix} is null
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#INSPECTION}
     * @throws LockConnectionException       if the server cannot be reached or the read failed
     * @throws IllegalStateException         if the service is closed
     */
    java.util.List<String> list(String prefix);

    // ---- revocation (spec section 27) --------------------------------------------------------------------------

    /**
     * Ends another client's lease on lock {@code name}, found by its fencing token (as {@link #inspect(String)}
     * shows it), as {@link #revoke(String, long, java.time.Duration, String)} with this process as the requester
     * ({@code user@host pid N}).
     *
     * @param name         the lock's name
     * @param fencingToken the token of the lease to end, at least 0
     * @param timeout      how long to wait for the holder to let go
     * @return {@code true} if the holder let go, {@code false} if no holder of the lock has that token
     * @throws NullPointerException          if {@code name} or {@code timeout} is null
     * @throws IllegalArgumentException      if {@code name} is not a lock name, the token is negative, or the
     *                                       timeout is negative or too long
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#REVOCATION}
     * @throws IllegalStateException         if the holder's service did not opt in to revocation, or this service is
     *                                       closed
     * @throws LockTimeoutException          if the holder still holds after {@code timeout}
     * @throws LockConnectionException       if the server cannot be reached or a request failed
     * @throws LockException                 if the thread was interrupted (its flag set again)
     */
    default boolean revoke(String name, long fencingToken, java.time.Duration timeout) {
        return revoke(name, fencingToken, timeout, org.lockspi.internal.Requester.ofThisProcess());
    }

    /**
     * Ends another client's lease on lock {@code name}, found by its fencing token, for an operator with a stuck
     * holder ({@link LockFeature#REVOCATION}, spec §27). Any client may ask; the holder must have opted in
     * ({@link Locks#REVOCABLE_PARAMETER} on its service), and the server's own access control (ZooKeeper ACLs,
     * Redis ACL users, database grants) still decides who may write the request.
     *
     * <p>What happens, in order: the request is written to the server beside the holder's state; the holder's
     * client sees it within the provider's revocation bound (a watch or its next renewal), turns the lease
     * {@link LeaseState#LOST} with the reason "revoked at the request of <i>requestedBy</i>", tells its listeners,
     * and only then frees the lock; the next waiter gets it with a greater fencing token. A holder whose client is
     * dead or cut off never hears of the request: its lock passes on when its session or lease ends, as for any
     * crashed holder, never while that client may still believe it holds. This call logs one audit line (logger
     * {@code org.lockspi.audit}, level {@code WARNING}: who asked, which lock, which token, the outcome) and waits,
     * reading the lock's state, until the holder has let go or {@code timeout} elapsed.
     *
     * <p>Revocation ends one acquisition: a holder that acquired the lock again holds it with a new token. A nested
     * (reentrant) acquisition ends with its outer one.
     *
     * @param name         the lock's name, checked like every other name
     * @param fencingToken the token of the lease to end, at least 0
     * @param timeout      how long to wait for the holder to let go; {@code 0} asks and checks once
     * @param requestedBy  who asks, for the audit line and the holder's loss reason (an operator's name, a
     *                     principal); not blank, at most 200 characters, no line breaks
     * @return {@code true} if the holder let go, {@code false} if no holder of the lock has that token (it has
     *         released, or the token is wrong); nothing is written then
     * @throws NullPointerException          if an argument is null
     * @throws IllegalArgumentException      if {@code name} is not a lock name, the token is negative, the timeout is
     *                                       negative or too long, or {@code requestedBy} is blank, too long or has
     *                                       a line break
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#REVOCATION}
     * @throws IllegalStateException         if the holder's service did not opt in to revocation (nothing is written
     *                                       then), or this service is closed
     * @throws LockTimeoutException          if the holder still holds after {@code timeout}: the request stays and
     *                                       the holder is told when its client next hears from the server
     * @throws LockConnectionException       if the server cannot be reached or a request failed
     * @throws LockException                 if the thread was interrupted while waiting (its flag set again)
     */
    default boolean revoke(String name, long fencingToken, java.time.Duration timeout, String requestedBy) {
        throw new UnsupportedOperationException(getClass().getName() + " revokes no leases: " + this);
    }

    /** @return the name of the provider serving this service */
    String providerName();

    /** @return the features of the provider serving this service */
    Set<LockFeature> features();

    /** @return whether {@link #close()} was called */
    boolean isClosed();

    /**
     * The state of this service's connection as the provider last reported it (no I/O, never blocks): for health
     * checks and metrics. It follows the provider's connection events, so it may lag the network by the
     * provider's detection time (ZooKeeper: a missed heartbeat; Redis: a failed renewal or command).
     *
     * <p>The default, for services that track no connection events, says {@link ConnectionState#CLOSED} once
     * {@link #close()} was called and {@link ConnectionState#CONNECTED} before. Services opened by {@link Locks}
     * report {@link ConnectionState#SUSPENDED} while their provider says the connection is suspended.
     *
     * <p>Unlike the other methods it may be called after {@link #close()}.
     *
     * @return {@code CONNECTED}, {@code SUSPENDED}, or {@code CLOSED} once {@link #close()} was called
     */
    default ConnectionState connectionState() {
        return isClosed() ? ConnectionState.CLOSED : ConnectionState.CONNECTED;
    }

    /**
     * Closes the connection; every lease of this service turns {@link LeaseState#RELEASED} (its listeners are not
     * called) and the server frees the locks. Acquisitions waiting in other threads fail. Idempotent.
     *
     * <p>It does not wait for an unreachable server past the provider's release bound (the ZooKeeper providers:
     * {@code min(connectTimeout, sessionTimeout / 2)}); the server then frees the locks when the session or the
     * lease ends.
     *
     * @throws LockConnectionException if the server could not be told to free every lock; the service is closed
     *                                 all the same
     */
    @Override
    void close();
}
