package org.lockspi.spi;

import java.util.Objects;

/**
 * What the engine asks a backend to acquire. Built by the engine after every argument check: the name is the
 * lock's backend key ({@link LockKeys#key(String)} of the name the application gave), the permits are at least
 * 1, and the read-to-write upgrade has been refused. Immutable.
 */
public final class AcquireRequest {
    private final LockKind kind;
    private final String name;
    private final int permits;
    private final BackendLease heldWrite;

    private AcquireRequest(LockKind kind, String name, int permits, BackendLease heldWrite) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.name = Objects.requireNonNull(name, "name");
        if (permits < 1) {
            throw new IllegalArgumentException("permits < 1: " + permits);
        }
        if (heldWrite != null && kind != LockKind.READ) {
            throw new IllegalArgumentException("heldWrite is only for READ requests: " + kind);
        }
        this.permits = permits;
        this.heldWrite = heldWrite;
    }

    /**
     * @param kind MUTEX, NON_REENTRANT_MUTEX or WRITE
     * @param name the lock's backend key
     * @return a request for one exclusive acquisition
     */
    public static AcquireRequest exclusive(LockKind kind, String name) {
        if (kind == LockKind.READ || kind == LockKind.SEMAPHORE) {
            throw new IllegalArgumentException("not an exclusive kind: " + kind);
        }
        return new AcquireRequest(kind, name, 1, null);
    }

    /**
     * @param name      the read-write lock's backend key
     * @param heldWrite the write lease the same thread holds on this lock (a downgrade), or null
     * @return a request for the read half
     */
    public static AcquireRequest read(String name, BackendLease heldWrite) {
        return new AcquireRequest(LockKind.READ, name, 1, heldWrite);
    }

    /**
     * @param name    the semaphore's backend key
     * @param permits the semaphore's permits, at least 1
     * @return a request for one permit
     */
    public static AcquireRequest semaphore(String name, int permits) {
        return new AcquireRequest(LockKind.SEMAPHORE, name, permits, null);
    }

    /** @return the kind of acquisition */
    public LockKind kind() {
        return kind;
    }

    /**
     * The lock's backend key, the string the backend stores the lock under: {@link LockKeys#key(String)} of the
     * name the application gave (the name itself for a name of the readable form). Every provider must use it
     * as it is, so that all providers of one backend find the same lock; {@link LockKeys#name(String)} gives the
     * application's name back for messages.
     *
     * @return the lock's backend key
     */
    public String name() {
        return name;
    }

    /** @return the semaphore's permits; 1 for every other kind */
    public int permits() {
        return permits;
    }

    /**
     * For a READ request by a thread that holds the write half of the same lock: that write lease. The backend
     * must grant the read at once without waiting for its own write (a downgrade), as Curator does.
     *
     * @return the write lease held by the requesting thread, or null
     */
    public BackendLease heldWrite() {
        return heldWrite;
    }

    @Override
    public String toString() {
        // the application's name, not the key, so that messages show what the application asked for
        return kind + " '" + LockKeys.nameOrKey(name) + "'" + (kind == LockKind.SEMAPHORE ? " permits=" + permits : "")
                + (heldWrite != null ? " (downgrade)" : "");
    }
}
