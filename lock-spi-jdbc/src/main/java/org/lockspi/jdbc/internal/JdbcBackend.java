package org.lockspi.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.LockInfo;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;

/**
 * One client of the lock tables. An acquisition of a lock that has no row is one statement (insert the row with the
 * caller as its holder and a token from the sequence), and its release another (delete the row if it has no
 * entries); everything else goes through a {@link QueueTransaction} under the lock row's row lock: waiters queue as
 * entries in arrival order and try again when woken (a release in this client, a {@code NOTIFY} on PostgreSQL),
 * when what blocks them runs out by the database's clock, or after a back-off. A {@link LeaseKeeper} renews the
 * leases and reports suspension, restoration and loss.
 *
 * <p>Revocation (spec §27): {@link #revoke} writes who asks into the holder's row ({@link RevocationRequest}); the
 * holder's keeper, which renews no such row, turns the lease lost, tells the engine and frees the rows as a release
 * would ({@link #freeRevoked}).
 *
 * <p>Longer than most files here (about 590 lines): acquisition, release, giving up, revocation and close share the
 * in-flight lock that close waits on and the translation of driver failures; the SQL of each lives in its own class
 * ({@link QueueTransaction}, {@link RevocationRequest}, {@link Inspection}).
 */
public final class JdbcBackend implements LockBackend {
    private final JdbcSettings settings;
    private final Connections connections;
    private final Dialect dialect;
    private final Sql sql;
    private final QueueTransaction queue;
    private final String clientId = UUID.randomUUID().toString();
    private final AtomicLong sequence = new AtomicLong();
    private final LockIds lockIds = new LockIds();
    /** Acquisitions under way: the keeper refreshes their entries, close() removes them. */
    private final Set<Attempt> waiting = ConcurrentHashMap.newKeySet();
    /** Acquisitions given up while the connection was down: the keeper removes their entries once it is back. */
    private final Set<Attempt> abandoned = ConcurrentHashMap.newKeySet();
    private final LeaseKeeper keeper;
    private final Wakeups wakeups;
    /** PostgreSQL's listening connection, or null: where revocation notices arrive too. */
    private final PgListener listener;
    /** The statement that sends a notice (a revocation's); null where the database has none. */
    private final String notify;
    /** Calls hold the read lock around their database work; close takes the write lock to wait for them. */
    private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock();
    private final long leaseMs;
    private final long confirmNanos;
    private final long validNanos;
    private final long pollMaxNanos;

    private final ReentrantLock state = new ReentrantLock();
    private volatile boolean closed; // written under state
    private volatile boolean poolClosed; // written under the write lock of inFlight

    private JdbcBackend(JdbcSettings settings, Connections connections, BackendEvents events) {
        this.settings = settings;
        this.connections = connections;
        this.dialect = settings.dialect();
        this.sql = new Sql(dialect, settings.tablePrefix(), settings.lockWaitMillis());
        this.queue = new QueueTransaction(sql, dialect, settings.lockWaitMillis());
        this.leaseMs = settings.leaseTime().toMillis();
        this.confirmNanos = settings.confirmThreshold().toNanos();
        this.validNanos = settings.leaseTime().minus(settings.driftMargin()).toNanos();
        // with wake-ups a waiter polls only as a safety net, each third of the lease time
        this.pollMaxNanos = settings.wakeups()
                ? Math.max(settings.retryMax().toNanos(), settings.renewInterval().toNanos())
                : settings.retryMax().toNanos();
        this.keeper = new LeaseKeeper(settings, sql, events, connections, this::queued, this::tidy,
                this::leaveAbandoned, this::freeRevoked);
        connections.whenUnreachable(keeper::failed); // the outage is told at once: acquisitions then fail fast
        this.listener = settings.wakeups()
                ? new PgListener(connections, settings.address(), settings.retryMax().toMillis()) : null;
        this.wakeups = new Wakeups(listener);
        this.notify = dialect.notifyStatement();
    }

