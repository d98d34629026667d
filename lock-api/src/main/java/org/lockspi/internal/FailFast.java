package org.lockspi.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.Deadline;

/**
 * The fail-fast rule of a service (spec §16.3): a server acquisition started while the connection is suspended
 * waits at most {@code failFast} for it to come back and then fails with {@link LockConnectionException}; one
 * under way when the connection is suspended is cut {@code failFast} after the suspension, by interrupting its
 * thread (every backend cleans up and returns on an interrupt), and fails the same way. The one place where every
 * provider's acquisitions learn of an outage, so that none waits for its client's connect or session timeout.
 *
 * <p>The suspension flag is written by the service under its guard and read here without it: a call registers
 * itself before it reads the flag, and the cut walks the registered calls after the flag was set, so no call
 * slips between the two.
 */
final class FailFast {
    /** The default bound: a connection blip shorter than this is waited out; an outage fails this fast. */
    static final Duration DEFAULT = Duration.ofMillis(250);
    /** The greatest bound accepted. */
    static final Duration MAX = Duration.ofHours(1);

    /** Runs one server call. */
    interface ServerCall<T> {
        T run() throws InterruptedException;
    }

    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int CUTTING = 2;
    private static final int CUT = 3;

    /** One server call under way: its thread and whether it was cut. */
    private static final class Call {
        final Thread thread = Thread.currentThread();
        final AtomicInteger state = new AtomicInteger(RUNNING);
    }

    private final Duration bound;
    private final long boundNanos;
    private final String description;
    private final ReentrantLock guard;
    private final Condition restored;
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean suspended;
    private long suspendedAt; // guarded by guard
    private boolean closed; // guarded by guard

    FailFast(Duration bound, String description, ReentrantLock guard) {
        this.bound = bound;
        this.boundNanos = bound.toNanos();
        this.description = description;
        this.guard = guard;
        this.restored = guard.newCondition();
    }

    /** @return the bound */
    Duration bound() {
        return bound;
    }

    /** The connection is suspended as of {@code now}. Caller holds the guard. */
    void suspended(long now) {
        if (!suspended) {
            suspendedAt = now;
            suspended = true;
        }
    }

    /** The connection is back: waiting calls go on. Caller holds the guard. */
    void restored() {
        suspended = false;
        restored.signalAll();
    }

    /** The service is closing: waiting calls fail as on a closed service. Caller holds the guard. */
    void close() {
        closed = true;
        restored.signalAll();
    }

    /**
     * Cuts the calls under way if the connection has been suspended for the bound. Caller holds the guard.
     *
     * @return when to call again (nanoTime), or {@link Long#MAX_VALUE} if not before the next event
     */
    long cutOverdue(long now) {
        if (!suspended) {
            return Long.MAX_VALUE;
        }
        long due = suspendedAt + boundNanos;
        if (due - now > 0) {
            return due;
        }
        for (Call call : inFlight) {
            if (call.state.compareAndSet(RUNNING, CUTTING)) {
                call.thread.interrupt();
                call.state.set(CUT);
            }
        }
        return Long.MAX_VALUE; // calls that start from now on see the flag and never reach the server
    }

    /**
     * Runs a server call under the rule.
     *
     * @param what     the acquisition, for messages
     * @param deadline the acquisition's deadline
     * @return what the call returned
     * @throws LockConnectionException if the connection is and stays suspended for the bound (or the deadline)
     * @throws InterruptedException    if the thread was interrupted (not by the rule)
     */
    <T> T run(Object what, Deadline deadline, ServerCall<T> serverCall) throws InterruptedException {
        long start = System.nanoTime();
        Call call = new Call();
        while (true) {
            inFlight.add(call);
            if (!suspended) {
                break;
            }
            inFlight.remove(call);
            awaitRestored(what, deadline, start);
        }
        T result;
        try {
            result = serverCall.run();
        } catch (InterruptedException | RuntimeException e) {
            if (finish(call)) {
                throw cut(what, e);
            }
            throw e;
        } catch (Error e) {
            finish(call);
            throw e;
        } finally {
            inFlight.remove(call);
        }
        finish(call); // a call that succeeded as it was cut keeps its result
        return result;
    }

    /**
     * Ends a call's registration.
     *
     * @return whether it was cut (its interrupt is then cleared)
     */
    private static boolean finish(Call call) {
        if (call.state.compareAndSet(RUNNING, DONE)) {
            return false;
        }
        while (call.state.get() != CUT) {
            Thread.onSpinWait(); // the cutter is between its two writes
        }
        Thread.interrupted();
        return true;
    }

    private LockConnectionException cut(Object what, Exception e) {
        return new LockConnectionException("connection to " + description + " suspended for failFast=" + bound
                + ": gave up " + what, e);
    }

    /** Waits for the connection until the bound after {@code start} or the deadline; throws if it stays away. */
    private void awaitRestored(Object what, Deadline deadline, long start) throws InterruptedException {
        guard.lock();
        try {
            while (suspended) {
                if (closed) {
                    throw new IllegalStateException("lock service is closed: " + description);
                }
                long now = System.nanoTime();
                long left = Math.min(start + boundNanos - now, deadline.remainingNanos());
                if (left <= 0) {
                    throw new LockConnectionException("connection to " + description + " is suspended (for "
                            + TimeUnit.NANOSECONDS.toMillis(now - suspendedAt) + " ms, failFast=" + bound
                            + "): gave up " + what);
                }
                restored.awaitNanos(left);
            }
        } finally {
            guard.unlock();
        }
    }
}
