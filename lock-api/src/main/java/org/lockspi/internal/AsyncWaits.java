package org.lockspi.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.Lease;
import org.lockspi.spi.Deadline;

/**
 * The asynchronous acquisitions of one service: one thread per pending acquisition (virtual when the runtime
 * has them), cancellation by interrupt, and close() that fails the pending futures and joins their threads.
 */
final class AsyncWaits {
    private static final System.Logger LOG = System.getLogger(AsyncWaits.class.getName());

    private final String prefix;
    private final ThreadFactory threads;
    private final Set<Acquisition<?>> pending = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lifecycle = new ReentrantLock();
    private boolean closed; // guarded by lifecycle

    AsyncWaits(String prefix) {
        this.prefix = prefix;
        ThreadFactory virtual = virtualThreads(prefix);
        if (virtual != null) {
            threads = virtual;
        } else {
            AtomicLong n = new AtomicLong();
            threads = r -> {
                Thread t = new Thread(r, prefix + n.getAndIncrement());
                t.setDaemon(true);
                return t;
            };
        }
    }

    /**
     * {@code Thread.ofVirtual().name(prefix, 0).factory()}, looked up at run time (the library is compiled for
     * Java 17).
     *
     * @return the factory, or null before Java 21
     */
    static ThreadFactory virtualThreads(String prefix) {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> type = Class.forName("java.lang.Thread$Builder");
            builder = type.getMethod("name", String.class, long.class).invoke(builder, prefix, 0L);
            return (ThreadFactory) type.getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null; // Java 17 to 20 (19 and 20 have them only as a preview)
        }
    }

    /** The blocking acquisition an asynchronous one runs in its own thread. */
    interface Attempt {
        /** @return the lease, or null if the deadline passed first */
        LeaseImpl acquire(Deadline deadline) throws InterruptedException;

        /** Runs instead of {@link #acquire} when the acquisition ends before its thread ran it. */
        default void abandoned() {
        }
    }

    /** What the future completes with for a lease or for none (the deadline passed). */
    interface Outcome<T> {
        T granted(Lease lease);

        /** @return the value for a timeout; throws to complete exceptionally */
        T timedOut();
    }

    /**
     * Starts an acquisition in a new thread.
     *
     * @throws IllegalStateException if closed
     */
    <T> CompletableFuture<T> start(String what, Deadline deadline, Attempt attempt, Outcome<T> outcome) {
        Acquisition<T> future = new Acquisition<>(what);
        Thread thread = threads.newThread(() -> future.run(deadline, attempt, outcome));
        lifecycle.lock();
        try {
            if (closed) {
                attempt.abandoned();
                throw new IllegalStateException("lock service is closed: " + what);
            }
            pending.add(future);
            future.thread = thread;
            thread.start();
        } finally {
            lifecycle.unlock();
        }
        return future;
    }

    /** Fails every pending future with IllegalStateException and ends their waits. Idempotent. */
    void close(String description) {
        List<Acquisition<?>> failed;
        lifecycle.lock();
        try {
            closed = true;
            failed = new ArrayList<>(pending);
        } finally {
            lifecycle.unlock();
        }
        for (Acquisition<?> future : failed) {
            future.fail(new IllegalStateException("lock service closed while waiting for " + future.what
                    + ": " + description));
        }
    }

    /** Waits until every acquisition thread has ended, at most {@code millis}. */
    void join(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Acquisition<?> future : new ArrayList<>(pending)) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            Thread t = future.thread;
            if (t == null || t == Thread.currentThread()) {
                continue;
            }
            try {
                if (left > 0) {
                    t.join(left);
                }
                if (t.isAlive()) {
                    LOG.log(System.Logger.Level.WARNING, "an acquisition of " + future.what
                            + " is still waiting " + millis + " ms after close");
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** @return the number of acquisitions whose threads have not ended */
    int pendingCount() {
        return pending.size();
    }

    @Override
    public String toString() {
        return "async acquisitions " + prefix + "* (" + pending.size() + " pending)";
    }

    /**
     * A future whose completion by anyone but its own thread (cancel, complete, orTimeout, close) ends the wait
     * by interrupting that thread; a lease granted after it was completed is released.
     */
    private final class Acquisition<T> extends CompletableFuture<T> {
        final String what;
        volatile Thread thread;
        /** Guards the interrupt: none lands once the wait has returned. */
        private final ReentrantLock interrupts = new ReentrantLock();
        private boolean waiting = true; // guarded by interrupts

        Acquisition(String what) {
            this.what = what;
        }

        void run(Deadline deadline, Attempt attempt, Outcome<T> outcome) {
            try {
                if (isDone()) {
                    attempt.abandoned(); // cancelled before it began
                    return;
                }
                LeaseImpl lease = null;
                RuntimeException failure = null;
                try {
                    lease = attempt.acquire(deadline);
                } catch (InterruptedException e) {
                    failure = new java.util.concurrent.CancellationException("wait for " + what + " ended");
                } catch (RuntimeException e) {
                    failure = e;
                } finally {
                    interrupts.lock();
                    try {
                        waiting = false;
                        Thread.interrupted(); // an interrupt that came after the grant must not reach release()
                    } finally {
                        interrupts.unlock();
                    }
                }
                if (failure != null) {
                    super.completeExceptionally(failure);
                } else if (lease == null) {
                    try {
                        super.complete(outcome.timedOut());
                    } catch (RuntimeException e) {
                        super.completeExceptionally(e);
                    }
                } else if (!super.complete(outcome.granted(lease))) {
                    try {
                        lease.release(); // cancelled, completed or failed by close() meanwhile
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "release of " + lease + " after its future was done"
                                + " failed; the provider frees it when the connection returns", e);
                    }
                }
            } finally {
                pending.remove(this);
            }
        }

        /** Completes exceptionally, if not done, and ends the wait. */
        void fail(RuntimeException e) {
            completeExceptionally(e);
        }

        private void endWait() {
            interrupts.lock();
            try {
                Thread t = thread;
                if (waiting && t != null && t != Thread.currentThread()) {
                    t.interrupt();
                }
            } finally {
                interrupts.unlock();
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            endWait();
            return cancelled;
        }

        @Override
        public boolean complete(T value) {
            boolean done = super.complete(value);
            endWait();
            return done;
        }

        @Override
        public boolean completeExceptionally(Throwable ex) {
            boolean done = super.completeExceptionally(ex);
            endWait();
            return done;
        }

        @Override
        public String toString() {
            return "acquisition of " + what + " " + super.toString();
        }
    }
}
