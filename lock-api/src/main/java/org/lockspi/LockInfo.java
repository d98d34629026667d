package org.lockspi;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the server shows of one lock at one moment: its kind, its holders and how many acquisitions wait for it.
 * Obtained from {@link LockService#inspect(String)}, by any client, whether or not it holds the lock.
 *
 * <p><b>A snapshot.</b> The view is read from the server without taking the lock, and may be stale the moment it
 * is returned: a holder may have released, a waiter may have acquired, a lost holder's state may linger until its
 * session or lease ends. It is for operators and diagnostics. Never use it to decide whether to write to a
 * resource the lock guards: that is what holding a {@link Lease} (checked with {@link Lease#checkValid()}) and
 * passing its {@linkplain Lease#fencingToken() fencing token} are for.
 *
 * <p>A name with no state on the server is not an error: its view has kind {@link Kind#NONE}, no holders and no
 * waiters ({@link #empty(String)}). Immutable.
 *
 * @param name    the lock's name, as given to {@link LockService#inspect(String)}
 * @param kind    the kind of lock the server state belongs to
 * @param holders the acquisitions that hold the lock now, in the server's order (oldest first where it has one)
 * @param waiters how many acquisitions are queued or polling for the lock, at least 0: those on the server, and the
 *                asking service's own that wait in its local queue in front of the server (a service lets one
 *                acquisition of an exclusive lock at a time ask the server; another client sees that one only)
 */
public record LockInfo(String name, Kind kind, List<Holder> holders, int waiters) {

    /** The kind of lock as the server stores it, which is all a client that did not create it can see. */
    public enum Kind {
        /** No state on the server: nobody holds the lock and nobody waits for it. */
        NONE,
        /**
         * A mutex: one holder at a time. A {@linkplain LockService#nonReentrantMutex(String) non-reentrant mutex}
         * shows as a mutex on a server whose layout does not tell them apart (Redis); on ZooKeeper it uses
         * Curator's semaphore layout and shows as {@link #SEMAPHORE}.
         */
        MUTEX,
        /** A read-write lock: several readers, or one writer (with, after a downgrade, its own read). */
        READ_WRITE,
        /** A counting semaphore: each holder holds one permit. */
        SEMAPHORE
    }

    /** How a holder holds the lock. */
    public enum Mode {
        /** The one holder of a mutex. */
        EXCLUSIVE,
        /** A reader of a read-write lock. */
        READ,
        /** The writer of a read-write lock. */
        WRITE,
        /** One permit of a semaphore. */
        PERMIT
    }

    /**
     * One holder of the lock.
     *
     * @param mode         how it holds the lock
     * @param fencingToken the fencing token of its lease, where the provider has
     *                     {@link LockFeature#FENCING_TOKENS} and the server shows it; else empty
     * @param since        when it acquired, by the server's clock, where the server records it (ZooKeeper: the
     *                     creation time of its node; Redis: the server time of the acquisition); else empty
     * @param own          whether it is a lease of the service that asked (this client), not of another client
     */
    public record Holder(Mode mode, OptionalLong fencingToken, Optional<Instant> since, boolean own) {
        /**
         * @throws NullPointerException if any argument is null
         */
        public Holder {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(fencingToken, "fencingToken");
            Objects.requireNonNull(since, "since");
        }

        /** @return this holder without its fencing token */
        public Holder withoutFencingToken() {
            return new Holder(mode, OptionalLong.empty(), since, own);
        }
    }

    /**
     * @throws NullPointerException     if any argument is null, or a holder is
     * @throws IllegalArgumentException if {@code waiters < 0}, or there are holders of kind {@link Kind#NONE}
     */
    public LockInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        holders = List.copyOf(holders);
        if (waiters < 0) {
            throw new IllegalArgumentException("waiters < 0: " + waiters);
        }
        if (kind == Kind.NONE && !holders.isEmpty()) {
            throw new IllegalArgumentException("holders of a lock of kind NONE: " + holders);
        }
    }

    /**
     * @param name the lock's name
     * @return the view of a lock that has no state on the server
     */
    public static LockInfo empty(String name) {
        return new LockInfo(name, Kind.NONE, List.of(), 0);
    }

    /** @return whether anyone holds the lock */
    public boolean isHeld() {
        return !holders.isEmpty();
    }

    /** @return for a semaphore, how many permits are held (its holders); 0 for every other kind */
    public int permitsInUse() {
        return kind == Kind.SEMAPHORE ? holders.size() : 0;
    }

    /**
     * @param newName another name
     * @return the same view under another name
     */
    public LockInfo withName(String newName) {
        return new LockInfo(newName, kind, holders, waiters);
    }
}
