package org.lockspi;

import org.lockspi.internal.StoppableWork;

/**
 * Whether locked work is stopped when its lease stops being held: the policy of
 * {@link Acquirable#executeLocked(java.time.Duration, StopWork, LockedTask)},
 * {@link AsyncAcquirable#executeLockedAsync executeLockedAsync} and the Spring starter's {@code @Locked}.
 *
 * <p><b>How work is stopped.</b> When the lease turns {@link LeaseState#LOST} (with {@link #WHEN_NOT_HELD}, also
 * {@link LeaseState#UNCERTAIN}), the thread running the task is {@linkplain Thread#interrupt() interrupted}, once,
 * by the service's event thread, at the moment the lease's listeners are told: for a loss the server announces,
 * as soon as the provider learns of it (a ZooKeeper session expiry, a Redis renewal that finds the key gone or
 * another owner's: §12.1 bounds it by the crash-release time); for a validity deadline that passes, within a few
 * milliseconds of it (the service's timer). Interrupting is all a library can do to a thread: the task must
 * <ul>
 *   <li>wait interruptibly ({@code Thread.sleep}, {@code BlockingQueue.take}, {@code Future.get}, lock
 *       acquisitions, interruptible I/O such as NIO channels) or look at {@link Thread#isInterrupted()} between
 *       steps, and give up when interrupted: throw {@link InterruptedException}, or return;</li>
 *   <li>not swallow the interrupt (restore the flag if it catches {@code InterruptedException} without
 *       stopping);</li>
 *   <li>still call {@link Lease#checkValid()} before each guarded write and pass the
 *       {@linkplain Lease#fencingToken() fencing token} with it: between the loss and the interrupt, and in a
 *       blocking call that ignores interrupts (a JDBC statement, classic socket I/O), the task goes on, and only
 *       the resource's check of the token refuses its late writes.</li>
 * </ul>
 *
 * <p><b>What the caller sees.</b> Work that was stopped ends with {@link LeaseLostException} (its
 * {@link LeaseLostException#state() state} the one that stopped it), whatever the task then returned or threw (its
 * exception added as {@linkplain Throwable#addSuppressed suppressed}); the interrupt it was sent is cleared from
 * the thread before that exception is thrown, so a caller that did not ask for an interrupt is not left with one.
 * Work the lease outlived ends as it would without a policy. Stopping needs
 * {@link LockFeature#LOST_NOTIFICATION}: without it {@code WHEN_LOST} and {@code WHEN_NOT_HELD} throw
 * {@link UnsupportedOperationException} before the task runs.
 */
public enum StopWork {
    /** The task is not stopped: it runs to its end whatever happens to the lease (as {@code executeLocked} does). */
    NEVER,
    /** The task's thread is interrupted when the lease turns {@link LeaseState#LOST}. */
    WHEN_LOST,
    /**
     * The task's thread is interrupted when the lease stops being {@link LeaseState#HELD}: at
     * {@link LeaseState#UNCERTAIN} (the connection suspended or a confirmation overdue, when another client may
     * soon hold the lock) or {@code LOST}, whichever comes first; the work does not resume if the lease turns
     * {@code HELD} again.
     */
    WHEN_NOT_HELD;

    /**
     * Whether a lease in {@code state} stops work under this policy.
     *
     * @param state a lease's state
     * @return true for {@code LOST} under {@link #WHEN_LOST}, for {@code UNCERTAIN} and {@code LOST} under
     *         {@link #WHEN_NOT_HELD}; never under {@link #NEVER}
     * @throws NullPointerException if {@code state} is null
     */
    public boolean stops(LeaseState state) {
        java.util.Objects.requireNonNull(state, "state is null");
        return this == WHEN_LOST ? state == LeaseState.LOST
                : this == WHEN_NOT_HELD && (state == LeaseState.LOST || state == LeaseState.UNCERTAIN);
    }

    /**
     * Runs {@code task} on the calling thread with a lease the caller already holds, stopping it as this policy
     * says (see the class comment). The lease is not released: its owner releases it. A lease that is already in a
     * state that stops work does not run the task.
     *
     * @param lease the lease the work is done under
     * @param task  the work, given the lease
     * @param <T>   the type of the task's value
     * @param <X>   the checked exception the task may throw
     * @return what the task returned
     * @throws X                             what the task threw, when it was not stopped
     * @throws LeaseLostException            if the work was stopped, or the lease already stopped it
     * @throws UnsupportedOperationException if the policy is not {@link #NEVER} and the lease takes no listeners
     *                                       (its provider lacks {@link LockFeature#LOST_NOTIFICATION}); the task
     *                                       did not run
     * @throws NullPointerException          if an argument is null
     */
    public <T, X extends Exception> T call(Lease lease, LockedTask<T, X> task) throws X {
        return StoppableWork.call(this, lease, task);
    }
}
