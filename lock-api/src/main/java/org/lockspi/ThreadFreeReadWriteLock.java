package org.lockspi;

/**
 * A distributed read-write lock whose leases belong to no thread: any number of readers, or one writer, as
 * {@link DistributedReadWriteLock}, on the same server state (the two exclude each other across clients), but every
 * acquisition is a server acquisition of its own, not reentrant, and may be released by any thread, once.
 *
 * <ul>
 *   <li>Readers share, also within one client; a writer excludes every other acquisition, also the same
 *       client's and the same thread's: a second acquisition that cannot be granted waits, even for a lease the
 *       caller holds (no downgrade, no upgrade refusal: there is no thread to tell who holds what).</li>
 *   <li>A waiting writer blocks readers that arrive after it, as in {@link DistributedReadWriteLock}.</li>
 *   <li>Both halves can be acquired asynchronously ({@link AsyncAcquirable}).</li>
 * </ul>
 */
public interface ThreadFreeReadWriteLock {

    /** @return the name this was obtained by */
    String name();

    /** @return the shared half; the same instance on every call */
    AsyncAcquirable readLock();

    /** @return the exclusive half; the same instance on every call */
    AsyncAcquirable writeLock();
}
