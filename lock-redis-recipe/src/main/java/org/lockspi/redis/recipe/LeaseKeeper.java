package org.lockspi.redis.recipe;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.spi.BackendEvents;

/**
 * The live leases of one backend and their signal: a watchdog thread renews every lease each {@code leaseTime / 3}
 * and reports suspension, restoration and loss; after a failed call it probes with a back-off until a call
 * succeeds; while suspended a timer marks each lease lost at its {@code validUntil}; a {@link RedisWatch}
 * notices a server that closes its connections at once. Every pass compares the server's {@code run_id}, so a
 * restart is named in the loss it causes; the renewal decides the loss (with the append-only file the key
 * survives a restart).
 *
 * <p>Revocation (spec §27): a renewal of a revocable lease that finds a revocation request for it
 * ({@link Scripts#REVOKE}) marks the lease lost, reports it with the requester, and only then releases it as
 * {@link RedisLease#release()} does. The request's message on the revocation channel
 * ({@link RedisKeys#revokeChannel}, listened on by the first watch from the start) runs that renewal for the lease
 * it names at once, so a connected holder lets go within a few round trips; a lost message leaves it to the next
 * pass, within the renewal interval.
 *
 * <p>Threads: the watchdog, the expiry timer and the watch thread report events; {@link #failed()} and
 * {@link #acquired(RedisLease)} are called from application threads.
 */
final class LeaseKeeper {
    private static final System.Logger LOG = System.getLogger(LeaseKeeper.class.getName());

    private final RedisSettings settings;
    private final BackendEvents events;
    private final RedisOps redis;
    private final String leaseArg;
    private final Set<RedisLease> live = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor watchdog;
    /** Marks leases lost at their validUntil while suspended, however long the watchdog's I/O blocks. */
    private final ScheduledThreadPoolExecutor expiry;
    private final AtomicBoolean expiryScheduled = new AtomicBoolean();
    /** Whether a probe after a failure is scheduled. */
    private final AtomicBoolean probing = new AtomicBoolean();
    /** The pause before the next probe: retryInitial after a success, doubling up to retryMax. */
    private volatile long probeDelay;
    /** The run_id the server reported last: another one means it restarted. */
    private volatile String runId;
    private final List<RedisWatch> watches;
    /** Where the messages and confirmations of the lock channels go: the backend's {@link Wakeups}. */
    private volatile RedisWatch.Listener channels;
    /** The channel on which revocations name the owner token they ask to let go. */
    private final String revokeChannel;

    private final Object state = new Object();
    private volatile boolean closed; // written under state
    private boolean suspended; // guarded by state

    LeaseKeeper(RedisSettings settings, BackendEvents events, RedisOps redis, String runId) {
        this.settings = settings;
        this.events = events;
        this.redis = redis;
        this.runId = runId;
        this.leaseArg = Long.toString(settings.leaseTime().toMillis());
        this.probeDelay = settings.retryInitial().toNanos();
        this.watchdog = daemon("lockspi-redis-watchdog-" + settings.address());
        this.expiry = daemon("lockspi-redis-expiry-" + settings.address());
        long interval = settings.renewInterval().toNanos();
        watchdog.scheduleWithFixedDelay(this::renewAll, interval, interval, TimeUnit.NANOSECONDS);
        this.revokeChannel = RedisKeys.revokeChannel(settings.keyPrefix());
        this.watches = List.copyOf(redis.openWatches(settings.keyPrefix() + "watch", new RedisWatch.Listener() {
            @Override
            public void message(String channel, String message) {
                if (channel.equals(revokeChannel)) {
                    revocationAsked(message);
                    return;
                }
                RedisWatch.Listener to = channels;
                if (to != null) {
                    to.message(channel, message);
                }
            }

            @Override
            public void subscribed(String channel) {
                if (channel.equals(revokeChannel)) {
                    // a request written before the subscription (a lease acquired right after open, or during a
                    // reconnection) published to nobody here: a renewal pass finds it now, not a renewal later
                    if (live.stream().anyMatch(lease -> lease.revocable)) {
                        renewSoon();
                    }
                    return;
                }
                RedisWatch.Listener to = channels;
                if (to != null) {
                    to.subscribed(channel);
                }
            }

            @Override
            public void dropped() {
                connectionDropped();
            }
        }));
        watches.get(0).listen(revokeChannel, true); // subscribed again by the watch after every reconnection
    }

