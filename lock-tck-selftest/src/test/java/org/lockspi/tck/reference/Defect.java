package org.lockspi.tck.reference;

/** The deliberate defects of the broken variants of the reference provider, each caught by the TCK. */
enum Defect {
    /** None: the reference provider. */
    NONE,
    /** Every acquisition is granted at once, held or not: breaks mutual exclusion. */
    GRANT_ALL,
    /** A timed-out acquisition leaves its queue entry behind: breaks "a timeout leaves nothing behind". */
    LEAK_ON_TIMEOUT,
    /** Waiters are granted newest first while FAIR is declared: breaks FIFO fairness. */
    LIFO,
    /** An interrupted acquisition leaves its queue entry behind: breaks "an interrupt leaves nothing behind". */
    LEAK_ON_INTERRUPT,
    /** Each client starts a thread that its close() does not stop: breaks "no thread outlives close()". */
    LEAK_THREAD
}
