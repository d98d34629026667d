package org.lockspi;

/**
 * Work without a result and without need of the lease, for
 * {@link Acquirable#executeLocked(java.time.Duration, LockedAction)}: the {@link Runnable} of locked work.
 *
 * @param <X> the checked exception the action may throw ({@link RuntimeException} when it throws none)
 */
@FunctionalInterface
public interface LockedAction<X extends Exception> {

    /**
     * Does the work; runs on the thread that called {@code executeLocked}, while the lock is held.
     *
     * @throws X what the work throws; {@code executeLocked} throws it on, after the release
     */
    void run() throws X;
}
