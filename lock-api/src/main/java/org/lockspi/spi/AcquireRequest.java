package org.lockspi.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

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
    private final Duration leaseTime;
    private final boolean revocable;

    private AcquireRequest(LockKind kind, String name, int permits, BackendLease heldWrite) {
        this(kind, name, permits, heldWrite, null);
    }

    private AcquireRequest(LockKind kind, String name, int permits, BackendLease heldWrite, Duration leaseTime) {
        this(kind, name, permits, heldWrite, leaseTime, false);
    }

    private AcquireRequest(LockKind kind, String name, int permits, BackendLease heldWrite, Duration leaseTime,
                           boolean revocable) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.name = Objects.requireNonNull(name, "name");
        if (permits < 1) {
            throw new IllegalArgumentException("permits < 1: " + permits);
        }
        if (heldWrite != null && kind != LockKind.READ) {
            throw new IllegalArgumentException("heldWrite is only for READ requests: " + kind);
        }
        if (leaseTime != null && (leaseTime.isNegative() || leaseTime.isZero())) {
            throw new IllegalArgumentException("leaseTime <= 0: " + leaseTime);
        }
        this.permits = permits;
        this.heldWrite = heldWrite;
        this.leaseTime = leaseTime;
        this.revocable = revocable;
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

    /**
     * This request with a lease time of its own ({@code LockFeature.LEASE_TIME}), or without one. The engine sends
     * it only to a provider that declares the feature, with a lease time it has checked ({@code (0, 365 days]}).
     *
     * @param leaseTime the lease time, positive, or null for none
     * @return the request with it
     * @throws IllegalArgumentException if {@code leaseTime} is zero or negative
     */
    public AcquireRequest withLeaseTime(Duration leaseTime) {
        return new AcquireRequest(kind, name, permits, heldWrite, leaseTime, revocable);
    }

    /**
     * This request, marked revocable: the engine sends every request of a service opened with
     * {@code revocable=true} so ({@code LockFeature.REVOCATION}), and only to a provider that declares the feature.
     *
     * @return the request, revocable
     */
    public AcquireRequest revocable() {
        return revocable ? this : new AcquireRequest(kind, name, permits, heldWrite, leaseTime, true);
    }

    /**
     * Whether operators may revoke this acquisition ({@code LockService.revoke}). A backend that declares
     * {@code REVOCATION} keeps the mark with the acquisition's state on the server, so that a revocation of a lease
     * without it is refused at once, and watches a revocable lease for requests (see
     * {@link LockBackend#revoke(String, long, String)}).
     *
     * @return whether the acquisition may be revoked
     */
    public boolean isRevocable() {
        return revocable;
    }

    /**
     * The longest this acquisition may hold, even while its holder lives ({@code LockFeature.LEASE_TIME}); empty
     * for an acquisition held for as long as it is renewed. A backend that declares the feature must, for a
     * request with a lease time:
     * <ul>
     *   <li>make the server end the acquisition on its own, by its own clock, no later than the instant it granted
     *       it plus the lease time (Redis: the key's expiry; a database: the row's expiry from the database's
     *       clock), whatever the holder does: no renewal extends it past that, and no other client's request is
     *       needed to end it (a server that frees expired state when it is next asked frees it then);</li>
     *   <li>cap {@link BackendLease#validUntilNanos()} at the {@link System#nanoTime()} at which the granting
     *       request was <em>sent</em> plus the lease time (less the provider's drift margin, as for its other
     *       validity deadlines): the engine turns the lease {@code LOST} at that instant, before the server can
     *       have freed the lock, and tells its listeners; it never moves beyond it;</li>
     *   <li>keep renewing, if it renews, up to that end only, and turn no lease {@code LOST} earlier than it would
     *       without a lease time but for the end itself.</li>
     * </ul>
     * A backend that cannot do this does not declare the feature; the engine then refuses a lease time before any
     * request is made.
     *
     * @return the lease time, or empty
     */
    public Optional<Duration> leaseTime() {
        return Optional.ofNullable(leaseTime);
    }

    @Override
    public String toString() {
        // the application's name, not the key, so that messages show what the application asked for
        return kind + " '" + LockKeys.nameOrKey(name) + "'" + (kind == LockKind.SEMAPHORE ? " permits=" + permits : "")
                + (heldWrite != null ? " (downgrade)" : "") + (leaseTime != null ? " leaseTime=" + leaseTime : "")
                + (revocable ? " revocable" : "");
    }
}
