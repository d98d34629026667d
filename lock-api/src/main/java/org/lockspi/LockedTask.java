package org.lockspi;

/**
 * Work done while a lock is held, by {@link Acquirable#executeLocked(java.time.Duration, LockedTask)}: it gets
 * the lease, to read its {@linkplain Lease#fencingToken() fencing token} and to {@linkplain Lease#checkValid()
 * check} it before each guarded write, and returns a value.
 *
 * <p>The task must not release the lease: {@code executeLocked} does, when the task returns or throws (a
 * release by the task is harmless, the second release does nothing, but the lock is then no longer held for the
 * rest of the task).
 *
 * @param <T> the type of the value returned
 * @param <X> the checked exception the task may throw ({@link RuntimeException} when it throws none)
 */
@FunctionalInterface
public interface LockedTask<T, X extends Exception> {

    /**
     * Does the work; runs on the thread that called {@code executeLocked}.
     *
     * @param lease the lease, {@link LeaseState#HELD} when the task starts
     * @return the value {@code executeLocked} returns
     * @throws X what the work throws; {@code executeLocked} throws it on, after the release
     */
    T run(Lease lease) throws X;
}
