package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.lockspi.spi.BackendEvents;

/**
 * The live leases of one backend and their signal. A thread renews every lease each {@code leaseTime / 3}, and
 * refreshes the queue entries of the waiting acquisitions, on a connection of its own that it keeps: a server that
 * restarted or a network that broke shows as a failed renewal there, even when the pool quietly replaces its
 * other connections. A failed pass suspends the connection (leases {@code UNCERTAIN}) and is tried again with a
 * back-off until one succeeds (leases {@code HELD} again, or lost if their row is gone or has another owner);
 * the engine turns a lease {@code LOST} at its {@code validUntilNanos()} whatever happens here. Every few minutes
 * it also tidies the rows that ran out (a crashed client's), through the backend's queue transaction.
 *
 * <p>Revocation (spec §27): a renewal skips a row whose revocation was asked for, so a pass finds such a lease among
 * those it could not renew, reads who asked, turns it lost, tells the engine ({@code "revoked at the request of
 * ..."}) and only then has the backend free its rows, on the keeper's own connection, as a release would. A pass
 * runs every renewal interval, and at once on a notice ({@link #revocationNotice(long)}, PostgreSQL's
 * {@code NOTIFY}).
 *
 * <p>Threads: the keeper reports events; {@link #failed()}, {@link #acquired(JdbcLease)} and the notices are called
 * from other threads.
 */
final class LeaseKeeper {
    private static final System.Logger LOG = System.getLogger(LeaseKeeper.class.getName());

    private final JdbcSettings settings;
    private final Sql sql;
    private final BackendEvents events;
    private final Connections connections;
    private final Supplier<List<Attempt>> queued;
    private final Runnable tidy;
    private final Runnable cleanUp;
    private final Freer freer;
    private final long leaseMs;
    private final Set<JdbcLease> live = ConcurrentHashMap.newKeySet();
    /** Revoked leases, lost and told, whose rows are still to be freed (by the keeper thread, or close). */
    private final Set<JdbcLease> unfreed = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor thread;
    private final AtomicBoolean probing = new AtomicBoolean();
    private final long tidyEvery;
    private long passes; // keeper thread only
    private volatile long probeDelay;
    private Connection connection; // keeper thread only
    /** Whether the keeper holds its connection (written by the keeper thread). */
    private volatile boolean connected;

    private final Object state = new Object();
    private volatile boolean closed; // written under state
    private boolean suspended; // guarded by state

    /** Frees a revoked lease's rows as its release would, once the engine has been told of the loss. */
    interface Freer {
        /**
         * @param c     the keeper's connection, autocommit on
         * @param lease the lease, already lost
         * @throws SQLException as the driver throws; the rows then run out by themselves (they are not renewed)
         */
        void free(Connection c, JdbcLease lease) throws SQLException;
    }

