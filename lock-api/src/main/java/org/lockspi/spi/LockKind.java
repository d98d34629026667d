package org.lockspi.spi;

/** The kinds of acquisition the engine asks a backend for. */
public enum LockKind {
    /** The mutex behind {@code LockService.mutex}; the engine adds thread reentrancy on top. */
    MUTEX,
    /** The non-reentrant mutex: on ZooKeeper, Curator's one-lease semaphore layout. */
    NON_REENTRANT_MUTEX,
    /** The shared half of a read-write lock. */
    READ,
    /** The exclusive half of a read-write lock. */
    WRITE,
    /** One permit of a counting semaphore. */
    SEMAPHORE
}
