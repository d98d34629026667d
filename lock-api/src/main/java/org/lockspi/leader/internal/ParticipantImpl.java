package org.lockspi.leader.internal;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.leader.LeaderListener;
import org.lockspi.leader.Participant;
import org.lockspi.leader.StopReason;
import org.lockspi.leader.Term;

/**
 * A participant: one thread that registers, acquires the leader lock, runs a term until its lease is not HELD or it
 * is stepped down or closed, tells the listener, releases and asks again. Both mutexes are thread-owned, so this
 * thread is the only one that acquires and releases them. Other threads only end the current term and wake it.
 */
public final class ParticipantImpl implements Participant {
    /** The features leadership needs. */
    public static final Set<LockFeature> NEEDED = Set.copyOf(EnumSet.of(LockFeature.REENTRANT_MUTEX,
            LockFeature.FENCING_TOKENS, LockFeature.LOST_NOTIFICATION));

    private static final System.Logger LOG = System.getLogger(ParticipantImpl.class.getName());
    /** How often a running term looks at its lease besides the listener: a closed service tells no listener. */
    static final long RECHECK_MS = 250;
    /** Back-off after a failed acquisition (the server cannot be reached), doubled up to the maximum. */
    static final long RETRY_MIN_MS = 50;
    static final long RETRY_MAX_MS = 2_000;

    private final LockService service;
    private final String election;
    private final String id;
    private final DistributedLock leader;
    private final DistributedLock registration;
    private final LeaderListener listener;
    private final long rejoinDelayNanos;
    private final Thread thread;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean closed; // guarded by lock
    private boolean acquiring; // guarded by lock: the thread waits in an acquisition close() may interrupt
    private volatile boolean ended; // the thread is done
    private volatile TermImpl term; // the current term, also once ended until the thread moves on

    private ParticipantImpl(LockService service, String election, String id, DistributedLock leader,
                            DistributedLock registration, LeaderListener listener, Duration rejoinDelay) {
        this.service = service;
        this.election = election;
        this.id = id;
        this.leader = leader;
        this.registration = registration;
        this.listener = listener;
        this.rejoinDelayNanos = rejoinDelay.toNanos();
        this.thread = new Thread(this::run, "lockspi-leader-" + election + "-" + id);
        this.thread.setDaemon(true);
    }

    /**
     * @param features a provider's features
     * @return those of {@link #NEEDED} it lacks
     */
    public static Set<LockFeature> missingFeatures(Set<LockFeature> features) {
        Set<LockFeature> missing = EnumSet.noneOf(LockFeature.class);
        for (LockFeature f : NEEDED) {
            if (!features.contains(f)) {
                missing.add(f);
            }
        }
        return missing;
    }

    /**
     * Starts a participant whose arguments were checked.
     *
     * @return the running participant
     */
    public static Participant start(LockService service, String election, String id, DistributedLock leader,
                                    DistributedLock registration, LeaderListener listener, Duration rejoinDelay) {
        ParticipantImpl p = new ParticipantImpl(service, election, id, leader, registration, listener, rejoinDelay);
        p.thread.start();
        return p;
    }