    /**
     * Checks that the database answers and has the schema (creating it unless {@code createSchema=false}).
     *
     * @param settings    the options
     * @param connections where connections come from; closed here if the open fails
     * @param events      where to report connection and lease events
     * @return the open backend
     * @throws LockConnectionException if the database cannot be reached
     * @throws LockException           if the schema is missing or wrong (the message names the table and the fix)
     */
    public static JdbcBackend open(JdbcSettings settings, Connections connections, BackendEvents events) {
        try {
            ensureSchema(settings, connections);
        } catch (SQLException | RuntimeException e) {
            RuntimeException failure = e instanceof LockException ? (LockException) e
                    : new LockConnectionException("cannot reach the database at " + settings.address()
                    + " within connectTimeout " + settings.connectTimeout() + ": " + e.getMessage(), e);
            try {
                connections.close();
            } catch (RuntimeException closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
        return new JdbcBackend(settings, connections, events);
    }

    /**
     * Checks the schema on a connection of its own, tried again until connectTimeout while connecting fails as a
     * connection: a server that has just started (or is opening its database) may answer a first connect late.
     */
    private static void ensureSchema(JdbcSettings settings, Connections connections) throws SQLException {
        long deadline = System.nanoTime() + settings.connectTimeout().toNanos();
        while (true) {
            try {
                connections.callDirect(c -> {
                    Schema.ensure(c, settings, new Sql(settings.dialect(), settings.tablePrefix(), 0));
                    return null;
                });
                return;
            } catch (SQLException e) {
                long pause = Math.min(settings.retryInitial().toNanos(), deadline - System.nanoTime());
                if (!Connections.broken(e) || unknownHost(e) || pause <= 0) {
                    throw e; // an unknown host name fails at once (§15.3)
                }
                try {
                    TimeUnit.NANOSECONDS.sleep(pause); // a back-off between connects, not a wait for an event
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static boolean unknownHost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    // ---- acquire --------------------------------------------------------------------------------------------

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        checkOpen();
        Attempt a = new Attempt(request, clientId + ":" + sequence.incrementAndGet(), lockIds.get(request.name()));
        waiting.add(a);
        Wakeups.Waiter waiter = null; // joins after the first refused attempt: an uncontended one never does
        long delay = settings.wakeups() ? pollMaxNanos : settings.retryInitial().toNanos();
        try {
            if (LockQueue.exclusive(a.kind)) {
                JdbcLease alone = tryAlone(a);
                if (alone != null) {
                    return alone;
                }
            }
            while (true) {
                QueueTransaction.Outcome o = round(a, !deadline.hasExpired());
                if (o.granted()) {
                    return grant(a, o.token, o.sentAt);
                }
                if (deadline.hasExpired()) {
                    giveUp(a);
                    return null;
                }
                if (waiter == null) {
                    waiter = wakeups.join(a.lockId, a.id);
                }
                // equal jitter: half the delay fixed, half random, so that polling waiters spread out
                long pause = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
                if (o.nextMs != Long.MAX_VALUE) {
                    pause = Math.min(pause, (o.nextMs + 1) * 1_000_000L); // what blocks it runs out then
                }
                pause = Math.min(pause, deadline.remainingNanos());
                if (pause > 0 && !closed) {
                    waiter.await(pause);
                }
                checkOpen();
                delay = Math.min(delay * 2, pollMaxNanos);
            }
        } catch (InterruptedException | RuntimeException e) {
            try {
                giveUp(a);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        } finally {
            if (waiter != null) {
                wakeups.leave(waiter);
            }
            waiting.remove(a);
        }
    }

    /** The uncontended path: one statement; null if the lock has a row (held, or with entries). */
    private JdbcLease tryAlone(Attempt a) throws InterruptedException {
        inFlight.readLock().lock();
        try {
            checkOpen();
            long[] sentAt = new long[1];
            Long token;
            try {
                token = connections.call(c -> {
                    sentAt[0] = System.nanoTime();
                    try (PreparedStatement s = c.prepareStatement(sql.insertHolder)) {
                        QueueTransaction.bind(s, a.lockId, a.key, a.id, String.valueOf(a.kind), a.revocable,
                                a.grantMs(leaseMs));
                        try (ResultSet r = s.executeQuery()) {
                            return r.next() ? r.getLong(1) : null;
                        }
                    } catch (SQLException e) {
                        if (dialect.isDuplicateKey(e)) {
                            return null;
                        }
                        throw e;
                    }
                });
            } catch (SQLException e) {
                rethrowInterrupt(e);
                a.inDoubt = true; // it may have been inserted before the connection failed
                throw failure("acquiring " + a, e);
            }
            return token == null ? null : grant(a, token, sentAt[0]);
        } finally {
            inFlight.readLock().unlock();
        }
    }

    /** One queue transaction; a row-lock conflict comes back as a refusal to be tried again soon. */
    private QueueTransaction.Outcome round(Attempt a, boolean mayWait) throws InterruptedException {
        inFlight.readLock().lock();
        try {
            checkOpen();
            long[] sentAt = new long[1];
            try {
                QueueTransaction.Outcome o = connections.call(c -> {
                    sentAt[0] = System.nanoTime();
                    return queue.attempt(c, a, leaseMs, mayWait);
                });
                a.queued = o.queued;
                o.sentAt = sentAt[0];
                return o;
            } catch (SQLException e) {
                rethrowInterrupt(e);
                if (dialect.isLockConflict(e)) {
                    // another client's transaction held the lock's row past the bound: try again soon
                    return new QueueTransaction.Outcome(-1, 5, a.queued);
                }
                a.inDoubt = true; // it may have committed before the connection failed
                throw failure("acquiring " + a, e);
            }
        } finally {
            inFlight.readLock().unlock();
        }
    }

    private JdbcLease grant(Attempt a, long token, long sentAt) {
        a.queued = false;
        a.inDoubt = false;
        JdbcLease lease = new JdbcLease(this, a.kind, a.key, a.lockId, a.id, token, a.revocable, sentAt, confirmNanos,
                validNanos, a.request.leaseTime().orElse(null), a.leaseTimeMs);
        keeper.acquired(lease);
        if (a.revocable && listener != null) {
            listener.watchRevocations(keeper); // from the first revocable lease on; once
        }
        return lease;
    }

    /**
     * Removes whatever an acquisition that gives up may have left: its entry, or a grant it never heard of; while
     * the connection is known down, once it is back (a pool's wait for a connection would hold the caller up to
     * connectTimeout, and an acquisition that fails fast must not wait). Its rows run out within leaseTime anyway.
     */
    private void giveUp(Attempt a) {
        if (!a.queued && !a.inDoubt) {
            return;
        }
        if (keeper.suspended()) {
            abandoned.add(a); // the keeper's next pass that finds the connection up removes it
            return;
        }
        leave(a);
    }

    /** The keeper's clean-up once the connection is back: the entries of acquisitions given up while it was down. */
    private void leaveAbandoned() {
        for (Attempt a : abandoned) {
            if (closed) {
                return; // close() removes them
            }
            leave(a); // a failure suspends the connection again: the rest waits for the next pass
            abandoned.remove(a);
        }
    }

    /** Removes an acquisition's entry, or a grant it never heard of, now. */
    private void leave(Attempt a) {
        boolean interrupted = Thread.interrupted(); // a pool refuses an interrupted thread: clean up first
        inFlight.readLock().lock();
        try {
            if (poolClosed) {
                return; // close() removed it
            }
            String next = connections.call(c -> {
                String woken = queue.leave(c, a.lockId, a.key, a.id);
                if (a.inDoubt && LockQueue.exclusive(a.kind)) {
                    String more = releaseExclusive(c, a.lockId, a.key, a.id);
                    woken = more == null ? woken : woken == null ? more : "";
                }
                return woken;
            });
            a.queued = false;
            a.inDoubt = false;
            wakeups.wake(a.lockId, next);
        } catch (SQLException e) {
            throw failure("giving up " + a + " (its rows run out within leaseTime " + settings.leaseTime() + ")", e);
        } finally {
            inFlight.readLock().unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return the acquisitions whose entries wait in the queue, for the keeper to refresh */
    private List<Attempt> queued() {
        List<Attempt> list = new ArrayList<>();
        for (Attempt a : waiting) {
            if (a.queued) {
                list.add(a);
            }
        }
        return list;
    }

    /** A pool's wait for a connection that was interrupted: the acquisition ends as interrupted, as it should. */
    private static void rethrowInterrupt(SQLException e) throws InterruptedException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                InterruptedException interrupted = new InterruptedException("interrupted while waiting for a "
                        + "connection from the pool");
                interrupted.initCause(e);
                throw interrupted;
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock backend is closed: " + settings);
        }
    }

    /** Translates a driver failure; a connection failure also suspends the leases. */
    private RuntimeException failure(String what, SQLException e) {
        if (dialect.isMissingObject(e)) {
            return new LockException(what + " on " + settings.address() + " failed: " + Schema.advice(settings, sql)
                    + " (" + e.getMessage() + ")", e);
        }
        if (Connections.broken(e) || Connections.timedOut(e)) {
            keeper.failed();
            return new LockConnectionException(what + " on " + settings.address() + " failed: " + e.getMessage(), e);
        }
        return new LockException(what + " on " + settings.address() + " was refused by the database: "
                + e.getMessage(), e);
    }

    // ---- release ------------------------------------------------------------------------------------------

    void release(JdbcLease lease) {
        if (!lease.markReleased()) {
            return;
        }
        keeper.forget(lease);
        boolean interrupted = Thread.interrupted(); // a pool refuses an interrupted thread: release first
        inFlight.readLock().lock();
        try {
            if (closed) {
                return; // close released it, or is releasing it
            }
            String next = connections.call(c -> free(c, lease));
            wakeups.wake(lease.lockId, next);
        } catch (SQLException e) {
            if (!lease.isLost()) { // nothing of ours to free; a lost lease's release never throws
                throw failure("releasing " + lease + " (its row runs out within leaseTime " + settings.leaseTime()
                        + ")", e);
            }
        } finally {
            inFlight.readLock().unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Deletes a lease's rows (the lock's holder, or its entry) and tells the other clients' waiters it frees.
     *
     * @return whom to wake among this client's waiters, as {@link QueueTransaction#wakeList}; null for none
     */
    private String free(Connection c, JdbcLease lease) throws SQLException {
        return lease.exclusive() ? releaseExclusive(c, lease.lockId, lease.name, lease.id)
                : queue.leave(c, lease.lockId, lease.name, lease.id);
    }

    /**
     * The keeper's side of a revocation, on its own connection, after it turned the lease lost and told the engine:
     * frees the rows as {@link #release} would, unless the application released the lease meanwhile (freeing twice
     * touches nothing of anyone else: the statements name the lease's own owner or entry).
     */
    private void freeRevoked(Connection c, JdbcLease lease) throws SQLException {
        if (lease.isReleased()) {
            return;
        }
        String next = free(c, lease);
        lease.markReleased();
        wakeups.wake(lease.lockId, next);
    }

    /**
     * One statement if the lock has no entries, else the queue transaction that keeps the row for them.
     *
     * @return whom to wake among this client's waiters, as {@link QueueTransaction#wakeList}; null for none
     */
    private String releaseExclusive(Connection c, String lockId, String key, String owner) throws SQLException {
        if (QueueTransaction.update(c, sql.releaseIfAlone, lockId, owner) == 1) {
            return null;
        }
        return queue.releaseOwner(c, lockId, key, owner);
    }

    // ---- upkeep -------------------------------------------------------------------------------------------

    /** The keeper's upkeep: tidies the locks whose holder's lease ran out a lease time ago (crashed clients). */
    private void tidy() {
        if (closed) {
            return;
        }
        try {
            List<String[]> stale = connections.call(c -> {
                List<String[]> rows = new ArrayList<>();
                try (PreparedStatement s = c.prepareStatement(sql.selectStale)) {
                    s.setLong(1, leaseMs);
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            rows.add(new String[] {r.getString(1), r.getString(2)});
                        }
                    }
                }
                return rows;
            });
            for (String[] row : stale) {
                if (closed) {
                    return;
                }
                connections.call(c -> {
                    queue.tidy(c, row[0], row[1]);
                    return null;
                });
            }
        } catch (SQLException e) {
            throw failure("tidying the lock table", e);
        }
    }

    // ---- revocation -------------------------------------------------------------------------------------------

    /** Writes the request into the holder's row ({@link RevocationRequest}); never frees the lock itself. */
    @Override
    public boolean revoke(String name, long fencingToken, String requestedBy) throws InterruptedException {
        checkOpen();
        String lockId = lockIds.get(name);
        inFlight.readLock().lock();
        try {
            checkOpen();
            RevocationRequest.Outcome outcome = connections.call(c -> RevocationRequest.ask(c, sql, notify, lockId,
                    fencingToken, requestedBy));
            if (outcome == RevocationRequest.Outcome.NOT_REVOCABLE) {
                throw new IllegalStateException("the holder with token " + fencingToken + " does not accept "
                        + "revocation: its service was opened without " + org.lockspi.Locks.REVOCABLE_PARAMETER
                        + "=true");
            }
            return outcome == RevocationRequest.Outcome.ASKED;
        } catch (SQLException e) {
            rethrowInterrupt(e);
            throw failure("revoking the holder of '" + name + "' with token " + fencingToken, e);
        } finally {
            inFlight.readLock().unlock();
        }
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public LockInfo inspect(String name) {
        checkOpen();
        try {
            return connections.call(c -> Inspection.inspect(c, sql, name, lockIds.get(name), clientId + ":"));
        } catch (SQLException e) {
            throw failure("inspecting '" + name + "'", e);
        }
    }

    @Override
    public List<String> list(String prefix) {
        checkOpen();
        try {
            return connections.call(c -> Inspection.list(c, sql, prefix));
        } catch (SQLException e) {
            throw failure("listing the locks under '" + prefix + "'", e);
        }
    }

    // ---- close --------------------------------------------------------------------------------------------

    @Override
    public void close() {
        state.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            state.unlock();
        }
        wakeups.close();
        inFlight.writeLock().lock();
        try {
            List<JdbcLease> leases = keeper.close();
            SQLException failure = null;
            for (JdbcLease lease : leases) {
                if (!lease.markReleased() || failure != null) {
                    continue; // after one failure the database is not asked again: the rows run out by themselves
                }
                try {
                    connections.call(c -> free(c, lease));
                } catch (SQLException e) {
                    failure = e;
                }
            }
            List<Attempt> leftBehind = new ArrayList<>(waiting);
            leftBehind.addAll(abandoned);
            for (Attempt a : leftBehind) {
                if ((a.queued || a.inDoubt) && failure == null) {
                    try {
                        connections.call(c -> queue.leave(c, a.lockId, a.key, a.id));
                        a.queued = false;
                    } catch (SQLException e) {
                        failure = e;
                    }
                }
            }
            poolClosed = true;
            connections.close();
            if (failure != null) {
                // not thrown: the service is closed either way and the rows run out within leaseTime
                System.getLogger(JdbcBackend.class.getName()).log(System.Logger.Level.WARNING, "closing "
                        + settings.address() + ": some rows could not be deleted and run out within leaseTime "
                        + settings.leaseTime(), failure);
            }
        } finally {
            inFlight.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "JdbcBackend[" + settings + (closed ? ", closed" : "") + "]";
    }
}
