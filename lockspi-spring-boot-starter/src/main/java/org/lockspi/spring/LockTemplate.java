package org.lockspi.spring;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.LockedAction;
import org.lockspi.LockedTask;
import org.lockspi.StopWork;

/**
 * Runs work under a named reentrant {@linkplain LockService#mutex(String) mutex} of one {@link LockService}:
 * {@link org.lockspi.Acquirable#executeLocked(Duration, LockedTask) executeLocked} with the name and a default
 * wait. The starter configures one from {@code lockspi.locked.wait-for}. Thread-safe.
 *
 * <pre>{@code
 * Invoice invoice = lockTemplate.executeLocked("orders/" + order.id(),
 *         lease -> billing.bill(order, lease.fencingToken()));
 * }</pre>
 */
public class LockTemplate {
    private final LockService service;
    private final Duration defaultWait;

    /**
     * @param service     the service whose mutexes the template takes
     * @param defaultWait how long {@link #executeLocked(String, LockedTask)} waits
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code defaultWait} is negative or longer than the maximum timeout
     */
    public LockTemplate(LockService service, Duration defaultWait) {
        this.service = Objects.requireNonNull(service, "service is null");
        this.defaultWait = Objects.requireNonNull(defaultWait, "defaultWait is null");
        if (defaultWait.isNegative() || defaultWait.compareTo(org.lockspi.Acquirable.MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("defaultWait out of [0, 365 days]: " + defaultWait);
        }
    }

    /** @return the service */
    public LockService service() {
        return service;
    }

    /** @return how long {@link #executeLocked(String, LockedTask)} waits */
    public Duration defaultWait() {
        return defaultWait;
    }

    /**
     * Runs {@code task} holding the mutex {@code name}, waiting at most the default wait.
     *
     * @param name the lock's name
     * @param task the work, given the lease
     * @param <T>  the value's type
     * @param <X>  the task's checked exception
     * @return what the task returned
     * @throws X                    what the task threw
     * @throws InterruptedException if the thread was interrupted while waiting
     * @throws LockTimeoutException if the lock was not acquired in time; the task did not run; and everything
     *                              {@link org.lockspi.Acquirable#executeLocked(Duration, LockedTask)} throws
     */
    public <T, X extends Exception> T executeLocked(String name, LockedTask<T, X> task)
            throws X, InterruptedException {
        return executeLocked(name, defaultWait, task);
    }

    /**
     * Runs {@code task} holding the mutex {@code name}, waiting at most {@code wait}.
     *
     * @param name the lock's name
     * @param wait how long to wait for the lock
     * @param task the work, given the lease
     * @param <T>  the value's type
     * @param <X>  the task's checked exception
     * @return what the task returned
     * @throws X                    what the task threw
     * @throws InterruptedException as {@link #executeLocked(String, LockedTask)}
     * @throws LockTimeoutException as {@link #executeLocked(String, LockedTask)}
     */
    public <T, X extends Exception> T executeLocked(String name, Duration wait, LockedTask<T, X> task)
            throws X, InterruptedException {
        return service.mutex(name).executeLocked(wait, task);
    }

    /**
     * Runs {@code task} holding the mutex {@code name}, waiting at most {@code wait}, stopped as {@code stop} says
     * when the lease is lost: {@link org.lockspi.Acquirable#executeLocked(Duration, StopWork, LockedTask)}.
     *
     * @param name the lock's name
     * @param wait how long to wait for the lock
     * @param stop when to stop the task (its thread interrupted)
     * @param task the work, given the lease
     * @param <T>  the value's type
     * @param <X>  the task's checked exception
     * @return what the task returned
     * @throws X                    what the task threw, when it was not stopped
     * @throws InterruptedException as {@link #executeLocked(String, LockedTask)}
     * @throws LockTimeoutException as {@link #executeLocked(String, LockedTask)}
     * @throws org.lockspi.LeaseLostException if the task was stopped; and everything
     *                              {@link org.lockspi.Acquirable#executeLocked(Duration, StopWork, LockedTask)} throws
     */
    public <T, X extends Exception> T executeLocked(String name, Duration wait, StopWork stop, LockedTask<T, X> task)
            throws X, InterruptedException {
        return service.mutex(name).executeLocked(wait, stop, task);
    }

    /**
     * Runs {@code action} holding the mutex {@code name}, waiting at most {@code wait}.
     *
     * @param name   the lock's name
     * @param wait   how long to wait for the lock
     * @param action the work
     * @param <X>    the action's checked exception
     * @throws X                    what the action threw
     * @throws InterruptedException as {@link #executeLocked(String, LockedTask)}
     * @throws LockTimeoutException as {@link #executeLocked(String, LockedTask)}
     */
    public <X extends Exception> void executeLocked(String name, Duration wait, LockedAction<X> action)
            throws X, InterruptedException {
        service.mutex(name).executeLocked(wait, action);
    }

    /**
     * Runs {@code task} holding the mutex {@code name} if it can be had within {@code wait}; otherwise does not
     * run it.
     *
     * @param name the lock's name
     * @param wait how long to wait for the lock
     * @param task the work, given the lease; a null value is returned as empty
     * @param <T>  the value's type
     * @param <X>  the task's checked exception
     * @return what the task returned, or empty if the lock was not acquired in time
     * @throws X                    what the task threw
     * @throws InterruptedException as {@link #executeLocked(String, LockedTask)}
     * @throws org.lockspi.LeaseLostException if the lease was not held once acquired; the task did not run
     */
    public <T, X extends Exception> Optional<T> tryExecuteLocked(String name, Duration wait, LockedTask<T, X> task)
            throws X, InterruptedException {
        Objects.requireNonNull(task, "task is null");
        Optional<Lease> acquired = service.mutex(name).tryAcquire(wait);
        if (acquired.isEmpty()) {
            return Optional.empty();
        }
        try (Lease lease = acquired.get()) {
            lease.checkValid();
            return Optional.ofNullable(task.run(lease));
        }
    }
}
