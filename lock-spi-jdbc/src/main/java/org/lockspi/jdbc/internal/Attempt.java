package org.lockspi.jdbc.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/** One acquisition under way: what it asks for, its id, and whether it may have an entry in the queue. */
final class Attempt {
    final AcquireRequest request;
    final String key;
    final String lockId;
    final String id;
    final char kind;
    final int permits;
    /** For a reader whose thread holds the writer: the writer's id (a downgrade). */
    final String downgrade;
    /** Whether an entry of it may be in the queue, to be removed when it gives up. */
    volatile boolean queued;
    /** Whether a failed call may have granted it unseen, to be freed when it gives up. */
    volatile boolean inDoubt;

    Attempt(AcquireRequest request, String id) {
        this.request = request;
        this.key = request.name();
        this.lockId = lockId(key);
        this.id = id;
        this.kind = letter(request.kind());
        this.permits = request.permits();
        BackendLease held = request.heldWrite();
        if (held != null && !(held instanceof JdbcLease)) {
            throw new IllegalArgumentException("heldWrite is not a lease of this provider: " + held);
        }
        this.downgrade = held == null ? null : ((JdbcLease) held).id;
    }

    static char letter(LockKind kind) {
        switch (kind) {
            case MUTEX:
                return LockQueue.MUTEX;
            case NON_REENTRANT_MUTEX:
                return LockQueue.NON_REENTRANT;
            case WRITE:
                return LockQueue.WRITE;
            case READ:
                return LockQueue.READ;
            case SEMAPHORE:
                return LockQueue.SEMAPHORE;
            default:
                throw new IllegalArgumentException("unknown lock kind: " + kind);
        }
    }

    /**
     * @param key a lock's key (up to 5,463 characters)
     * @return the lock's id in the tables: the base64url SHA-256 of the key, 43 characters, short enough for
     *         every database's index and for a PostgreSQL channel name
     */
    static String lockId(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return request.toString();
    }
}
