package org.lockspi.redis.recipe;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;

/**
 * The Redis lock recipe: one client ({@link RedisOps}) and its leases. A waiting acquisition sleeps until a release wakes it (a message on the
 * lock's channel, through the one subscriber connection of the {@link LeaseKeeper}'s watch, see {@link Wakeups}),
 * and polls anyway with a jittered exponential back-off, so a lost message delays it by at most {@code retryMax}.
 * An uncontended acquisition and its release are one {@code EVALSHA} each. A {@link LeaseKeeper} renews the leases
 * and reports suspension, restoration and loss. A call that fails on a pooled connection broken by a restart is
 * retried once on a fresh connection, unless it timed out. {@link #revoke} writes a revocation request; the holder's
 * {@link LeaseKeeper} acts on it.
 *
 * <p>(Over 500 lines: acquisition, release, inspection, revocation and close share the attempts under way, the
 * in-flight lock and the translation of client failures.)
 */
public final class RedisLockBackend implements LockBackend {
    private static final System.Logger LOG = System.getLogger(RedisLockBackend.class.getName());

    private final RedisSettings settings;
    private final RedisOps redis;
    private final String clientId = UUID.randomUUID().toString();
    private final AtomicLong sequence = new AtomicLong();
    /** Acquisitions under way, so that close() can remove their waiter marks. */
    private final Set<Attempt> waiting = ConcurrentHashMap.newKeySet();
    private final LeaseKeeper keeper;
    /** Attempts hold the read lock around their server call; close takes the write lock to wait for them. */
    private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock();
    private final long leaseMillis;
    private final long confirmNanos;
    private final long validNanos;
    private final String leaseArg;
    /** How long a waiter's marks live unless its next attempt refreshes them, in ms. */
    private final String waiterArg;

    /** Waiters sleep on their lock's signal; a release (here or anywhere) or close wakes them. */
    private final Wakeups wakeups;
    /** First-come first-served: waiters queue on the server and only the head may take the lock. */
    private final boolean fair;

    private final ReentrantLock state = new ReentrantLock();
    private volatile boolean closed; // written under state
    private volatile boolean poolClosed; // written under the write lock of inFlight

    private RedisLockBackend(RedisSettings settings, BackendEvents events, RedisOps redis, String runId,
                             boolean fair) {
        this.settings = settings;
        this.fair = fair;
        this.redis = redis;
        this.leaseMillis = settings.leaseTime().toMillis();
        this.confirmNanos = settings.confirmThreshold().toNanos();
        this.validNanos = settings.leaseTime().minus(settings.driftMargin()).toNanos();
        this.leaseArg = Long.toString(leaseMillis);
        this.waiterArg = Long.toString(leaseMillis + 2 * settings.retryMax().toMillis());
        this.keeper = new LeaseKeeper(settings, events, redis, runId);
        this.wakeups = new Wakeups(keeper.watch());
        keeper.channels(wakeups);
    }

