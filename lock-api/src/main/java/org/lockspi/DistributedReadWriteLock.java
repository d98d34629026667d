package org.lockspi;

/**
 * A distributed read-write lock: any number of readers, or one writer.
 *
 * <ul>
 *   <li>Both halves are reentrant per thread, like {@link LockService#mutex(String)}.</li>
 *   <li>Downgrade: a thread that holds the write lock may acquire the read lock, then release the write lock.</li>
 *   <li>No upgrade: a thread that holds the read lock and not the write lock is refused the write lock at once
 *       with {@link IllegalMonitorStateException}, instead of waiting forever for itself.</li>
 *   <li>A waiting writer blocks readers that arrive after it (no writer starvation).</li>
 * </ul>
 */
public interface DistributedReadWriteLock {

    /** @return the name this was obtained by */
    String name();

    /** @return the shared half; the same instance on every call */
    DistributedLock readLock();

    /** @return the exclusive half; the same instance on every call */
    DistributedLock writeLock();
}
