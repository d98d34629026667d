package org.lockspi.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockedTask;
import org.lockspi.StopWork;

/**
 * Locked work that is stopped when its lease stops being held ({@link StopWork}): a listener on the lease
 * interrupts the task's thread once, and the interrupt is taken back when the task ends, so that it never
 * reaches code after the task.
 */
public final class StoppableWork {
    private StoppableWork() {
    }

    /**
     * Interrupts one thread at most once, and only while its task runs. {@link #interrupt} (any thread) and
     * {@link #finish} (the task's thread, after the task) race through one atomic phase: either the task ends
     * first and no interrupt is sent, or the interrupt is delivered before {@code finish} returns and is cleared.
     */
    private static final class Interrupter {
        private static final int RUNNING = 0;
        private static final int STOPPING = 1;
        private static final int STOPPED = 2;
        private static final int DONE = 3;

        private final Thread thread;
        private final AtomicInteger phase = new AtomicInteger(RUNNING);
        private volatile LeaseState cause;

        Interrupter(Thread thread) {
            this.thread = thread;
        }

        /** Interrupts the thread if its task is still running; {@code cause} is the lease's state, or null. */
        void interrupt(LeaseState state) {
            if (phase.compareAndSet(RUNNING, STOPPING)) {
                cause = state;
                thread.interrupt();
                phase.set(STOPPED);
            }
        }

        /**
         * Called by the thread once its task ended.
         *
         * @return whether it was interrupted (the flag is then cleared)
         */
        boolean finish() {
            if (phase.compareAndSet(RUNNING, DONE)) {
                return false;
            }
            while (phase.get() == STOPPING) {
                Thread.onSpinWait(); // the interrupt is on its way: a few instructions
            }
            Thread.interrupted();
            return true;
        }

        /** @return the lease state that stopped the task, or null (not stopped, or stopped by a cancel) */
        LeaseState cause() {
            return cause;
        }
    }

    /** The listener that stops the work at the first state the policy stops at. */
    private static LeaseListener watch(StopWork stop, Interrupter interrupter) {
        return (lease, previous, current) -> {
            if (stop.stops(current)) {
                interrupter.interrupt(current);
            }
        };
    }

    /** {@link StopWork#call}: runs the task on this thread, interrupted once the lease stops it. */
    public static <T, X extends Exception> T call(StopWork stop, Lease lease, LockedTask<T, X> task) throws X {
        Objects.requireNonNull(stop, "stop is null");
        Objects.requireNonNull(lease, "lease is null");
        Objects.requireNonNull(task, "task is null");
        if (stop == StopWork.NEVER) {
            return task.run(lease);
        }
        Interrupter interrupter = new Interrupter(Thread.currentThread());
        LeaseListener watch = watch(stop, interrupter);
        lease.addListener(watch); // UnsupportedOperationException without LOST_NOTIFICATION: the task not run
        try {
            LeaseState before = lease.state();
            if (stop.stops(before)) { // lost before the start (the listener may not have run yet)
                interrupter.finish();
                throw new LeaseLostException(lease.lockName(), before);
            }
            T value;
            try {
                value = task.run(lease);
            } catch (Exception | Error e) {
                if (interrupter.finish()) {
                    throw stopped(lease, interrupter, e);
                }
                throw e;
            }
            if (interrupter.finish()) {
                throw stopped(lease, interrupter, null);
            }
            return value;
        } finally {
            lease.removeListener(watch);
        }
    }

    private static LeaseLostException stopped(Lease lease, Interrupter interrupter, Throwable taskFailure) {
        LeaseState cause = interrupter.cause();
        LeaseLostException e = new LeaseLostException(lease.lockName(), cause == null ? LeaseState.LOST : cause);
        if (taskFailure != null) {
            e.addSuppressed(taskFailure);
        }
        return e;
    }

    /**
     * {@link AsyncAcquirable#executeLockedAsync}: acquires asynchronously, runs the task on the executor under
     * the policy, releases when the task ends, and completes the future then. Cancelling the future before the
     * grant ends the wait; while the task runs it interrupts the task's thread (the lease is released when the
     * task ends).
     */
    public static <T> CompletableFuture<T> async(AsyncAcquirable lock, Duration timeout, StopWork stop,
                                                 LockedTask<T, ?> task, Executor executor) {
        Objects.requireNonNull(stop, "stop is null");
        Objects.requireNonNull(task, "task is null");
        Objects.requireNonNull(executor, "executor is null");
        CompletableFuture<Lease> acquired = lock.acquireAsync(timeout); // argument checks and a closed service: now
        CompletableFuture<T> result = new CompletableFuture<>();
        result.whenComplete((value, failure) -> {
            if (!acquired.isDone()) {
                acquired.cancel(true); // ended before the grant: the wait ends, nothing is left on the server
            }
        });
        acquired.whenComplete((lease, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure);
                return;
            }
            if (result.isDone()) {
                lease.release(); // ended in the race with the grant: the lease is nobody's
                return;
            }
            try {
                executor.execute(() -> runAsync(lease, stop, task, result));
            } catch (RuntimeException e) { // RejectedExecutionException: the application is stopping
                releaseInto(lease, e);
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static <T> void runAsync(Lease lease, StopWork stop, LockedTask<T, ?> task, CompletableFuture<T> result) {
        Interrupter interrupter = new Interrupter(Thread.currentThread());
        LeaseListener watch = watch(stop, interrupter);
        Throwable failure = null;
        T value = null;
        boolean listening = false;
        try {
            result.whenComplete((v, f) -> interrupter.interrupt(null)); // a cancel while the task runs
            if (!result.isDone()) {
                lease.checkValid();
                if (stop != StopWork.NEVER) {
                    lease.addListener(watch);
                    listening = true;
                    LeaseState before = lease.state();
                    if (stop.stops(before)) {
                        throw new LeaseLostException(lease.lockName(), before);
                    }
                }
                value = task.run(lease);
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            boolean interrupted = interrupter.finish();
            if (listening) {
                lease.removeListener(watch);
            }
            if (interrupted && interrupter.cause() != null) {
                failure = stopped(lease, interrupter, failure);
            }
            failure = releaseInto(lease, failure);
        }
        if (failure != null) {
            result.completeExceptionally(failure);
        } else {
            result.complete(value);
        }
    }

    /** Releases the lease; a failure is added to {@code failure}, or becomes it. */
    private static Throwable releaseInto(Lease lease, Throwable failure) {
        try {
            lease.release();
        } catch (RuntimeException e) {
            if (failure == null) {
                return e;
            }
            failure.addSuppressed(e);
        }
        return failure;
    }
}
