package org.lockspi.internal;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.Acquirable;
import org.lockspi.AsyncAcquirable;
import org.lockspi.ConnectionState;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.DistributedSemaphore;
import org.lockspi.ThreadFreeReadWriteLock;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKeys;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockProvider;

/**
 * The engine's {@link LockService}: the handle cache, the registry of live holds, lease state from backend
 * events, and listener dispatch on one event thread. Its {@link #guard} guards every hold's state; no thread
 * ever blocks while holding it except the timer, which waits on its condition (a {@code ReentrantLock}, not a
 * monitor, so that a virtual thread that waits here is never pinned to its carrier). Just over 600 lines: the
 * holds' registry, their deadlines' timer and the backend's events all work under that one guard, and splitting
 * them apart would spread it over several files.
 */
final class EngineService implements LockService {
    private static final System.Logger LOG = System.getLogger(EngineService.class.getName());
    private static final AtomicInteger SERVICES = new AtomicInteger();

    private final LockProvider provider;
    private final String description;
    private final Set<LockFeature> features;
    private final Map<String, Object> handles = new ConcurrentHashMap<>();
    private final Map<BackendLease, Hold> holds = new IdentityHashMap<>(); // guarded by guard
    private final int id = SERVICES.incrementAndGet();
    /** Guards the holds, their states and the fields marked so. */
    final ReentrantLock guard = new ReentrantLock();
    private final Condition timerWake = guard.newCondition();
    private volatile LockBackend backend;
    private volatile boolean closed;
    private boolean suspended; // guarded by guard
    private ExecutorService events; // guarded by guard; created on first use
    private volatile Thread eventThread;
    private Thread timer; // guarded by guard; created when the first hold with a deadline is registered
    /** When the waiting timer wakes on its own (nanoTime), Long.MAX_VALUE if never; guarded by guard. */
    private long timerDue = Long.MAX_VALUE;
    private final AsyncWaits async;
    final FailFast failFast;
    /** Whether this service's acquisitions are sent revocable (spec §27). */
    final boolean revocable;
    /** The outage under way (for the log): when it began, how many leases it made UNCERTAIN and LOST; by guard. */
    private long outageStart;
    private int outageUncertain;
    private int outageLost;

    EngineService(LockProvider provider, String description, java.time.Duration failFast, boolean revocable) {
        this.revocable = revocable;
        this.provider = provider;
        this.description = description;
        this.features = Set.copyOf(provider.features());
        this.async = new AsyncWaits("lockspi-async-" + provider.name() + "-" + id + "-");
        this.failFast = new FailFast(failFast, description, guard);
    }

    /** Starts an asynchronous acquisition of {@code lock} in a thread of its own. */
    <T> java.util.concurrent.CompletableFuture<T> startAsync(Object lock, org.lockspi.spi.Deadline deadline,
                                                             AsyncWaits.Attempt attempt, AsyncWaits.Outcome<T> outcome) {
        try {
            checkOpen();
        } catch (IllegalStateException e) {
            attempt.abandoned();
            throw e;
        }
        return async.start(lock.toString(), deadline, attempt, outcome);
    }

    /** Completes construction with the backend the provider opened. */
    void attach(LockBackend backend) {
        this.backend = backend;
    }

    /** @return what the backend reports to */
    BackendEvents backendEvents() {
        return new Events();
    }

