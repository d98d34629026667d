package org.lockspi.redis.recipe;

import java.time.Duration;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.LockKind;

/**
 * One acquisition on Redis: the key (or sorted set) that holds it, the owner token that proves it is ours, and
 * the fencing token it was granted. Renewed by the backend's watchdog until released or lost.
 */
final class RedisLease implements BackendLease {
    final RedisLockBackend backend;
    final LockKind kind;
    final String name;
    /** The string key (exclusive kinds) or sorted set (readers, permits) holding the owner token. */
    final String key;
    final boolean shared;
    final String ownerToken;
    /** The holder's entry on the server ({@link RedisEntry}): what release and renewal compare. */
    final String entry;
    /** Whether the entry carries the revocable mark: its renewals and release then read and drop its request. */
    final boolean revocable;
    /** The lock's hash of revocation requests ({@link RedisKeys#revocations}). */
    final String revocations;
    private final long fencingToken;

    private volatile boolean lost;
    private volatile boolean released;
    /** The server's run_id when the acquisition was answered: another one later means the server restarted. */
    final String runId;
    /** How long a confirmation counts, and how long a key lives less the drift margin, in ns. */
    private final long confirmNanos;
    private final long validNanos;
    /** System.nanoTime() when the last renewal that succeeded (or the acquisition) was sent; never decreases. */
    private volatile long confirmedAt;
    /** The acquisition's own lease time, or null: its end bounds {@link #validUntilNanos()}. */
    final Duration leaseTime;
    /**
     * With a lease time: the send time of the acquisition plus the lease time less its drift margin, after which no
     * renewal keeps the lease; Long.MAX_VALUE without one.
     */
    final long endNanos;
    /** The server ms at which the lease time ends the acquisition, for the renewals; "0" without one. */
    final String endArg;

    RedisLease(RedisLockBackend backend, LockKind kind, String name, String key, boolean shared, String ownerToken,
               String entry, String revocations, long fencingToken, long sentAt, String runId, long confirmNanos,
               long validNanos, Duration leaseTime) {
        this.backend = backend;
        this.kind = kind;
        this.name = name;
        this.key = key;
        this.shared = shared;
        this.ownerToken = ownerToken;
        this.entry = entry;
        this.revocations = revocations;
        this.fencingToken = fencingToken;
        this.confirmedAt = sentAt;
        this.runId = runId;
        this.confirmNanos = confirmNanos;
        this.validNanos = validNanos;
        this.leaseTime = leaseTime;
        RedisEntry parsed = RedisEntry.parse(entry);
        this.revocable = parsed.revocable();
        long grantMillis = parsed.sinceMillis();
        if (leaseTime == null) {
            this.endNanos = Long.MAX_VALUE;
            this.endArg = "0";
        } else {
            this.endNanos = sentAt + leaseTime.minus(RedisSettings.driftMargin(leaseTime)).toNanos();
            // an entry without its grant time (an older script) is not renewed past the acquisition's own span
            this.endArg = Long.toString(grantMillis < 0 ? 1 : grantMillis + leaseMillis(leaseTime));
        }
    }

    /** @return a lease time in the server's milliseconds, rounded up */
    static long leaseMillis(Duration leaseTime) {
        long millis = leaseTime.toMillis();
        return leaseTime.minusMillis(millis).isZero() ? millis : millis + 1;
    }

    /** @return the owner token for the scripts that read or drop a revocation request, or '' if not revocable */
    String revocationArg() {
        return revocable ? ownerToken : "";
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean isLost() {
        return lost;
    }

    /** The send time of the last confirmed renewal (or of the acquisition) plus {@code confirmThreshold}. */
    @Override
    public long confirmedUntilNanos() {
        return confirmedAt + confirmNanos;
    }

    /**
     * The send time of the last confirmed renewal (or of the acquisition) plus the lease time less the drift
     * margin: the key, extended by that renewal on the server after it was sent, lives at least until then; with a
     * lease time of the acquisition's own, no later than {@link #endNanos}.
     */
    @Override
    public long validUntilNanos() {
        long valid = confirmedAt + validNanos;
        return endNanos != Long.MAX_VALUE && endNanos - valid < 0 ? endNanos : valid;
    }

    /** @return whether the lease time has ended the lease by {@code now} (nanoTime) */
    boolean endedBy(long now) {
        return endNanos != Long.MAX_VALUE && now - endNanos >= 0;
    }

    boolean isReleased() {
        return released;
    }

    long confirmedAt() {
        return confirmedAt;
    }

    /** Records a renewal the server confirmed, sent at {@code sentAt}; an older one moves nothing back. */
    synchronized void confirmed(long sentAt) {
        if (sentAt - confirmedAt > 0) {
            confirmedAt = sentAt;
        }
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
