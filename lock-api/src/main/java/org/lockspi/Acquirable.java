package org.lockspi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * Something a {@link LockService} hands out that can be acquired for a {@link Lease}: a lock, one half of a
 * read-write lock, or a semaphore.
 *
 * <p>Instances are thread-safe and cached: the same service returns the same instance for the same name.
 *
 * <p><b>Timeouts.</b> A timeout must be between zero and {@link #MAX_TIMEOUT}. A timed acquisition returns
 * within its timeout plus a small bound (a server round trip). When it fails, by timeout, interrupt or error,
 * it leaves nothing behind on the server.
 *
 * <p><b>Interrupts.</b> Every blocking method throws {@link InterruptedException} when the calling thread is
 * interrupted before or while it waits, and clears the interrupt flag as it does.
 */
public interface Acquirable {

    /** The longest timeout accepted: 365 days. Longer ones are taken for a bug and refused. */
    Duration MAX_TIMEOUT = Duration.ofDays(365);

    /** The longest lease time {@link #withLeaseTime(Duration)} accepts: 365 days. */
    Duration MAX_LEASE_TIME = Duration.ofDays(365);

    /** @return the name this was obtained by */
    String name();

    /**
     * A view of this lock whose every acquisition holds for at most {@code leaseTime}, even while its holder
     * lives: Redisson's {@code lock(leaseTime)}, Spring Integration's {@code lock(ttl)}, ShedLock's
     * {@code lockAtMostFor}. Needs {@link LockFeature#LEASE_TIME}.
     *
     * <ul>
     *   <li><b>The bound.</b> A lease acquired through the view ends at the instant its granting request was sent
     *       plus {@code leaseTime}: no renewal keeps it past that. The lease turns {@link LeaseState#LOST} at that
     *       instant at the latest (its listeners are told; {@link Lease#validFor()} never reaches beyond it), and the
     *       server frees the lock by then on its own, by its own clock, so that another client may take it, with a
     *       greater fencing token. A release before the end is an ordinary release. The work under such a lease must
     *       still check it and pass its fencing token: the bound ends the lease, it does not stop the work (see
     *       {@link StopWork}).</li>
     *   <li><b>The same lock.</b> The view is not another lock: it shares this lock's name, server state, local
     *       queue and per-thread holds, and excludes and is excluded by this lock's other acquisitions as they
     *       exclude each other. Every form of acquisition of the view carries the lease time: {@code acquire},
     *       {@code tryAcquire}, the timed forms, the asynchronous ones of an {@link AsyncAcquirable} and
     *       {@code executeLocked}; so does its {@link #asJavaLock()}. {@code withLeaseTime} on a view gives a view
     *       with the new lease time in place of the old; a multi-lock's view gives every part the lease time.</li>
     *   <li><b>Reentrancy.</b> A thread that holds a reentrant lock (a {@link DistributedLock}), through this view,
     *       another view or the lock itself, and acquires it again through a view gets a nested lease of the
     *       acquisition it holds: the outer acquisition's lease time (or its lack of one) governs, and the nested
     *       lease ends with it.</li>
     *   <li><b>Threads.</b> The view is thread-safe, as the lock is; it is cheap, holds nothing on the server, and
     *       each call returns a new one. It is not cached by the service: keep it where the lock is kept.</li>
     * </ul>
     *
     * @param leaseTime how long each acquisition may hold at most, positive and at most {@link #MAX_LEASE_TIME};
     *                  a provider keeps it to the millisecond its server counts in, rounding up
     * @return the view, of the type of this lock
     * @throws NullPointerException          if {@code leaseTime} is null
     * @throws IllegalArgumentException      if {@code leaseTime} is zero, negative or longer than
     *                                       {@link #MAX_LEASE_TIME}
     * @throws UnsupportedOperationException if the service's provider lacks {@link LockFeature#LEASE_TIME}, naming
     *                                       the provider and the feature
     * @throws IllegalStateException         if the service is closed
     */
    Acquirable withLeaseTime(Duration leaseTime);

    /**
     * Acquires, waiting as long as it takes.
     *
     * @return the lease, held
     * @throws InterruptedException  if the thread was interrupted
     * @throws LockConnectionException if the server cannot be reached or the connection fails while waiting
     * @throws IllegalStateException if the service is closed, before or during the wait
     * @throws IllegalMonitorStateException for a write lock, if the calling thread holds the read lock of the
     *                                      same read-write lock and not its write lock (no upgrade)
     */
    Lease acquire() throws InterruptedException;

    /**
     * Acquires, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait, from zero to {@link #MAX_TIMEOUT}
     * @return the lease, held
     * @throws LockTimeoutException     if the timeout elapsed first
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     if the thread was interrupted
     * @throws LockConnectionException  as {@link #acquire()}
     * @throws IllegalStateException    as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    Lease acquire(Duration timeout) throws InterruptedException;

    /**
     * Acquires only if that can be done without waiting for another holder (one server round trip).
     *
     * @return the lease, or empty if another holder has it
     * @throws LockException           if the backend was interrupted during its one attempt (the interrupt flag
     *                                 is set again); {@code tryAcquire} itself ignores the flag, as
     *                                 {@code Lock.tryLock()} does
     * @throws LockConnectionException as {@link #acquire()}
     * @throws IllegalStateException   as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    Optional<Lease> tryAcquire();

    /**
     * Acquires, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait, from zero to {@link #MAX_TIMEOUT}
     * @return the lease, or empty if the timeout elapsed first
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     if the thread was interrupted
     * @throws LockConnectionException  as {@link #acquire()}
     * @throws IllegalStateException    as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    Optional<Lease> tryAcquire(Duration timeout) throws InterruptedException;

    /**
     * A {@link Lock} view for code written against {@code java.util.concurrent.locks}. Each {@code lock()}
     * acquires a lease for the calling thread; {@code unlock()} releases the calling thread's most recent one and
     * throws {@link IllegalMonitorStateException} if it has none. {@code lock()} waits without interruption (the
     * interrupt flag is restored afterwards); {@code newCondition()} throws {@link UnsupportedOperationException}.
     * Failures of the backend surface as {@link LockException}, which is unchecked.
     *
     * @return the view; the same instance on every call
     */
    Lock asJavaLock();

    // ---- locked work ---------------------------------------------------------------------------------------------

    /**
     * Acquires, runs {@code task} while the lock is held, and releases on every path: the
     * {@code try (Lease lease = acquire(timeout)) { lease.checkValid(); return task.run(lease); }} of locked work.
     *
     * <pre>{@code
     * Invoice invoice = locks.mutex("orders/42").executeLocked(Duration.ofSeconds(5),
     *         lease -> store.bill(order, lease.fencingToken()));   // the store refuses stale tokens
     * }</pre>
     *
     * <ul>
     *   <li><b>Start.</b> The task runs on the calling thread, and only on a lease that is {@link LeaseState#HELD}
     *       once acquired: a lease that is already {@code UNCERTAIN} or {@code LOST} (the connection was suspended
     *       or the session ended while the lock was granted) is released and {@link LeaseLostException} thrown,
     *       the task not run. A timeout, an interrupt, a closed service or a failed connection throw as
     *       {@link #acquire(Duration)} does, the task not run.</li>
     *   <li><b>End.</b> The lease is released when the task returns or throws. A task's exception is thrown on as
     *       it is (same instance, so a checked {@code X} keeps its type), with a failure of the release added to
     *       it as {@linkplain Throwable#addSuppressed suppressed}. A task that returns whose release fails (the
     *       server could not be told: the lease is released locally and the server frees the lock later, see
     *       {@link Lease#release()}) gets the release's {@link LockConnectionException}: its work is done, its
     *       value is lost, as with {@code try}-with-resources.</li>
     *   <li><b>Meanwhile.</b> The task is not stopped if the lease is lost while it runs (for that, see
     *       {@link #executeLocked(Duration, StopWork, LockedTask)}): it should call {@link Lease#checkValid()}
     *       before each guarded write and pass the {@linkplain Lease#fencingToken() fencing token} with it. A
     *       reentrant lock's task may acquire the same lock again (a nested lease).</li>
     * </ul>
     *
     * @param timeout how long to wait for the lock, from zero to {@link #MAX_TIMEOUT}
     * @param task    the work, given the lease
     * @param <T>     the type of the task's value
     * @param <X>     the checked exception the task may throw ({@link RuntimeException} when it throws none)
     * @return what the task returned
     * @throws X                        what the task threw, after the release
     * @throws LockTimeoutException     if the lock was not acquired within {@code timeout}; the task did not run
     * @throws LeaseLostException       if the lease was not {@code HELD} once acquired; the task did not run
     * @throws NullPointerException     if {@code timeout} or {@code task} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     if the thread was interrupted while acquiring; the task did not run
     * @throws LockConnectionException  as {@link #acquire()}, or if the release after a task that returned failed
     * @throws IllegalStateException    if the service is closed; the task did not run
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    default <T, X extends Exception> T executeLocked(Duration timeout, LockedTask<T, X> task)
            throws X, InterruptedException {
        return executeLocked(timeout, StopWork.NEVER, task);
    }

    /**
     * {@link #executeLocked(Duration, LockedTask)}, with the task stopped when the lease stops being held: with
     * {@link StopWork#WHEN_LOST} the task's thread (the caller's) is interrupted when the lease turns
     * {@link LeaseState#LOST}, with {@link StopWork#WHEN_NOT_HELD} already when it turns {@link LeaseState#UNCERTAIN};
     * {@link StopWork#NEVER} is {@link #executeLocked(Duration, LockedTask)}. What the task must do to be stoppable
     * (wait interruptibly, keep the interrupt, still check the lease and pass its token) is on {@link StopWork}.
     *
     * <pre>{@code
     * locks.mutex("jobs/reindex").executeLocked(Duration.ofSeconds(5), StopWork.WHEN_LOST, lease -> {
     *     for (Batch batch : batches) {
     *         lease.checkValid();                               // the check narrows the window,
     *         index.write(batch, lease.fencingToken());         // the token closes it,
     *         Thread.sleep(pause);                              // and the interrupt ends the work
     *     }
     *     return null;
     * });
     * }</pre>
     *
     * <p>Work that was stopped ends with {@link LeaseLostException} (the state that stopped it; the task's own
     * exception, typically {@link InterruptedException}, added as suppressed), after the release; the interrupt it
     * was sent is cleared first. Start, end and every other exception are those of
     * {@link #executeLocked(Duration, LockedTask)}.
     *
     * @param timeout how long to wait for the lock, from zero to {@link #MAX_TIMEOUT}
     * @param stop    when to stop the task
     * @param task    the work, given the lease
     * @param <T>     the type of the task's value
     * @param <X>     the checked exception the task may throw ({@link RuntimeException} when it throws none)
     * @return what the task returned
     * @throws X                             what the task threw, after the release, when it was not stopped
     * @throws LeaseLostException            if the work was stopped, or the lease was not {@code HELD} once acquired
     * @throws UnsupportedOperationException if {@code stop} is not {@code NEVER} and the provider lacks
     *                                       {@link LockFeature#LOST_NOTIFICATION}; the lock was released, the task
     *                                       did not run
     * @throws NullPointerException          if {@code timeout}, {@code stop} or {@code task} is null
     * @throws LockTimeoutException          as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalArgumentException      as {@link #executeLocked(Duration, LockedTask)}
     * @throws InterruptedException          as {@link #executeLocked(Duration, LockedTask)}: an interrupt while
     *                                       acquiring
     * @throws LockConnectionException       as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalStateException         as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalMonitorStateException  as {@link #acquire()}
     */
    default <T, X extends Exception> T executeLocked(Duration timeout, StopWork stop, LockedTask<T, X> task)
            throws X, InterruptedException {
        Objects.requireNonNull(stop, "stop is null");
        Objects.requireNonNull(task, "task is null");
        try (Lease lease = acquire(timeout)) {
            lease.checkValid();
            return stop.call(lease, task);
        }
    }

    /**
     * {@link #executeLocked(Duration, LockedTask)} for work without a value that does not need the lease:
     * {@code lock.executeLocked(Duration.ofSeconds(5), () -> report.regenerate());}. Same start, end and
     * exceptions.
     *
     * @param timeout how long to wait for the lock, from zero to {@link #MAX_TIMEOUT}
     * @param action  the work
     * @param <X>     the checked exception the action may throw ({@link RuntimeException} when it throws none)
     * @throws X                        what the action threw, after the release
     * @throws LockTimeoutException     as {@link #executeLocked(Duration, LockedTask)}
     * @throws LeaseLostException       as {@link #executeLocked(Duration, LockedTask)}
     * @throws NullPointerException     if {@code timeout} or {@code action} is null
     * @throws IllegalArgumentException as {@link #executeLocked(Duration, LockedTask)}
     * @throws InterruptedException     as {@link #executeLocked(Duration, LockedTask)}
     * @throws LockConnectionException  as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalStateException    as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    default <X extends Exception> void executeLocked(Duration timeout, LockedAction<X> action)
            throws X, InterruptedException {
        executeLocked(timeout, StopWork.NEVER, action);
    }

    /**
     * {@link #executeLocked(Duration, StopWork, LockedTask)} for work without a value that does not need the lease.
     *
     * @param timeout how long to wait for the lock, from zero to {@link #MAX_TIMEOUT}
     * @param stop    when to stop the action
     * @param action  the work
     * @param <X>     the checked exception the action may throw ({@link RuntimeException} when it throws none)
     * @throws X                             what the action threw, after the release, when it was not stopped
     * @throws LeaseLostException            as {@link #executeLocked(Duration, StopWork, LockedTask)}
     * @throws UnsupportedOperationException as {@link #executeLocked(Duration, StopWork, LockedTask)}
     * @throws NullPointerException          if {@code timeout}, {@code stop} or {@code action} is null
     * @throws LockTimeoutException          as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalArgumentException      as {@link #executeLocked(Duration, LockedTask)}
     * @throws InterruptedException          as {@link #executeLocked(Duration, LockedTask)}
     * @throws LockConnectionException       as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalStateException         as {@link #executeLocked(Duration, LockedTask)}
     * @throws IllegalMonitorStateException  as {@link #acquire()}
     */
    default <X extends Exception> void executeLocked(Duration timeout, StopWork stop, LockedAction<X> action)
            throws X, InterruptedException {
        Objects.requireNonNull(action, "action is null");
        executeLocked(timeout, stop, lease -> {
            action.run();
            return null;
        });
    }
}