    LockBackend backend() {
        return backend;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock service is closed: " + description);
        }
    }

    void requireFeature(LockFeature feature, String what) {
        if (!features.contains(feature)) {
            throw new UnsupportedOperationException("provider '" + provider.name() + "' does not support " + what
                    + " (it lacks " + feature + "; it has " + features + ")");
        }
    }

    // ---- handles -------------------------------------------------------------------------------------------

    @Override
    public DistributedLock mutex(String name) {
        return handle(name, LockFeature.REENTRANT_MUTEX, "a mutex", ThreadOwnedLock.class,
                () -> new ThreadOwnedLock(this, name, LockKind.MUTEX, null));
    }

    @Override
    public AsyncAcquirable nonReentrantMutex(String name) {
        LeaseLock lock = handle(name, LockFeature.NON_REENTRANT_MUTEX, "a non-reentrant mutex", LeaseLock.class,
                () -> new LeaseLock(this, name, AcquireRequest.exclusive(LockKind.NON_REENTRANT_MUTEX, LockKeys.key(name))));
        if (lock.request().kind() != LockKind.NON_REENTRANT_MUTEX) {
            throw inUse(name, lock, "a non-reentrant mutex");
        }
        return lock;
    }

    @Override
    public DistributedReadWriteLock readWriteLock(String name) {
        return handle(name, LockFeature.READ_WRITE, "a read-write lock", ReadWriteLockImpl.class,
                () -> new ReadWriteLockImpl(this, name));
    }

    @Override
    public ThreadFreeReadWriteLock threadFreeReadWriteLock(String name) {
        return handle(name, LockFeature.READ_WRITE, "a thread-free read-write lock", ThreadFreeReadWriteLockImpl.class,
                () -> new ThreadFreeReadWriteLockImpl(this, name));
    }

    @Override
    public DistributedSemaphore semaphore(String name, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits < 1: " + permits);
        }
        LeaseLock lock = handle(name, LockFeature.SEMAPHORE, "a semaphore", LeaseLock.class,
                () -> new LeaseLock(this, name, AcquireRequest.semaphore(LockKeys.key(name), permits)));
        if (lock.request().kind() != LockKind.SEMAPHORE) {
            throw inUse(name, lock, "a semaphore");
        }
        if (lock.permits() != permits) {
            throw new IllegalArgumentException("semaphore '" + name + "' has " + lock.permits()
                    + " permits in this service, asked for: " + permits);
        }
        return lock;
    }

    @Override
    public org.lockspi.MultiLock multiLock(java.util.Collection<org.lockspi.LockPart> parts) {
        return MultiLockImpl.of(this, parts);
    }

    private <T> T handle(String name, LockFeature feature, String what, Class<T> type,
                         java.util.function.Supplier<T> factory) {
        LockKeys.key(name); // refuses a name no key can be made of: null, empty, malformed, too long
        checkOpen();
        requireFeature(feature, what);
        Object handle = handles.computeIfAbsent(name, n -> factory.get());
        if (!type.isInstance(handle)) {
            throw inUse(name, handle, what);
        }
        return type.cast(handle);
    }

    private static IllegalArgumentException inUse(String name, Object handle, String what) {
        return new IllegalArgumentException("lock name '" + name + "' is in use in this service as a "
                + handle + "; asked for it as " + what);
    }

    // ---- inspection -------------------------------------------------------------------------------------------

    @Override
    public org.lockspi.LockInfo inspect(String name) {
        LockKeys.key(name); // refuses a name no key can be made of, before anything else
        checkOpen();
        requireFeature(LockFeature.INSPECTION, "inspection");
        return Inspection.inspect(backend, name, features.contains(LockFeature.FENCING_TOKENS), description,
                queuedLocally(name));
    }

    /** @return this service's acquisitions of a lock waiting in its local queue, which the server does not see */
    private int queuedLocally(String name) {
        Object handle = handles.get(name);
        return handle instanceof LocallyQueued ? ((LocallyQueued) handle).queuedLocally() : 0;
    }

    @Override
    public List<String> list(String prefix) {
        Inspection.checkPrefix(prefix);
        checkOpen();
        requireFeature(LockFeature.INSPECTION, "inspection");
        return Inspection.list(backend, prefix, description);
    }

    @Override
    public boolean revoke(String name, long fencingToken, java.time.Duration timeout, String requestedBy) {
        LockKeys.key(name);
        checkOpen();
        requireFeature(LockFeature.REVOCATION, "revocation");
        return Revocation.revoke(backend, name, fencingToken, timeout, requestedBy, description);
    }

    @Override
    public String providerName() {
        return provider.name();
    }

    @Override
    public Set<LockFeature> features() {
        return features;
    }

    // ---- holds and state ------------------------------------------------------------------------------------

    /**
     * Registers a new server acquisition, in the state the connection is in now.
     *
     * @param request what was asked of the backend: its kind and lease time
     * @param onEnd   run once when the hold ends (released, lost, closed), or null
     */
    Hold register(AcquireRequest request, String name, BackendLease backendLease, Thread owner, ThreadOwnedLock lock,
                  Runnable onEnd) {
        LeaseState initial;
        guard.lock();
        try {
            if (!closed) {
                initial = Hold.due(backendLease, System.nanoTime(), suspended);
                Hold hold = new Hold(this, request.kind(), name, backendLease, owner, lock, initial, onEnd,
                        request.leaseTime().orElse(null));
                if (initial == LeaseState.LOST) {
                    hold.ended();
                } else {
                    holds.put(backendLease, hold);
                    long due = hold.nextDeadline();
                    // wake the timer only for a deadline before the one it sleeps towards: most holds' deadlines
                    // come after those of the holds before them, and a wake-up per acquisition is a context switch
                    if (due != Long.MAX_VALUE && !startTimer()
                            && (timerDue == Long.MAX_VALUE || due - timerDue < 0)) {
                        timerDue = due;
                        timerWake.signalAll();
                    }
                }
                return hold;
            }
        } finally {
            guard.unlock();
        }
        // Closed while the backend was granting: give it back and fail like any acquisition on a closed service.
        IllegalStateException closedNow = new IllegalStateException("lock service is closed: " + description);
        try {
            backendLease.release();
        } catch (RuntimeException e) {
            closedNow.addSuppressed(e);
        }
        throw closedNow;
    }

    /** Releases one lease; the last lease of a hold releases it on the server. */
    void release(Hold hold, Lease lease) {
        if (!hold.removeLease((LeaseImpl) lease)) {
            return;
        }
        guard.lock();
        try {
            holds.remove(hold.backendLease);
            if (closed) {
                hold.ended();
                return; // the backend's close freed it
            }
        } finally {
            guard.unlock();
        }
        if (hold.lock != null) {
            hold.lock.detach(hold);
        }
        boolean lost = hold.state() == LeaseState.LOST; // a LOST hold stays LOST when its last lease goes
        try {
            hold.backendLease.release();
        } catch (LockConnectionException e) {
            if (!lost) {
                throw e;
            }
            // a LOST lease's release never throws: the backend deletes its state when the connection returns
            LOG.log(System.Logger.Level.DEBUG, "release of lost " + hold + " left to the reconnection", e);
        } finally {
            hold.ended(); // the next local waiter goes to the server
        }
    }

    /**
     * Brings a hold's state in line with its backend lease and the clock: HELD, UNCERTAIN (suspended, or the
     * confirmation is overdue) or LOST (lost, or past the validity deadline; final). Caller holds the guard.
     */
    void refresh(Hold hold, long now) {
        LeaseState current = hold.storedState();
        if (current.isTerminal()) {
            return;
        }
        LeaseState due = hold.due(now, suspended);
        if (due == LeaseState.LOST) {
            lost(hold, hold.backendLease.isLost() ? "the backend found it gone from the server"
                    : hold.leaseTime != null ? "its validity deadline passed: its lease time of " + hold.leaseTime
                    + " ended, or the server did not confirm it in time"
                    : "its validity deadline passed without a confirmation from the server");
        } else if (due != current) {
            if (hold.transition(due) && due == LeaseState.UNCERTAIN && suspended) {
                outageUncertain++;
            }
        }
    }

    /** Ends a hold as LOST, once, and says so in the log. Caller holds the guard. */
    private void lost(Hold hold, String why) {
        holds.remove(hold.backendLease);
        if (hold.transition(LeaseState.LOST)) {
            if (suspended) {
                outageLost++;
            }
            long token = features.contains(LockFeature.FENCING_TOKENS) ? hold.backendLease.fencingToken() : -1;
            LOG.log(System.Logger.Level.WARNING, () -> "lease lost: " + hold.kind + " '" + hold.name + "'"
                    + (token >= 0 ? " token " + token : "") + " on " + description + ": " + why);
            if (hold.lock != null) {
                hold.lock.detach(hold);
            }
        }
        hold.ended(); // another client may hold it now: a local waiter may ask
    }

    /** Refreshes every live hold and wakes the timer. Caller holds the guard. */
    private void refreshAll() {
        long now = System.nanoTime();
        for (Hold hold : new ArrayList<>(holds.values())) {
            refresh(hold, now);
            if (hold.nextDeadline() != Long.MAX_VALUE) {
                startTimer();
            }
        }
        timerWake.signalAll();
    }

    /**
     * Starts the deadline timer once. Caller holds the guard.
     *
     * @return true if it started now (it then looks at every hold before it first waits)
     */
    private boolean startTimer() {
        if (timer != null || closed) {
            return false;
        }
        timer = new Thread(this::runTimer, "lockspi-deadlines-" + provider.name() + "-" + id);
        timer.setDaemon(true);
        timer.start();
        return true;
    }

    /**
     * The timer: wakes at the next deadline of any live hold (or when a hold or an event changes them), so that
     * listeners hear of an overdue confirmation or a passed validity deadline without anyone asking.
     */
    private void runTimer() {
        guard.lock();
        try {
            try {
                while (!closed) {
                    long now = System.nanoTime();
                    long next = Long.MAX_VALUE;
                    for (Hold hold : new ArrayList<>(holds.values())) {
                        refresh(hold, now);
                        long due = hold.nextDeadline();
                        if (due != Long.MAX_VALUE && (next == Long.MAX_VALUE || due - next < 0)) {
                            next = due;
                        }
                    }
                    long cut = failFast.cutOverdue(now);
                    if (cut != Long.MAX_VALUE && (next == Long.MAX_VALUE || cut - next < 0)) {
                        next = cut;
                    }
                    timerDue = next;
                    if (next == Long.MAX_VALUE) {
                        timerWake.await();
                    } else {
                        // +1 ms: wake just after the instant, not just before it
                        timerWake.awaitNanos(Math.max(0, next - now) + 1_000_000);
                    }
                }
            } catch (InterruptedException e) {
                // close() interrupts only if the timer does not end on its own
            }
        } finally {
            guard.unlock();
        }
    }

    /** Queues one listener call on the event thread. Caller holds the guard. */
    void dispatch(LeaseListener listener, Lease lease, LeaseState previous, LeaseState current) {
        if (closed) {
            return;
        }
        if (events == null) {
            events = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "lockspi-events-" + provider.name() + "-" + id);
                t.setDaemon(true);
                eventThread = t;
                return t;
            });
        }
        events.execute(() -> {
            try {
                listener.stateChanged(lease, previous, current);
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.WARNING, "lease listener " + listener + " failed on " + lease, e);
            }
        });
    }

    private final class Events implements BackendEvents {
        @Override
        public void connectionSuspended() {
            guard.lock();
            try {
                if (suspended || closed) {
                    return;
                }
                long now = System.nanoTime();
                suspended = true;
                outageStart = now;
                outageUncertain = 0;
                outageLost = 0;
                failFast.suspended(now);
                startTimer(); // it cuts the acquisitions under way failFast from now
                refreshAll();
                LOG.log(System.Logger.Level.WARNING, "connection to " + description + " lost: " + outageUncertain
                        + " leases UNCERTAIN; acquisitions fail after failFast=" + failFast.bound()
                        + " until it is back");
            } finally {
                guard.unlock();
            }
        }

        @Override
        public void connectionRestored() {
            guard.lock();
            try {
                if (!suspended || closed) {
                    return;
                }
                suspended = false;
                failFast.restored();
                refreshAll();
                LOG.log(System.Logger.Level.INFO, "connection to " + description + " back after "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outageStart) + " ms: " + outageUncertain
                        + " leases were UNCERTAIN, " + outageLost + " LOST");
            } finally {
                guard.unlock();
            }
        }

        @Override
        public void leasesConfirmed() {
            guard.lock();
            try {
                refreshAll();
            } finally {
                guard.unlock();
            }
        }

        @Override
        public void leaseLost(BackendLease lease) {
            leaseLost(lease, "the backend found it gone from the server");
        }

        @Override
        public void leaseLost(BackendLease lease, String why) {
            guard.lock();
            try {
                Hold hold = holds.get(lease);
                if (hold != null) {
                    lost(hold, why);
                }
            } finally {
                guard.unlock();
            }
        }
    }

    // ---- lifecycle --------------------------------------------------------------------------------------------

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public ConnectionState connectionState() {
        if (closed) {
            return ConnectionState.CLOSED;
        }
        guard.lock();
        try {
            return closed ? ConnectionState.CLOSED : suspended ? ConnectionState.SUSPENDED : ConnectionState.CONNECTED;
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void close() {
        List<Hold> ended;
        ExecutorService dispatcher;
        Thread deadlines;
        guard.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            failFast.close();
            deadlines = timer;
            timerWake.signalAll(); // the timer ends
            ended = new ArrayList<>(holds.values());
            holds.clear();
            for (Hold hold : ended) {
                hold.transition(LeaseState.RELEASED);
            }
            dispatcher = events;
        } finally {
            guard.unlock();
        }
        async.close(description); // pending futures fail now; their waits end with the backend's close
        for (Object handle : handles.values()) { // waiters in the local queues fail too
            if (handle instanceof LocallyQueued) {
                ((LocallyQueued) handle).closeLocalQueues();
            }
        }
        for (Hold hold : ended) {
            if (hold.lock != null) {
                hold.lock.detach(hold);
            }
        }
        RuntimeException failure = null;
        try {
            LockBackend b = backend;
            if (b != null) {
                b.close();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        async.join(TimeUnit.SECONDS.toMillis(5));
        if (deadlines != null && Thread.currentThread() != deadlines) {
            try {
                deadlines.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (dispatcher != null) {
            dispatcher.shutdown();
            if (Thread.currentThread() != eventThread) {
                try {
                    if (!dispatcher.awaitTermination(5, TimeUnit.SECONDS)) {
                        LOG.log(System.Logger.Level.WARNING, "a lease listener of " + description
                                + " is still running 5 s after close");
                    } else if (eventThread != null) {
                        // The executor is terminated before its thread has quite ended: wait for it, so close()
                        // leaves no thread of the service behind.
                        eventThread.join(TimeUnit.SECONDS.toMillis(5));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "LockService[" + provider.name() + ", " + description + (closed ? ", closed" : "") + "]";
    }
}