    /**
     * Checks the client's connection with a PING and reads the server's run_id; closes the client if either fails.
     * First-come first-served ({@code fair}): the waiters of an exclusive lock queue on the server (a sorted set
     * scored by arrival, see {@link RedisKeys}) and a free lock goes to the head of the queue (the readers at its
     * head together, as many permits as are free to as many waiters at its head).
     *
     * @param settings the parsed options
     * @param events   where to report connection and lease events
     * @param redis    the client, connected for {@code settings}; the backend owns it from now on
     * @param fair     whether locks are first come, first served
     * @return the open backend
     * @throws LockConnectionException if the server does not answer within the connect timeout
     */
    public static RedisLockBackend open(RedisSettings settings, BackendEvents events, RedisOps redis, boolean fair) {
        String runId;
        try {
            redis.ping();
            runId = redis.runId();
        } catch (RedisOpsException | IllegalStateException e) {
            LockConnectionException failure = new LockConnectionException("cannot reach " + settings
                    + " within connectTimeout " + settings.connectTimeout() + ": " + e.getMessage(), e);
            try {
                redis.close();
            } catch (RuntimeException closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
        try {
            return new RedisLockBackend(settings, events, redis, runId, fair);
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    // ---- acquire --------------------------------------------------------------------------------------------

    /** What one acquisition sends: the script, its keys and arguments, and where the owner token lives. */
    private final class Attempt {
        final AcquireRequest request;
        final RedisKeys keys;
        final Script script;
        final List<String> scriptKeys;
        final String leaseKey;
        final boolean shared;
        final String ownerToken;
        final String waiterKey;
        /** Whether an attempt may have marked this as waiting, to be removed when giving up. */
        volatile boolean registered;
        /** The lease ms the scripts set: the lease time of the URI, or the acquisition's own if shorter. */
        final String leaseArg;

        Attempt(AcquireRequest request) {
            this.request = request;
            this.keys = new RedisKeys(settings.keyPrefix(), request.name());
            this.ownerToken = clientId + ":" + sequence.incrementAndGet();
            this.shared = request.kind() == LockKind.READ || request.kind() == LockKind.SEMAPHORE;
            this.script = shared ? Scripts.ACQUIRE_SHARED : Scripts.ACQUIRE_EXCLUSIVE;
            this.leaseKey = request.kind() == LockKind.READ ? keys.readers
                    : request.kind() == LockKind.SEMAPHORE ? keys.permits : keys.lock;
            this.waiterKey = keys.waiter(ownerToken);
            this.leaseArg = request.leaseTime().map(RedisLease::leaseMillis).filter(ms -> ms < leaseMillis)
                    .map(ms -> Long.toString(ms)).orElse(RedisLockBackend.this.leaseArg);
            String set = request.kind() == LockKind.SEMAPHORE ? keys.permits : keys.readers;
            this.scriptKeys = shared ? fair
                    ? List.of(keys.lock, keys.fence, set, keys.waitingWriters, waiterKey, keys.queue)
                    : List.of(keys.lock, keys.fence, set, keys.waitingWriters, waiterKey)
                    : request.kind() == LockKind.WRITE || fair
                    ? List.of(keys.lock, keys.fence, waiterKey, keys.readers, keys.waitingWriters, keys.queue)
                    : List.of(keys.lock, keys.fence, waiterKey); // a plain mutex touches no other key
        }

        /** @param mayWait whether the caller will wait if this attempt fails (a writer then says it waits) */
        List<String> args(boolean mayWait) {
            String marked = registered ? "1" : "0"; // whether an earlier attempt may have left waiter marks
            registered = registered || mayWait;
            String waitArg = mayWait ? waiterArg : "0";
            String queued = fair ? "1" : "0";
            String revocable = request.isRevocable() ? "1" : "0";
            switch (request.kind()) {
                case MUTEX:
                case NON_REENTRANT_MUTEX:
                    return fair ? List.of(ownerToken, leaseArg, waitArg, RedisEntry.letter(request.kind()), marked,
                            revocable, "0", "1", keys.waiter(""))
                            : List.of(ownerToken, leaseArg, waitArg, RedisEntry.letter(request.kind()), marked,
                            revocable);
                case WRITE:
                    return List.of(ownerToken, leaseArg, waitArg, RedisEntry.letter(request.kind()), marked,
                            revocable, "1", queued, keys.waiter(""));
                case READ: {
                    String downgrade = "";
                    BackendLease heldWrite = request.heldWrite();
                    if (heldWrite != null) {
                        if (!(heldWrite instanceof RedisLease)) {
                            throw new IllegalArgumentException("heldWrite is not a lease of this provider: "
                                    + heldWrite);
                        }
                        downgrade = ((RedisLease) heldWrite).entry;
                    }
                    return fair ? List.of(ownerToken, leaseArg, "0", "1", downgrade, waitArg, marked, revocable,
                            "1", keys.waiter(""), "R", keys.channel)
                            : List.of(ownerToken, leaseArg, "0", "1", downgrade, waitArg, marked, revocable);
                }
                case SEMAPHORE: {
                    String permits = Integer.toString(request.permits());
                    return fair ? List.of(ownerToken, leaseArg, permits, "0", "", waitArg, marked, revocable,
                            "1", keys.waiter(""), "S", keys.channel)
                            : List.of(ownerToken, leaseArg, permits, "0", "", waitArg, marked, revocable);
                }
                default:
                    throw new IllegalArgumentException("unknown lock kind: " + request.kind());
            }
        }

        /** Removes whatever this attempt may have left on the server. */
        void abandon() {
            Scripts.ABANDON.run(redis, List.of(keys.lock, leaseKey.equals(keys.lock) ? keys.readers : leaseKey,
                    keys.waitingWriters, waiterKey, keys.queue, keys.revocations),
                    List.of(ownerToken, keys.channel, keys.waiter(""), fair ? "1" : "0"));
        }
    }

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        checkOpen();
        Attempt attempt = new Attempt(request);
        waiting.add(attempt);
        long delay = settings.retryInitial().toNanos();
        long maxDelay = settings.retryMax().toNanos();
        Wakeups.Waiter waiter = null; // joins after the first failed attempt: an uncontended one never subscribes
        try {
            while (true) {
                RedisLease lease = tryOnce(attempt, !deadline.hasExpired());
                if (lease != null) {
                    if (waiter != null && attempt.shared && !fair) {
                        // More readers or permits may fit: pass the wake-up on (first-come first-served, the
                        // script named the next head).
                        wakeups.wake(attempt.keys.channel, "");
                    }
                    return lease;
                }
                if (deadline.hasExpired()) {
                    giveUp(attempt);
                    return null;
                }
                if (waiter == null) {
                    // Subscribed already: a wake-up is pending, since a release may have been published since the
                    // failed attempt; else the confirmation of the subscription wakes it to try once more.
                    waiter = wakeups.join(attempt.keys.channel, attempt.ownerToken);
                }
                // The polling fallback. Equal jitter: half the delay fixed, half random, so waiters spread out.
                long sleep = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
                long nanos = Math.min(sleep, deadline.remainingNanos());
                if (nanos > 0 && !closed) {
                    waiter.await(nanos);
                }
                checkOpen();
                delay = Math.min(delay * 2, maxDelay);
            }
        } catch (InterruptedException | RuntimeException e) {
            try {
                giveUp(attempt);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        } finally {
            if (waiter != null) {
                wakeups.leave(waiter);
            }
            waiting.remove(attempt);
        }
    }

    /** Removes a waiter's marks, if it may have made them. */
    private void giveUp(Attempt attempt) {
        if (!attempt.registered) {
            return;
        }
        inFlight.readLock().lock();
        try {
            if (poolClosed) {
                return; // close() removed it (it removes the marks of every acquisition under way)
            }
            attempt.registered = false;
            attempt.abandon();
        } catch (RedisOpsException e) {
            throw failure("giving up " + attempt.request + " (its waiter marks expire within "
                    + waiterArg + " ms)", e);
        } finally {
            inFlight.readLock().unlock();
        }
    }

    /** One server round trip: the lease, or null if someone else holds it. */
    private RedisLease tryOnce(Attempt attempt, boolean mayWait) throws InterruptedException {
        inFlight.readLock().lock();
        try {
            checkOpen();
            long sentAt = System.nanoTime();
            String server = keeper.runId();
            Object result;
            try {
                try {
                    result = attempt.script.run(redis, attempt.scriptKeys, attempt.args(mayWait));
                } catch (RedisOpsException e) {
                    if (e.kind() != RedisOpsException.Kind.BROKEN_CONNECTION || closed) {
                        throw e;
                    }
                    // A pooled connection broken by a restart: the script may or may not have run. Clear what
                    // it may have left, then try once more on a fresh connection.
                    keeper.failed(); // the connection was lost: uncertain until this answer restores it
                    redis.dropIdleConnections();
                    attempt.abandon();
                    sentAt = System.nanoTime();
                    server = keeper.runId();
                    result = attempt.script.run(redis, attempt.scriptKeys, attempt.args(mayWait));
                    keeper.renewSoon(); // the server came back: check its run_id and our leases now
                }
            } catch (RedisOpsException e) {
                rethrowInterrupt(e);
                // The outcome is unknown: the script may have run. Delete by owner token so nothing stays behind.
                RuntimeException failure = failure("acquiring " + attempt.request, e);
                try {
                    attempt.abandon();
                    attempt.registered = false;
                } catch (RuntimeException cleanup) {
                    failure.addSuppressed(cleanup);
                }
                throw failure;
            }
            if (result == null) {
                return null;
            }
            attempt.registered = false; // the script removed the waiter marks with the acquisition
            List<?> granted = (List<?>) result; // the fencing token and the entry
            RedisLease lease = new RedisLease(this, attempt.request.kind(), attempt.request.name(), attempt.leaseKey,
                    attempt.shared, attempt.ownerToken, (String) granted.get(1), attempt.keys.revocations,
                    (Long) granted.get(0), sentAt, server, confirmNanos, validNanos,
                    attempt.request.leaseTime().orElse(null));
            // If the connection was suspended, this answer restores it, and every lease is checked at once.
            keeper.acquired(lease);
            return lease;
        } finally {
            inFlight.readLock().unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock backend is closed: " + settings);
        }
    }

    private static void rethrowInterrupt(Throwable e) throws InterruptedException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                InterruptedException interrupted = new InterruptedException("interrupted while waiting for a "
                        + "Redis connection from the pool");
                interrupted.initCause(e);
                throw interrupted;
            }
        }
    }

    /** Translates a client failure; a connection failure also suspends the leases. */
    private RuntimeException failure(String what, RedisOpsException e) {
        if (e.kind() != RedisOpsException.Kind.BROKEN_CONNECTION && e.kind() != RedisOpsException.Kind.NO_ANSWER
                && !isTransient(e)) {
            return new LockException(what + " on " + settings + " was refused by the server: " + e.getMessage(), e);
        }
        keeper.failed();
        return new LockConnectionException(what + " on " + settings + " failed: " + e.getMessage(), e);
    }

    /** Server replies that mean "not now" rather than "never". */
    private static boolean isTransient(RedisOpsException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("LOADING") || m.startsWith("BUSY") || m.startsWith("TRYAGAIN")
                || m.startsWith("MASTERDOWN") || m.startsWith("READONLY") || m.startsWith("CLUSTERDOWN");
    }

    // ---- release ------------------------------------------------------------------------------------------

    void release(RedisLease lease) {
        if (!lease.markReleased()) {
            return;
        }
        keeper.forget(lease);
        String channel = RedisKeys.channel(settings.keyPrefix(), lease.name);
        inFlight.readLock().lock();
        try {
            if (closed) {
                return; // close released it, or is releasing it
            }
            try {
                releaseOnServer(lease, channel);
                if (!fair) {
                    // The script published on the channel; a waiter in this service need not wait for the message.
                    wakeups.wake(channel, "");
                }
            } catch (RedisOpsException e) {
                if (lease.isLost()) {
                    return; // nothing of ours to free; a lost lease's release never throws
                }
                throw failure("releasing " + lease + " (the server frees it within leaseTime "
                        + settings.leaseTime() + ")", e);
            }
        } finally {
            inFlight.readLock().unlock();
        }
    }

    /**
     * Runs the release script: compare-and-delete (or remove), then a message on the lock's channel; a revocable
     * lease's revocation request goes with it.
     */
    private void releaseOnServer(RedisLease lease, String channel) {
        String owner = lease.revocationArg();
        if (fair) {
            RedisKeys keys = new RedisKeys(settings.keyPrefix(), lease.name);
            Script script = lease.shared ? Scripts.RELEASE_SHARED_FAIR : Scripts.RELEASE_FAIR;
            Calls.retryOnce(redis, keeper::failed, () -> script.run(redis,
                    List.of(lease.key, keys.queue, lease.revocations),
                    List.of(lease.entry, channel, keys.waiter(""), owner)));
        } else {
            Script script = lease.shared ? Scripts.RELEASE_SHARED : Scripts.RELEASE_EXCLUSIVE;
            Calls.retryOnce(redis, keeper::failed, () -> script.run(redis, List.of(lease.key, lease.revocations),
                    List.of(lease.entry, channel, owner)));
        }
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public org.lockspi.LockInfo inspect(String name) {
        checkOpen();
        try {
            return Calls.retryOnce(redis, keeper::failed,
                    () -> RedisInspection.inspect(redis, settings.keyPrefix(), clientId, name));
        } catch (RedisOpsException e) {
            throw failure("inspecting '" + name + "'", e);
        }
    }

    /**
     * Writes a revocation request for the live holder of {@code name} with {@code fencingToken} in one script
     * ({@link Scripts#REVOKE}): it checks the token and the holder's revocable mark and writes only if both hold. The
     * holder's backend learns of it from the message the script publishes (its {@link LeaseKeeper} checks that
     * lease at once) or, if the message is lost, from its next renewal, and frees the lock itself.
     */
    @Override
    public boolean revoke(String name, long fencingToken, String requestedBy) {
        checkOpen();
        RedisKeys keys = new RedisKeys(settings.keyPrefix(), name);
        Object result;
        try {
            // Idempotent: run again after a broken connection, it writes the same request and message again.
            result = Calls.retryOnce(redis, keeper::failed, () -> Scripts.REVOKE.run(redis,
                    List.of(keys.lock, keys.readers, keys.permits, keys.revocations),
                    List.of(Long.toString(fencingToken), requestedBy, RedisKeys.revokeChannel(settings.keyPrefix()))));
        } catch (RedisOpsException e) {
            throw failure("revoking the holder of '" + name + "' with token " + fencingToken, e);
        }
        long found = (Long) result;
        if (found < 0) {
            throw new IllegalStateException("the holder with token " + fencingToken + " does not accept revocation: "
                    + "its service was opened without " + org.lockspi.Locks.REVOCABLE_PARAMETER + "=true");
        }
        return found == 1;
    }

    @Override
    public List<String> list(String prefix) {
        checkOpen();
        try {
            return Calls.retryOnce(redis, keeper::failed,
                    () -> RedisInspection.list(redis, settings.keyPrefix(), prefix));
        } catch (RedisOpsException e) {
            throw failure("listing the locks under '" + prefix + "'", e);
        }
    }

    // ---- close --------------------------------------------------------------------------------------------

    @Override
    public void close() {
        boolean wasClosed;
        state.lock();
        try {
            wasClosed = closed;
            closed = true;
        } finally {
            state.unlock();
        }
        if (wasClosed) {
            return; // idempotent
        }
        wakeups.close();
        List<RedisLease> leases = keeper.close();
        inFlight.writeLock().lock();
        try {
            LockConnectionException failure = null;
            for (RedisLease lease : leases) {
                if (!lease.markReleased()) {
                    continue;
                }
                if (failure != null) {
                    continue; // the server did not answer: one wait is enough, the keys expire on their own
                }
                try {
                    releaseOnServer(lease, RedisKeys.channel(settings.keyPrefix(), lease.name));
                } catch (RedisOpsException e) {
                    if (failure == null) {
                        failure = new LockConnectionException("closing " + settings + ": some leases could not be "
                                + "deleted and expire within leaseTime " + settings.leaseTime());
                    }
                    failure.addSuppressed(e);
                }
            }
            for (Attempt attempt : waiting) {
                if (attempt.registered && failure == null) {
                    attempt.registered = false;
                    try {
                        attempt.abandon();
                    } catch (RedisOpsException e) {
                        if (failure == null) {
                            failure = new LockConnectionException("closing " + settings + ": some waiter "
                                    + "marks could not be deleted and expire on their own");
                        }
                        failure.addSuppressed(e);
                    }
                }
            }
            poolClosed = true;
            try {
                redis.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = new LockConnectionException("closing " + settings + " failed");
                }
                failure.addSuppressed(e);
            }
            if (failure != null) {
                // Not thrown: the service is closed either way and the server frees the keys by their expiry.
                LOG.log(System.Logger.Level.WARNING, failure.getMessage(), failure);
            }
        } finally {
            inFlight.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "RedisLockBackend[" + settings + (closed ? ", closed" : "") + "]";
    }
}