    /**
     * @param queued  the acquisitions that may have an entry in the queue, whose entries it refreshes
     * @param tidy    tidies the rows that ran out, on a pooled connection
     * @param cleanUp finishes the clean-ups of acquisitions given up while the connection was down; run after each
     *                pass that found the connection up (cheap when there is none)
     * @param freer   frees the rows of a revoked lease
     */
    LeaseKeeper(JdbcSettings settings, Sql sql, BackendEvents events, Connections connections,
                Supplier<List<Attempt>> queued, Runnable tidy, Runnable cleanUp, Freer freer) {
        this.settings = settings;
        this.sql = sql;
        this.events = events;
        this.connections = connections;
        this.queued = queued;
        this.tidy = tidy;
        this.cleanUp = cleanUp;
        this.freer = freer;
        this.leaseMs = settings.leaseTime().toMillis();
        this.probeDelay = settings.retryInitial().toNanos();
        long interval = settings.renewInterval().toNanos();
        this.tidyEvery = Math.max(1, TimeUnit.MINUTES.toNanos(5) / interval);
        thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "lockspi-jdbc-keeper-" + settings.address());
            t.setDaemon(true);
            return t;
        });
        thread.setRemoveOnCancelPolicy(true);
        thread.scheduleWithFixedDelay(this::renewAll, interval, interval, TimeUnit.NANOSECONDS);
    }

    /** A new lease, renewed from now on. If the connection was suspended, an answer has just come: check all. */
    void acquired(JdbcLease lease) {
        live.add(lease);
        boolean wasSuspended;
        synchronized (state) {
            wasSuspended = suspended;
        }
        if (wasSuspended) {
            restore(); // the grant was an answer: the database is back (leases whose renewal is overdue stay UNCERTAIN)
            renewSoon();
        } else if (!connected) {
            connectSoon();
        }
    }

    /**
     * Opens the keeper's connection now, not at the next renewal: a restart of the database while a lease is held
     * then shows as that connection's failure (and the lease {@code UNCERTAIN}) even if the pool's connections are
     * replaced without a word.
     */
    private void connectSoon() {
        try {
            thread.execute(() -> {
                if (connection != null || closed) {
                    return;
                }
                try {
                    connection = connections.dedicated();
                    connected = true;
                } catch (SQLException e) {
                    failed();
                }
            });
        } catch (RejectedExecutionException closing) {
            // closed meanwhile
        }
    }

    /** A released lease: no longer renewed. */
    void forget(JdbcLease lease) {
        live.remove(lease);
    }

    /**
     * A revocation was asked for a lease with this token, somewhere (PostgreSQL's {@code NOTIFY} reaches every
     * listening client): a pass now if it is one of ours; the pass reads the row, so a notice proves nothing.
     */
    void revocationNotice(long token) {
        for (JdbcLease lease : live) {
            if (lease.fencingToken() == token && lease.revocable) {
                renewSoon();
                return;
            }
        }
    }

    /** A pass now: notices may have been missed (the listening connection was (re)opened). */
    void revocationCheck() {
        for (JdbcLease lease : live) {
            if (lease.revocable) {
                renewSoon();
                return;
            }
        }
    }

    private void renewSoon() {
        try {
            thread.execute(this::renewAll);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile: close frees the leases
        }
    }

    /** The keeper's pass: extend every live lease that is still ours and every queued entry; report changes. */
    private void renewAll() {
        if (closed) {
            return;
        }
        List<JdbcLease> leases = new ArrayList<>(live);
        List<Attempt> waiting = queued.get();
        boolean wasSuspended;
        synchronized (state) {
            wasSuspended = suspended;
        }
        if (leases.isEmpty() && waiting.isEmpty() && unfreed.isEmpty() && !wasSuspended) {
            runCleanUp();
            maybeTidy();
            return;
        }
        try {
            if (connection == null) {
                connection = connections.dedicated();
                connected = true;
            }
            long sentAt = System.nanoTime();
            if (leases.isEmpty() && waiting.isEmpty()) {
                try (Statement s = connection.createStatement()) {
                    s.executeQuery(sql.selectNow).close(); // a probe: is the database back?
                }
            }
            List<JdbcLease> gone = new ArrayList<>();
            for (JdbcLease lease : leases) {
                if (lease.endedBy(sentAt) && !lease.isReleased()) {
                    // no renewal past the acquisition's own lease time: its row runs out in the database by itself
                    lost(lease, "its lease time of " + lease.leaseTime + " ended");
                }
            }
            renew(leases, true, false, gone);
            renew(leases, false, false, gone);
            renew(leases, true, true, gone);
            renew(leases, false, true, gone);
            refresh(waiting);
            for (JdbcLease lease : leases) {
                if (!gone.contains(lease)) {
                    lease.confirmed(sentAt);
                }
            }
            for (JdbcLease lease : gone) {
                String by = revokedBy(lease);
                if (by == null) {
                    lost(lease, "its row is gone, has run out or has another owner");
                } else if (lost(lease, "revoked at the request of " + by)) {
                    unfreed.add(lease); // freed only now that the engine reads the lease LOST
                }
            }
            freeRevoked();
        } catch (SQLException | RuntimeException | AssertionError e) {
            // (pgjdbc 42.7 throws an AssertionError from a batch on a connection that broke under it; a periodic
            // task that let it escape would never run again)
            if (!closed) {
                LOG.log(System.Logger.Level.DEBUG, () -> "lease renewal on " + settings + " failed", e);
                connections.closeDedicated(connection, true);
                connection = null;
                connected = false;
                failed();
            }
            return;
        }
        restore();
        runCleanUp();
        maybeTidy();
    }

    private void runCleanUp() {
        try {
            cleanUp.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "cleaning up after given-up acquisitions on " + settings
                    + " failed; tried again after the next pass", e);
        }
    }

    /** @return whether the connection is known down (reported suspended, not restored yet) */
    boolean suspended() {
        synchronized (state) {
            return suspended;
        }
    }

    /** Renews the live leases of one kind of row, with or without a lease time of their own (capped). */
    private void renew(List<JdbcLease> leases, boolean exclusive, boolean capped, List<JdbcLease> gone)
            throws SQLException {
        List<JdbcLease> some = new ArrayList<>();
        for (JdbcLease lease : leases) {
            if (lease.exclusive() == exclusive && (lease.leaseTimeMs > 0) == capped && !lease.isReleased()
                    && !lease.isLost()) {
                some.add(lease);
            }
        }
        if (some.isEmpty()) {
            return;
        }
        String statement = capped ? exclusive ? sql.renewExclusiveCapped : sql.renewSharedCapped
                : exclusive ? sql.renewExclusive : sql.renewShared;
        int[] counts = batch(statement, some.size(), (s, i) -> {
            JdbcLease lease = some.get(i);
            int p = 1;
            s.setLong(p++, leaseMs);
            if (capped) {
                s.setLong(p++, lease.leaseTimeMs);
            }
            if (exclusive) {
                s.setString(p++, lease.lockId);
            }
            s.setString(p, lease.id);
        });
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0 && !some.get(i).isReleased()) {
                gone.add(some.get(i));
            }
        }
    }

    /**
     * Frees the rows of the revoked leases. A row lock held past its bound by another client leaves a lease for the
     * next pass (its rows, not renewed, run out by themselves meanwhile); a broken connection fails the pass.
     */
    private void freeRevoked() throws SQLException {
        for (java.util.Iterator<JdbcLease> i = unfreed.iterator(); i.hasNext(); ) {
            JdbcLease lease = i.next();
            try {
                freer.free(connection, lease);
                i.remove();
            } catch (SQLException e) {
                if (Connections.broken(e) || Connections.timedOut(e)) {
                    throw e;
                }
                LOG.log(System.Logger.Level.DEBUG, () -> "freeing the rows of the revoked " + lease + " on "
                        + settings + " failed; tried again at the next pass", e);
            }
        }
    }

    /** @return who asked to revoke a lease its renewal skipped, or null if its row is gone or not revoked */
    private String revokedBy(JdbcLease lease) throws SQLException {
        if (!lease.revocable) {
            return null;
        }
        try (PreparedStatement s = connection.prepareStatement(lease.exclusive() ? sql.revokedByExclusive
                : sql.revokedByShared)) {
            if (lease.exclusive()) {
                QueueTransaction.bind(s, lease.lockId, lease.id);
            } else {
                QueueTransaction.bind(s, lease.id);
            }
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }

    private void refresh(List<Attempt> waiting) throws SQLException {
        if (!waiting.isEmpty()) {
            batch(sql.refreshWaiter, waiting.size(), (s, i) -> {
                s.setLong(1, leaseMs);
                s.setString(2, waiting.get(i).id);
            });
        }
    }

    private interface Binder {
        void bind(PreparedStatement s, int i) throws SQLException;
    }

    /** Runs one statement for each item, as a batch where the driver counts each, else one by one. */
    private int[] batch(String statement, int n, Binder binder) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(statement)) {
            for (int i = 0; i < n; i++) {
                binder.bind(s, i);
                s.addBatch();
            }
            int[] counts = s.executeBatch();
            boolean counted = counts.length == n;
            for (int c : counts) {
                counted &= c >= 0;
            }
            if (counted) {
                return counts;
            }
            counts = new int[n]; // the driver did not count each row (a bulk batch): once more, one by one
            for (int i = 0; i < n; i++) {
                binder.bind(s, i);
                counts[i] = s.executeUpdate();
            }
            return counts;
        }
    }

    private void maybeTidy() {
        if (++passes % tidyEvery == 0 && !closed) {
            try {
                tidy.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "tidying " + settings + " failed", e);
            }
        }
    }

    /**
     * After a failed call: leases uncertain at once, and probes (a renewal pass) with a back-off from
     * retryInitial doubling to min(retryMax, renewInterval) until one succeeds.
     */
    void failed() {
        suspend();
        if (closed || !probing.compareAndSet(false, true)) {
            return;
        }
        long delay = probeDelay;
        probeDelay = Math.min(delay * 2, Math.min(settings.retryMax().toNanos(), settings.renewInterval().toNanos()));
        try {
            thread.schedule(() -> {
                probing.set(false);
                renewAll();
            }, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            probing.set(false);
        }
    }

    /** @return whether this call turned the lease lost (it was neither lost nor released) */
    private boolean lost(JdbcLease lease, String why) {
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

    /** After a pass that succeeded: resumes a suspended connection, or confirms leases whose renewal was late. */
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
        events.leasesConfirmed();
    }

    /**
     * Stops renewing, waiting for a pass under way at most socketTimeout + 1 s, and gives back its connection.
     *
     * @return the leases still live and the revoked ones not freed yet, for the caller to free; idempotent (the
     *         second call returns none)
     */
    List<JdbcLease> close() {
        synchronized (state) {
            if (closed) {
                return List.of();
            }
            closed = true;
        }
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(settings.socketTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "the lease keeper of " + settings + " did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connections.closeDedicated(connection, false);
        connection = null;
        List<JdbcLease> leases = new ArrayList<>(live);
        live.clear();
        leases.addAll(unfreed);
        unfreed.clear();
        return leases;
    }
}
