package org.lockspi.redis.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One Redis connection pool and its leases. Acquisitions poll with a jittered exponential back-off; one watchdog
 * thread renews every live lease at a third of the lease time and reports suspension, restoration and loss.
 *
 * <p>Faults: any failed call suspends the connection (leases {@code UNCERTAIN}) and makes the watchdog probe every
 * {@code retryMax} until a call succeeds; a renewal that finds the key gone or another owner marks the lease lost;
 * the server's {@code run_id} is compared on every pass, so a restart is named in the loss it causes. A
 * {@link ConnectionWatch} holds one idle subscribed connection, which notices a server that closes its
 * connections (a stop, a restart) at once instead of at the next renewal. A call that fails on a pooled
 * connection broken by a restart is retried once on a fresh connection, unless it timed out.
 */
public final class RedisBackend implements LockBackend {
    private static final System.Logger LOG = System.getLogger(RedisBackend.class.getName());

    private final RedisSettings settings;
    private final BackendEvents events;
    private final JedisPooled redis;
    private final String clientId = UUID.randomUUID().toString();
    private final AtomicLong sequence = new AtomicLong();
    private final Set<RedisLease> live = ConcurrentHashMap.newKeySet();
    /** Acquisitions under way, so that close() can remove their waiter marks. */
    private final Set<Attempt> waiting = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService watchdog;
    /** Attempts hold the read lock around their server call; close takes the write lock to wait for them. */
    private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock();
    private final long leaseMillis;
    private final long leaseNanos;
    private final long confirmNanos;
    private final long validNanos;
    /** The run_id the server reported last: another one means it restarted. */
    private volatile String runId;
    /** Whether a probe after a failure is scheduled. */
    private final AtomicBoolean probing = new AtomicBoolean();
    /** The pause before the next probe: retryInitial after a success, doubling up to retryMax. */
    private volatile long probeDelay;
    /** Marks leases lost at their validUntil while suspended, however long the watchdog's I/O blocks. */
    private final ScheduledThreadPoolExecutor expiry;
    private final AtomicBoolean expiryScheduled = new AtomicBoolean();
    private final ConnectionWatch watch;
    private final String leaseArg;
    /** How long a waiter's marks live unless its next attempt refreshes them, in ms. */
    private final String waiterArg;

    /** Waiters sleep on this; a local release or close bumps {@link #wakeups} and wakes them. */
    private final Object wakeup = new Object();
    private long wakeups; // guarded by wakeup

    private final Object state = new Object();
    private volatile boolean closed; // written under state
    private volatile boolean poolClosed; // written under the write lock of inFlight
    private boolean suspended; // guarded by state

