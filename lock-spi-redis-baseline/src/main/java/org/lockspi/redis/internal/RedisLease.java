package org.lockspi.redis.internal;

import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One acquisition on Redis: the key (or sorted set) that holds it, the owner token that proves it is ours, and
 * the fencing token it was granted. Renewed by the backend's watchdog until released or lost.
 */
final class RedisLease implements BackendLease {
    final RedisBackend backend;
    final LockKind kind;
    final String name;
    /** The string key (exclusive kinds) or sorted set (readers, permits) holding the owner token. */
    final String key;
    final boolean shared;
    final String ownerToken;
    private final long fencingToken;

    private volatile boolean lost;
    private volatile boolean released;
    /** System.nanoTime() when the last renewal that succeeded (or the acquisition) was sent. */
    private volatile long confirmedAt;

    RedisLease(RedisBackend backend, LockKind kind, String name, String key, boolean shared, String ownerToken,
               long fencingToken, long sentAt) {
        this.backend = backend;
        this.kind = kind;
        this.name = name;
        this.key = key;
        this.shared = shared;
        this.ownerToken = ownerToken;
        this.fencingToken = fencingToken;
        this.confirmedAt = sentAt;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean isLost() {
        return lost;
    }

    boolean isReleased() {
        return released;
    }

    long confirmedAt() {
        return confirmedAt;
    }

    void confirmed(long sentAt) {
        confirmedAt = sentAt;
    }

    /** @return whether this call marked it lost (it was neither lost nor released before) */
    synchronized boolean markLost() {
        if (lost || released) {
            return false;
        }
        lost = true;
        return true;
    }

    /** @return whether this call marked it released (it was not released before) */
    synchronized boolean markReleased() {
        if (released) {
            return false;
        }
        released = true;
        return true;
    }

    @Override
    public void release() {
        backend.release(this);
    }

    @Override
    public String toString() {
        return kind + " '" + name + "' fencingToken=" + fencingToken + (lost ? " lost" : "")
                + (released ? " released" : "");
    }
}