    private static ScheduledThreadPoolExecutor daemon(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /**
     * @return the watch connection that also carries the lock channels of the backend's waiters: the only one, or
     *         on a cluster the first node's (a plain {@code PUBLISH} reaches every node of a cluster; while that
     *         node is down the waiters fall back to polling)
     */
    RedisWatch watch() {
        return watches.get(0);
    }

    /** Sets where the messages of the lock channels go. */
    void channels(RedisWatch.Listener listener) {
        this.channels = listener;
    }

    /** @return the run_id the server reported last, for a new lease */
    String runId() {
        return runId;
    }

    /** A new lease, renewed from now on. If the connection was suspended, an answer has just come: check all. */
    void acquired(RedisLease lease) {
        live.add(lease);
        boolean wasSuspended;
        synchronized (state) {
            wasSuspended = suspended;
        }
        if (wasSuspended) {
            loseOverdue();
            restore();
            renewSoon();
        }
    }

    /** A released lease: no longer renewed. */
    void forget(RedisLease lease) {
        live.remove(lease);
    }

    /** Runs a renewal pass now, on the watchdog thread (after a call found the server back). */
    void renewSoon() {
        try {
            watchdog.execute(this::renewAll);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile: close frees the leases
        }
    }

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
            String now = Calls.retryOnce(redis, this::suspend, redis::runId);
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
                renew(lease, now);
            }
        } catch (RedisOpsException | IllegalStateException e) {
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
     * Renews one lease unless it is released or lost: confirms it, reports it lost, or lets it go if a revocation
     * asks for it.
     *
     * @param server the server's run_id now
     */
    private void renew(RedisLease lease, String server) {
        if (lease.isReleased() || lease.isLost()) {
            return;
        }
        long sentAt = System.nanoTime();
        if (lease.endedBy(sentAt)) {
            // no renewal past the acquisition's own lease time: the key expires on the server by itself
            lost(lease, "its lease time of " + lease.leaseTime + " ended");
            return;
        }
        Script script = lease.shared ? Scripts.RENEW_SHARED : Scripts.RENEW_EXCLUSIVE;
        Object result = Calls.retryOnce(redis, this::suspend, () -> script.run(redis,
                List.of(lease.key, lease.revocations), List.of(lease.entry, leaseArg, lease.endArg,
                        lease.revocationArg())));
        if (result instanceof String) {
            revoked(lease, (String) result);
        } else if (Long.valueOf(1L).equals(result)) {
            lease.confirmed(sentAt);
        } else {
            lost(lease, "its key is gone or has another owner" + (lease.runId.equals(server) ? ""
                    : "; the server restarted since the acquisition (run_id " + lease.runId + " -> " + server + ")"));
        }
    }

    /**
     * A revocation asked for {@code lease}: lost and reported first, then released as the application would (the
     * release script wakes the waiters and drops the request). A release that fails leaves the key to expire: it is
     * no longer renewed.
     */
    private void revoked(RedisLease lease, String requestedBy) {
        if (!lost(lease, "revoked at the request of " + requestedBy)) {
            return;
        }
        try {
            lease.release();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "releasing revoked " + lease + " on " + settings + " failed; "
                    + "its key expires within leaseTime " + settings.leaseTime(), e);
        }
    }

    /**
     * A message on the revocation channel, on a watch's thread: if it names one of this backend's live leases,
     * renew that lease now, on the watchdog thread, which finds the request and lets it go.
     */
    private void revocationAsked(String ownerToken) {
        for (RedisLease lease : live) {
            if (lease.ownerToken.equals(ownerToken)) {
                try {
                    watchdog.execute(() -> check(lease));
                } catch (RejectedExecutionException closing) {
                    // closed meanwhile: close frees the leases
                }
                return;
            }
        }
    }

    /** The watchdog's renewal of one lease a revocation named; a failure counts as a failed renewal pass. */
    private void check(RedisLease lease) {
        if (closed) {
            return;
        }
        try {
            renew(lease, runId);
        } catch (RedisOpsException | IllegalStateException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.DEBUG, () -> "checking " + lease + " on " + settings + " failed", e);
                failed();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "checking " + lease + " on " + settings + " failed unexpectedly", e);
            failed();
        }
    }

    /**
     * After a failed call: leases uncertain at once, overdue ones lost, and probes (a renewal pass) with a back-off
     * from retryInitial doubling to retryMax (at most the renewal interval) until one succeeds: a failed renewal is
     * retried before the key expires, and a restarted server is checked within a few ms of coming back.
     */
    void failed() {
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
        } catch (RejectedExecutionException closing) {
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
        } catch (RejectedExecutionException closing) {
            expiryScheduled.set(false);
        }
    }

    /** A {@link RedisWatch} lost its connection: the server stopped or closed connections. */
    private void connectionDropped() {
        if (closed) {
            return;
        }
        redis.dropIdleConnections(); // idle connections to a stopped server are broken too
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

    /** @return whether this call marked it lost and reported it (it was neither lost nor released) */
    private boolean lost(RedisLease lease, String why) {
        if (!lease.markLost()) {
            return false;
        }
        live.remove(lease);
        LOG.log(System.Logger.Level.DEBUG, () -> "lease lost: " + lease + ": " + why);
        events.leaseLost(lease, why);
        return true;
    }

    private void suspend() {
        synchronized (state) {
            if (!closed && !suspended) {
                suspended = true;
                events.connectionSuspended();
            }
        }
    }

    /** After a successful renewal pass: resumes a suspended connection, or confirms leases whose renewal was late. */
    private void restore() {
        probeDelay = settings.retryInitial().toNanos();
        synchronized (state) {
            if (closed) {
                return;
            }
            if (suspended) {
                suspended = false;
                events.connectionRestored();
                return;
            }
        }
        events.leasesConfirmed(); // a renewal that came after confirmThreshold turns the UNCERTAIN leases HELD again
    }

    /**
     * Stops renewing, probing and watching, waiting for a renewal under way at most socketTimeout + 1 s.
     *
     * @return the leases still live, for the caller to free; idempotent (the second call returns none)
     */
    List<RedisLease> close() {
        synchronized (state) {
            if (closed) {
                return List.of();
            }
            closed = true;
        }
        watches.forEach(RedisWatch::close);
        expiry.shutdownNow();
        watchdog.shutdownNow();
        try {
            if (!watchdog.awaitTermination(settings.socketTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "the lease watchdog of " + settings + " did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<RedisLease> leases = new ArrayList<>(live);
        live.clear();
        return leases;
    }
}