    private RedisBackend(RedisSettings settings, BackendEvents events, JedisPooled redis, String runId,
                         DefaultJedisClientConfig config) {
        this.settings = settings;
        this.events = events;
        this.redis = redis;
        this.runId = runId;
        this.leaseMillis = settings.leaseTime().toMillis();
        this.leaseNanos = settings.leaseTime().toNanos();
        this.confirmNanos = settings.confirmThreshold().toNanos();
        this.validNanos = leaseNanos - settings.driftMargin().toNanos();
        this.probeDelay = settings.retryInitial().toNanos();
        this.leaseArg = Long.toString(leaseMillis);
        this.waiterArg = Long.toString(leaseMillis + 2 * settings.retryMax().toMillis());
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "lockspi-redis-watchdog-" + settings.address());
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.watchdog = executor;
        this.expiry = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "lockspi-redis-expiry-" + settings.address());
            t.setDaemon(true);
            return t;
        });
        expiry.setRemoveOnCancelPolicy(true);
        long interval = settings.renewInterval().toNanos();
        watchdog.scheduleWithFixedDelay(this::renewAll, interval, interval, TimeUnit.NANOSECONDS);
        this.watch = new ConnectionWatch(new HostAndPort(settings.host(), settings.port()), config,
                settings.keyPrefix() + "watch", settings.retryMax(), this::connectionDropped);
    }

    /**
     * Connects and checks the connection with a PING.
     *
     * @param settings the parsed options
     * @param events   where to report connection and lease events
     * @return the open backend
     * @throws LockConnectionException if the server does not answer within the connect timeout
     */
    public static RedisBackend open(RedisSettings settings, BackendEvents events) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis(settings.connectTimeout()))
                .socketTimeoutMillis(millis(settings.socketTimeout()))
                .database(settings.database())
                .ssl(settings.ssl())
                .clientName("lockspi")
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        if (settings.user() != null) {
            config.user(settings.user());
        }
        if (settings.password() != null) {
            config.password(settings.password());
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(settings.connectTimeout());
        pool.setJmxEnabled(false);
        pool.setTestWhileIdle(false);
        DefaultJedisClientConfig clientConfig = config.build();
        JedisPooled redis = new JedisPooled(new HostAndPort(settings.host(), settings.port()), clientConfig, pool);
        String runId;
        try {
            redis.ping();
            runId = runId(redis);
        } catch (JedisException | IllegalStateException e) {
            LockConnectionException failure = new LockConnectionException("cannot reach " + settings
                    + " within connectTimeout " + settings.connectTimeout() + ": " + e.getMessage(), e);
            try {
                redis.close();
            } catch (RuntimeException closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
        return new RedisBackend(settings, events, redis, runId, clientConfig);
    }

    /** @return the server's {@code run_id} from {@code INFO server}: a new one at every start */
    private static String runId(JedisPooled redis) {
        Object reply = redis.sendCommand(Protocol.Command.INFO, "server");
        String info = reply instanceof byte[] ? new String((byte[]) reply, java.nio.charset.StandardCharsets.UTF_8)
                : String.valueOf(reply);
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).strip();
            }
        }
        return "";
    }

    /**
     * Runs one call; if it fails on a connection broken earlier (a server restart leaves every pooled connection
     * broken), drops the idle connections and runs it once more on a fresh one. A timeout is not retried: it
     * spent its budget, so one call never takes longer than twice connectTimeout plus socketTimeout.
     */
    private <T> T call(Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisConnectionException e) {
            if (!brokenConnection(e) || closed) {
                throw e;
            }
            redis.getPool().clear();
            try {
                return command.get();
            } catch (JedisException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
    }

    /** Whether a connection failure came from a connection that was broken, not from a timeout. */
    private static boolean brokenConnection(JedisConnectionException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return false;
            }
        }
        return true;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    // ---- acquire --------------------------------------------------------------------------------------------

    /** What one acquisition sends: the script, its keys and arguments, and where the owner token lives. */
    private final class Attempt {
        final AcquireRequest request;
        final RedisKeys keys;
        final String script;
        final List<String> scriptKeys;
        final String leaseKey;
        final boolean shared;
        final String ownerToken;
        final String waiterKey;
        /** Whether an attempt may have marked this as waiting, to be removed when giving up. */
        volatile boolean registered;

        Attempt(AcquireRequest request) {
            this.request = request;
            this.keys = new RedisKeys(settings.keyPrefix(), request.name());
            this.ownerToken = clientId + ":" + sequence.incrementAndGet();
            this.shared = request.kind() == LockKind.READ || request.kind() == LockKind.SEMAPHORE;
            this.script = shared ? Scripts.ACQUIRE_SHARED : Scripts.ACQUIRE_EXCLUSIVE;
            this.leaseKey = request.kind() == LockKind.READ ? keys.readers
                    : request.kind() == LockKind.SEMAPHORE ? keys.permits : keys.lock;
            this.waiterKey = keys.waiter(ownerToken);
            this.scriptKeys = List.of(keys.lock, keys.fence,
                    request.kind() == LockKind.SEMAPHORE ? keys.permits : keys.readers, keys.waitingWriters,
                    waiterKey);
        }

        /** @param mayWait whether the caller will wait if this attempt fails (a writer then says it waits) */
        List<String> args(boolean mayWait) {
            registered = registered || mayWait;
            String waitArg = mayWait ? waiterArg : "0";
            switch (request.kind()) {
                case MUTEX:
                case NON_REENTRANT_MUTEX:
                    return List.of(ownerToken, leaseArg, "0", waitArg);
                case WRITE:
                    return List.of(ownerToken, leaseArg, "1", waitArg);
                case READ: {
                    String downgrade = "";
                    BackendLease heldWrite = request.heldWrite();
                    if (heldWrite != null) {
                        if (!(heldWrite instanceof RedisLease)) {
                            throw new IllegalArgumentException("heldWrite is not a lease of this provider: "
                                    + heldWrite);
                        }
                        downgrade = ((RedisLease) heldWrite).ownerToken;
                    }
                    return List.of(ownerToken, leaseArg, "0", "1", downgrade, waitArg);
                }
                case SEMAPHORE:
                    return List.of(ownerToken, leaseArg, Integer.toString(request.permits()), "0", "", waitArg);
                default:
                    throw new IllegalArgumentException("unknown lock kind: " + request.kind());
            }
        }

        /** Removes whatever this attempt may have left on the server. */
        void abandon() {
            redis.eval(Scripts.ABANDON, List.of(keys.lock, leaseKey.equals(keys.lock) ? keys.readers : leaseKey,
                    keys.waitingWriters, waiterKey), List.of(ownerToken));
        }
    }

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        checkOpen();
        Attempt attempt = new Attempt(request);
        waiting.add(attempt);
        long delay = settings.retryInitial().toNanos();
        long maxDelay = settings.retryMax().toNanos();
        try {
            while (true) {
                long seen;
                synchronized (wakeup) {
                    seen = wakeups;
                }
                RedisLease lease = tryOnce(attempt, !deadline.hasExpired());
                if (lease != null) {
                    return lease;
                }
                if (deadline.hasExpired()) {
                    giveUp(attempt);
                    return null;
                }
                // Equal jitter: half the delay fixed, half random, so waiters spread out.
                long sleep = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
                pause(seen, Math.min(sleep, deadline.remainingNanos()));
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
        } catch (JedisException e) {
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
            String server = runId;
            Object result;
            try {
                try {
                    result = redis.eval(attempt.script, attempt.scriptKeys, attempt.args(mayWait));
                } catch (JedisConnectionException e) {
                    if (!brokenConnection(e) || closed) {
                        throw e;
                    }
                    // A pooled connection broken by a restart: the script may or may not have run. Clear what
                    // it may have left, then try once more on a fresh connection.
                    redis.getPool().clear();
                    attempt.abandon();
                    sentAt = System.nanoTime();
                    server = runId;
                    result = redis.eval(attempt.script, attempt.scriptKeys, attempt.args(mayWait));
                    renewSoon(); // the server came back: check its run_id and our leases now
                }
            } catch (JedisException e) {
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
            RedisLease lease = new RedisLease(this, attempt.request.kind(), attempt.request.name(), attempt.leaseKey,
                    attempt.shared, attempt.ownerToken, (Long) result, sentAt, server, confirmNanos, validNanos);
            live.add(lease);
            boolean wasSuspended;
            synchronized (state) {
                wasSuspended = suspended;
            }
            if (wasSuspended) {
                // The server answers again. A lease whose last renewal was sent less than leaseTime ago still has
                // its key (absent data loss, which the next renewal finds): the others are lost, these held.
                loseOverdue();
                restore();
                renewSoon();
            }
            return lease;
        } finally {
            inFlight.readLock().unlock();
        }
    }

    private void pause(long seen, long nanos) throws InterruptedException {
        if (nanos <= 0) {
            return;
        }
        synchronized (wakeup) {
            if (seen != wakeups || closed) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(wakeup, nanos);
        }
    }

    private void wakeWaiters() {
        synchronized (wakeup) {
            wakeups++;
            wakeup.notifyAll();
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
    private RuntimeException failure(String what, JedisException e) {
        if (e instanceof JedisDataException && !isTransient(e)) {
            return new LockException(what + " on " + settings + " was refused by the server: " + e.getMessage(), e);
        }
        failed();
        return new LockConnectionException(what + " on " + settings + " failed: " + e.getMessage(), e);
    }

    /** Server replies that mean "not now" rather than "never". */
    private static boolean isTransient(JedisException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("LOADING") || m.startsWith("BUSY") || m.startsWith("TRYAGAIN")
                || m.startsWith("MASTERDOWN") || m.startsWith("READONLY") || m.startsWith("CLUSTERDOWN");
    }

    // ---- release ------------------------------------------------------------------------------------------

    void release(RedisLease lease) {
        if (!lease.markReleased()) {
            return;
        }
        live.remove(lease);
        wakeWaiters();
        inFlight.readLock().lock();
        try {
            if (closed) {
                return; // close released it, or is releasing it
            }
            try {
                call(() -> redis.eval(lease.shared ? Scripts.RELEASE_SHARED : Scripts.RELEASE_EXCLUSIVE,
                        List.of(lease.key), List.of(lease.ownerToken)));
            } catch (JedisException e) {
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

    // ---- renewal ------------------------------------------------------------------------------------------

    /** The watchdog's pass: extend every live lease that is still ours; report what changed. */
    private void renewAll() {
        if (closed) {
            return;
        }
        List<RedisLease> leases = new ArrayList<>(live);
        try {
            if (leases.isEmpty()) {
                synchronized (state) {
                    if (!suspended) {
                        return;
                    }
                }
            }
            String now = call(() -> runId(redis));
            String before = runId;
            if (!now.equals(before)) {
                LOG.log(System.Logger.Level.INFO, () -> settings + " restarted (run_id " + before + " -> " + now
                        + "): checking " + leases.size() + " leases now");
                runId = now;
            }
            for (RedisLease lease : leases) {
                if (closed) {
                    return;
                }
                if (lease.isReleased() || lease.isLost()) {
                    continue;
                }
                long sentAt = System.nanoTime();
                Object result = call(() -> redis.eval(lease.shared ? Scripts.RENEW_SHARED : Scripts.RENEW_EXCLUSIVE,
                        List.of(lease.key), List.of(lease.ownerToken, leaseArg)));
                if (Long.valueOf(1L).equals(result)) {
                    lease.confirmed(sentAt);
                } else {
                    lost(lease, lease.runId.equals(now) ? "its key is gone or has another owner"
                            : "the server restarted (run_id " + lease.runId + " -> " + now + ") without its key");
                }
            }
        } catch (JedisException | IllegalStateException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.DEBUG, () -> "lease renewal on " + settings + " failed", e);
                failed();
            }
            return;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "lease renewal on " + settings + " failed unexpectedly", e);
            failed();
            return;
        }
        restore();
    }

    /**
     * After a failed call: leases uncertain at once, overdue ones lost, and probes (a renewal pass) with a back-off
     * from retryInitial doubling to retryMax (at most the renewal interval) until one succeeds: a failed renewal is
     * retried before the key expires, and a restarted server is checked within a few ms of coming back.
     */
    private void failed() {
        suspend();
        loseOverdue();
        scheduleExpiry();
        if (closed || !probing.compareAndSet(false, true)) {
            return;
        }
        long delay = probeDelay;
        probeDelay = Math.min(delay * 2, Math.min(settings.retryMax().toNanos(), settings.renewInterval().toNanos()));
        try {
            watchdog.schedule(() -> {
                probing.set(false);
                renewAll();
            }, delay, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            probing.set(false); // closed meanwhile
        }
    }

    /** While suspended: a timer at the earliest validUntil of the live leases, which marks the overdue ones lost. */
    private void scheduleExpiry() {
        long earliest = Long.MAX_VALUE;
        boolean any = false;
        for (RedisLease lease : live) {
            long valid = lease.validUntilNanos();
            if (!any || valid - earliest < 0) {
                earliest = valid;
                any = true;
            }
        }
        if (!any || closed || !expiryScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            expiry.schedule(() -> {
                expiryScheduled.set(false);
                loseOverdue();
                boolean still;
                synchronized (state) {
                    still = suspended;
                }
                if (still) {
                    scheduleExpiry();
                }
            }, Math.max(0, earliest - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            expiryScheduled.set(false);
        }
    }

    /** Runs a renewal pass now, on the watchdog thread. */
    private void renewSoon() {
        try {
            watchdog.execute(this::renewAll);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // closed meanwhile: close frees the leases
        }
    }

    /** The {@link ConnectionWatch} lost its connection: the server stopped or closed connections. */
    private void connectionDropped() {
        if (closed) {
            return;
        }
        redis.getPool().clear(); // idle connections to a stopped server are broken too
        suspend();
        renewSoon();
    }

    /** Marks lost every lease past its validUntil (the last confirmed renewal's send time + lease - margin). */
    private void loseOverdue() {
        long now = System.nanoTime();
        for (RedisLease lease : live) {
            if (now - lease.validUntilNanos() >= 0) {
                lost(lease, "not renewed for leaseTime " + settings.leaseTime() + " less the drift margin "
                        + settings.driftMargin());
            }
        }
    }

    private void lost(RedisLease lease, String why) {
        if (lease.markLost()) {
            live.remove(lease);
            LOG.log(System.Logger.Level.DEBUG, () -> "lease lost: " + lease + ": " + why);
            events.leaseLost(lease);
        }
    }

    private void suspend() {
        synchronized (state) {
            if (!closed && !suspended) {
                suspended = true;
                events.connectionSuspended();
            }
        }
    }

    private void restore() {
        probeDelay = settings.retryInitial().toNanos();
        synchronized (state) {
            if (!closed && suspended) {
                suspended = false;
                events.connectionRestored();
            }
        }
    }

    // ---- close --------------------------------------------------------------------------------------------

    @Override
    public void close() {
        synchronized (state) {
            if (closed) {
                return;
            }
            closed = true;
        }
        wakeWaiters();
        watch.close();
        expiry.shutdownNow();
        watchdog.shutdownNow();
        try {
            if (!watchdog.awaitTermination(settings.socketTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "the lease watchdog of " + settings + " did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        inFlight.writeLock().lock();
        try {
            LockConnectionException failure = null;
            for (RedisLease lease : live) {
                if (!lease.markReleased()) {
                    continue;
                }
                if (failure != null) {
                    continue; // the server did not answer: one wait is enough, the keys expire on their own
                }
                try {
                    redis.eval(lease.shared ? Scripts.RELEASE_SHARED : Scripts.RELEASE_EXCLUSIVE,
                            List.of(lease.key), List.of(lease.ownerToken));
                } catch (JedisException e) {
                    if (failure == null) {
                        failure = new LockConnectionException("closing " + settings + ": some leases could not be "
                                + "deleted and expire within leaseTime " + settings.leaseTime());
                    }
                    failure.addSuppressed(e);
                }
            }
            live.clear();
            for (Attempt attempt : waiting) {
                if (attempt.registered && failure == null) {
                    attempt.registered = false;
                    try {
                        attempt.abandon();
                    } catch (JedisException e) {
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
        return "RedisBackend[" + settings + (closed ? ", closed" : "") + "]";
    }
}
