package org.lockspi;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * An {@link Acquirable} whose leases belong to no thread, so that it can also be acquired without a waiting
 * caller: the {@linkplain LockService#nonReentrantMutex(String) non-reentrant mutex}, the
 * {@linkplain LockService#semaphore(String, int) semaphore} and both halves of a
 * {@linkplain LockService#threadFreeReadWriteLock(String) thread-free read-write lock}. Any thread may release
 * their leases, once. The thread-bound locks ({@link DistributedLock}: the reentrant mutex and the halves of
 * {@link LockService#readWriteLock(String)}) have no asynchronous form: their lease would belong to the thread
 * that waited, which is not the caller's.
 *
 * <p><b>Who waits.</b> Each asynchronous acquisition waits in a thread of its own, started by the service for it
 * and ended when it completes: a virtual thread when the runtime has them (Java 21 or newer; the library itself
 * is built for Java 17 and finds them at run time), else a daemon platform thread. The threads are named
 * {@code lockspi-async-<provider>-<service>-<n>}. The wait is the blocking acquisition of {@link Acquirable},
 * with the same server work, fairness and overshoot bound; the deadline is taken when the method is called.
 * Dependent stages added without an executor run on that thread or on the caller's; give them an executor if
 * they block.
 *
 * <p><b>Cancellation.</b> {@code future.cancel(...)} (or completing the future in any other way, such as
 * {@link CompletableFuture#orTimeout}) before the grant ends the wait, which takes back everything it put on the
 * server, as an interrupted {@link #acquire()} does. A grant that races the cancel is released at once: a lease
 * is either in the completed future or released, never leaked.
 *
 * <p><b>Local queue.</b> Within one service, the acquisitions of one of these locks (but the read half, whose
 * acquisitions share) wait in a FIFO queue of the service, in the order they were asked for (an asynchronous one
 * takes its place when {@code acquireAsync} or {@code tryAcquireAsync} is called, in the caller's thread), and only
 * as many as the lock has permits go to the
 * server at once, since no more of one client's acquisitions could hold together: ten thousand waiters of one
 * service cost the server one queue entry. Across clients the server's order holds ({@link LockFeature#FAIR}); a
 * client's next waiter asks the server once the previous one has been granted and released.
 *
 * <p><b>Closing.</b> {@link LockService#close()} completes every pending future exceptionally with
 * {@link IllegalStateException}, ends their waits and joins their threads.
 *
 * <p><b>Virtual threads.</b> The blocking methods may also be called from virtual threads: the engine and the
 * providers shipped here wait on {@code java.util.concurrent.locks}, not on monitors, so a waiting virtual thread
 * does not pin its carrier (the ZooKeeper and Redis client libraries still use monitors inside their own calls;
 * on Java 24 and newer a monitor no longer pins).
 */
public interface AsyncAcquirable extends Acquirable {

    /**
     * {@inheritDoc} Its asynchronous acquisitions carry the lease time too, counted from their grant as every
     * other's.
     */
    @Override
    AsyncAcquirable withLeaseTime(Duration leaseTime);

    /**
     * Acquires, waiting at most {@code timeout}, without blocking the caller.
     *
     * @param timeout how long to wait, from zero to {@link #MAX_TIMEOUT}, counted from this call
     * @return a future completed with the lease, held; or exceptionally with {@link LockTimeoutException} when
     *         the timeout elapses first, {@link IllegalStateException} when the service is closed meanwhile,
     *         {@link LockConnectionException} when the server cannot be reached or the connection fails;
     *         cancelled by the caller, it ends the wait (see above)
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws IllegalStateException    if the service is closed
     */
    CompletableFuture<Lease> acquireAsync(Duration timeout);

    /**
     * Acquires, waiting at most {@code timeout}, without blocking the caller.
     *
     * @param timeout how long to wait, from zero to {@link #MAX_TIMEOUT}, counted from this call
     * @return a future completed with the lease, or with empty when the timeout elapses first; exceptionally as
     *         {@link #acquireAsync(Duration)}, but never with {@link LockTimeoutException}
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws IllegalStateException    if the service is closed
     */
    CompletableFuture<Optional<Lease>> tryAcquireAsync(Duration timeout);

    /**
     * Locked work without a waiting caller: acquires as {@link #acquireAsync(Duration)}, runs {@code task} on
     * {@code executor} with the lease, releases it when the task ends, and completes the future then, with the
     * task's value or exception, after the release. The asynchronous {@link #executeLocked(Duration, StopWork,
     * LockedTask)}:
     *
     * <pre>{@code
     * CompletableFuture<Report> report = locks.nonReentrantMutex("jobs/report")
     *         .executeLockedAsync(Duration.ofSeconds(5), StopWork.WHEN_LOST, lease -> build(lease), workers);
     * }</pre>
     *
     * <ul>
     *   <li><b>Stopped on loss.</b> Under {@link StopWork#WHEN_LOST} (or {@link StopWork#WHEN_NOT_HELD}) the
     *       thread running the task is interrupted when the lease turns {@code LOST} (or {@code UNCERTAIN}), as
     *       {@link StopWork} says, and the future completes exceptionally with {@link LeaseLostException} as soon as
     *       the task has ended (at once for a task that stops when interrupted) and the lease is released; the
     *       interrupt is cleared from the executor's thread.</li>
     *   <li><b>Cancelled.</b> {@code future.cancel(true)} (or any other completion from outside) before the grant
     *       ends the wait as for {@link #acquireAsync(Duration)}; while the task runs it interrupts the task's
     *       thread, and the lease is released when the task ends, not before: another holder never gets in while
     *       the task may still write.</li>
     *   <li><b>Exceptions.</b> The future completes exceptionally with what {@link #acquireAsync(Duration)} would,
     *       with {@link LeaseLostException} if the lease was not {@code HELD} once acquired (the task not run),
     *       with the task's exception (the release's failure suppressed), with the release's failure after a task
     *       that returned, with {@link UnsupportedOperationException} if the policy needs
     *       {@link LockFeature#LOST_NOTIFICATION} and the provider lacks it, and with the executor's
     *       {@code RejectedExecutionException} (the lease released).</li>
     * </ul>
     *
     * @param timeout  how long to wait for the lock, from zero to {@link #MAX_TIMEOUT}, counted from this call
     * @param stop     when to stop the task
     * @param task     the work, given the lease; it runs on {@code executor}
     * @param executor where the task runs (never the service's own threads)
     * @param <T>      the type of the task's value
     * @return the future of the task's value
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws IllegalStateException    if the service is closed
     */
    default <T> CompletableFuture<T> executeLockedAsync(Duration timeout, StopWork stop, LockedTask<T, ?> task,
                                                        java.util.concurrent.Executor executor) {
        return org.lockspi.internal.StoppableWork.async(this, timeout, stop, task, executor);
    }
}
