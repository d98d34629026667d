package org.lockspi.tck.coverage;

/**
 * Reasons shared by many cells of the coverage matrix, for {@link Inapplicable#reason()}: written once, printed once
 * under the matrix. A reason a single rule needs is written on its test.
 */
public final class Why {
    /** The rule takes no lock. */
    public static final String NO_LOCK = "the rule takes no lock: it is about discovery, selection, URIs or the "
            + "features declared";
    /** No queue forms. */
    public static final String NO_QUEUE = "no acquisition waits behind another in this rule";
    /** Ownership by a thread. */
    public static final String THREAD_OWNED = "about ownership by a thread (hold counts, reentrancy, the owner's "
            + "release): only the mutex and the halves of readWriteLock belong to a thread; §7.3, §7.4, §7.8 and "
            + "§7.9 hold the other kinds to the opposite";
    /** Readers and writers of one lock. */
    public static final String READ_WRITE_ONLY = "a rule of the read-write lock: its readers and writers";
    /** Permits. */
    public static final String PERMITS_ONLY = "a rule of permits: only a semaphore counts them";
    /** A lease no thread owns. */
    public static final String NOT_OWNED = "a rule of a lease no thread owns; the thread-owned kinds are §4's";
    /** A feature's absence. */
    public static final String ABSENT = "about a feature the provider does not declare: the kind is refused before "
            + "anything of it exists";
    /** Thread-free and asynchronous acquisitions reach the provider as the same requests. */
    public static final String SAME_REQUEST = "the provider gets the same request as for the halves of readWriteLock "
            + "or a synchronous acquisition (from an engine thread); the server's side of it is tested in those "
            + "columns, what the engine adds (futures, cancellation, local queues, release by any thread) in §23";
    /** Built on the mutex. */
    public static final String ON_THE_MUTEX = "built on the mutex alone: leader election holds mutexes, and the "
            + "scenario is the README's";
    /** A whole session's or server's fate. */
    public static final String SESSION_WIDE = "the rule judges what befalls a client's whole session or the server "
            + "through one lease; §16.2 and §16.1's restart, §11.1's crash and §12.1's loss take every kind "
            + "through it";
    /** The thread-bound kinds have no asynchronous form. */
    public static final String NO_ASYNC_FORM = "asynchronous acquisition is §23's: its timeouts, cancellation and "
            + "close are rules of their own";
    /** A scenario of one waiter. */
    public static final String ONE_WAITER_RULE = "the promise is about one acquisition and the lock it waits for; "
            + "queues of several waiters and of mixed kinds are §14's and §22.3's";

    /** A lock name is the lock's, whatever the kind that takes it. */
    public static final String NAME_OF_THE_LOCK = "a name is the lock's, given to its factory: the read half, the "
            + "thread-free read-write lock and an asynchronous acquisition use the key of the lock they belong to, "
            + "the same as the write half, the non-reentrant mutex and the semaphore tested here";

    private Why() {
    }
}