    @Override
    public String election() {
        return election;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public boolean isLeader() {
        return currentTerm().isPresent();
    }

    @Override
    public Optional<Term> currentTerm() {
        TermImpl t = term;
        return t != null && t.isActive() ? Optional.of(t) : Optional.empty();
    }

    @Override
    public boolean stepDown() {
        lock.lock();
        try {
            TermImpl t = term;
            if (closed || t == null || !t.isActive() || !t.end(StopReason.STEPPED_DOWN)) {
                return false;
            }
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                TermImpl t = term;
                if (t != null) {
                    t.end(StopReason.CLOSED);
                }
                if (acquiring) {
                    thread.interrupt(); // only a wait for a lock; never a callback or a release
                }
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (Thread.currentThread() == thread) {
            return; // from a callback: the thread ends once the callback returns
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- the participant's thread ------------------------------------------------------------------------------

    private void run() {
        Lease registered = null;
        long retryMs = RETRY_MIN_MS;
        try {
            while (!isClosed()) {
                try {
                    if (registered == null || registered.state().isTerminal()) {
                        releaseQuietly(registered);
                        registered = null;
                        registered = acquire(registration);
                        if (registered == null) {
                            continue; // closed while it waited
                        }
                    }
                    Lease lease = acquire(leader);
                    if (lease == null) {
                        continue;
                    }
                    retryMs = RETRY_MIN_MS;
                    if (lead(lease) == StopReason.STEPPED_DOWN) {
                        pause(rejoinDelayNanos);
                    }
                } catch (IllegalStateException e) {
                    if (service.isClosed()) {
                        close(); // the service was closed under the participant: it ends
                    } else {
                        throw e;
                    }
                } catch (LockException e) {
                    LOG.log(System.Logger.Level.DEBUG, "participant '" + id + "' of election '" + election
                            + "' failed to acquire; retrying in " + retryMs + " ms", e);
                    pause(TimeUnit.MILLISECONDS.toNanos(retryMs));
                    retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
                }
            }
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "participant '" + id + "' of election '" + election + "' failed", e);
            lock.lock();
            try {
                closed = true;
            } finally {
                lock.unlock();
            }
        } finally {
            releaseQuietly(registered);
            ended = true;
        }
    }

    /** Acquires on this thread, interruptible by close(); null if closed first. */
    private Lease acquire(DistributedLock mutex) {
        lock.lock();
        try {
            if (closed) {
                return null;
            }
            acquiring = true;
        } finally {
            lock.unlock();
        }
        Lease lease = null;
        try {
            lease = mutex.acquire();
        } catch (InterruptedException e) {
            // close() interrupted the wait; the loop sees closed
        } finally {
            lock.lock();
            try {
                acquiring = false;
                Thread.interrupted(); // an interrupt of close() that came after acquire returned
                if (closed && lease != null) {
                    releaseQuietly(lease);
                    lease = null;
                }
            } finally {
                lock.unlock();
            }
        }
        return lease;
    }

    /** Runs one term on a held lease; returns why it ended, once the listener was told and the lease released. */
    private StopReason lead(Lease lease) {
        TermImpl t = new TermImpl(election, id, lease);
        LeaseListener wake = (l, previous, current) -> {
            if (current != LeaseState.HELD) {
                t.end(TermImpl.reasonOf(current));
            }
            signal();
        };
        try {
            lock.lock();
            try {
                if (closed) {
                    t.end(StopReason.CLOSED);
                }
                term = t;
            } finally {
                lock.unlock();
            }
            lease.addListener(wake);
            if (t.isActive()) {
                call(() -> listener.elected(t), "elected");
                awaitEnd(t);
                call(() -> listener.stopLeading(t, t.reason()), "stopLeading");
            }
            return t.reason();
        } finally {
            lease.removeListener(wake);
            releaseQuietly(lease);
            term = null;
        }
    }

    /** Waits until the term ended: a listener call, a step-down or close, or the lease seen not HELD. */
    private void awaitEnd(TermImpl t) {
        lock.lock();
        try {
            while (t.isActive()) {
                try {
                    changed.await(RECHECK_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    // nobody interrupts this wait but an application that should not: look again
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits this long unless closed first. */
    private void pause(long nanos) {
        lock.lock();
        try {
            long left = nanos;
            while (!closed && left > 0) {
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            // see awaitEnd
        } finally {
            lock.unlock();
        }
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void call(Runnable callback, String what) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "leader listener " + listener + " failed in " + what
                    + " (participant '" + id + "' of election '" + election + "')", e);
        }
    }

    private void releaseQuietly(Lease lease) {
        if (lease == null) {
            return;
        }
        try {
            lease.release();
        } catch (LockException | IllegalMonitorStateException e) {
            // released locally; the provider deletes the state when the connection returns
            LOG.log(System.Logger.Level.DEBUG, "release of " + lease + " could not reach the server", e);
        }
    }

    @Override
    public String toString() {
        TermImpl t = term;
        return "Participant['" + id + "' of election '" + election + "', "
                + (ended ? "ended" : t != null && t.isActive() ? "leading, token " + t.fencingToken() : "waiting")
                + "]";
    }
}
