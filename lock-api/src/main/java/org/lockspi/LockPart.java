package org.lockspi;

import java.util.Comparator;
import java.util.Locale;
import java.util.Objects;
import org.lockspi.spi.LockKeys;

/**
 * One lock of a {@link MultiLock}: a name and the kind to take it as, as {@link LockService}'s factories hand them
 * out. Immutable; equal when name, kind and permits are equal.
 *
 * <pre>{@code
 * MultiLock transfer = locks.multiLock(LockPart.mutex("accounts/17"), LockPart.mutex("accounts/42"),
 *         LockPart.read("rates"), LockPart.semaphore("transfers", 8));
 * }</pre>
 *
 * <p><b>Order.</b> Parts compare by name ({@link String#compareTo}, the same in every JVM), then by kind in the
 * order of {@link Kind}: the one global order in which every multi-lock takes its parts, whatever order they were
 * given in, so two clients taking overlapping sets never wait for each other in a circle.
 */
public final class LockPart implements Comparable<LockPart> {

    /** The kinds of lock a part can be, each one of {@link LockService}'s factories; in their tie-break order. */
    public enum Kind {
        /** {@link LockService#mutex(String)}: reentrant, owned by the acquiring thread. */
        MUTEX,
        /** {@link LockService#nonReentrantMutex(String)}: owned by no thread. */
        NON_REENTRANT_MUTEX,
        /** The read half of {@link LockService#readWriteLock(String)}: owned by the acquiring thread. */
        READ,
        /** The write half of {@link LockService#readWriteLock(String)}: owned by the acquiring thread. */
        WRITE,
        /** The read half of {@link LockService#threadFreeReadWriteLock(String)}: owned by no thread. */
        THREAD_FREE_READ,
        /** The write half of {@link LockService#threadFreeReadWriteLock(String)}: owned by no thread. */
        THREAD_FREE_WRITE,
        /** One permit of {@link LockService#semaphore(String, int)}: owned by no thread. */
        SEMAPHORE;

        /** @return whether a lease of this kind belongs to the thread that acquired it */
        public boolean threadOwned() {
            return this == MUTEX || this == READ || this == WRITE;
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static final Comparator<LockPart> ORDER = Comparator.comparing(LockPart::name)
            .thenComparing(LockPart::kind).thenComparingInt(LockPart::permits);

    private final String name;
    private final Kind kind;
    private final int permits;

    private LockPart(String name, Kind kind, int permits) {
        LockKeys.key(Objects.requireNonNull(name, "name is null")); // the name grammar, at once
        this.name = name;
        this.kind = kind;
        this.permits = permits;
    }

    /**
     * @param name the lock's name
     * @return the part {@code service.mutex(name)}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty, not well-formed UTF-16 or longer than 4096 UTF-8
     *                                  bytes
     */
    public static LockPart mutex(String name) {
        return new LockPart(name, Kind.MUTEX, 1);
    }

    /**
     * @param name the lock's name
     * @return the part {@code service.nonReentrantMutex(name)}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException as {@link #mutex(String)}
     */
    public static LockPart nonReentrantMutex(String name) {
        return new LockPart(name, Kind.NON_REENTRANT_MUTEX, 1);
    }

    /**
     * @param name the read-write lock's name
     * @return the part {@code service.readWriteLock(name).readLock()}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException as {@link #mutex(String)}
     */
    public static LockPart read(String name) {
        return new LockPart(name, Kind.READ, 1);
    }

    /**
     * @param name the read-write lock's name
     * @return the part {@code service.readWriteLock(name).writeLock()}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException as {@link #mutex(String)}
     */
    public static LockPart write(String name) {
        return new LockPart(name, Kind.WRITE, 1);
    }

    /**
     * @param name the read-write lock's name
     * @return the part {@code service.threadFreeReadWriteLock(name).readLock()}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException as {@link #mutex(String)}
     */
    public static LockPart threadFreeRead(String name) {
        return new LockPart(name, Kind.THREAD_FREE_READ, 1);
    }

    /**
     * @param name the read-write lock's name
     * @return the part {@code service.threadFreeReadWriteLock(name).writeLock()}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException as {@link #mutex(String)}
     */
    public static LockPart threadFreeWrite(String name) {
        return new LockPart(name, Kind.THREAD_FREE_WRITE, 1);
    }

    /**
     * @param name    the semaphore's name
     * @param permits the semaphore's permits, at least 1 (as everywhere the semaphore is used)
     * @return the part: one permit of {@code service.semaphore(name, permits)}
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if {@code permits < 1}, or as {@link #mutex(String)}
     */
    public static LockPart semaphore(String name, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits < 1: " + permits);
        }
        return new LockPart(name, Kind.SEMAPHORE, permits);
    }

    /** @return the lock's name, as given */
    public String name() {
        return name;
    }

    /** @return the kind of lock */
    public Kind kind() {
        return kind;
    }

    /** @return the semaphore's permits; 1 for every other kind */
    public int permits() {
        return permits;
    }

    /** Orders by name, then kind (then permits, for two semaphore parts that a multi-lock refuses anyway). */
    @Override
    public int compareTo(LockPart other) {
        return ORDER.compare(this, other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockPart && ((LockPart) o).name.equals(name) && ((LockPart) o).kind == kind
                && ((LockPart) o).permits == permits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, kind, permits);
    }

    /** @return e.g. {@code mutex 'accounts/17'}, {@code semaphore 'transfers' (8 permits)} */
    @Override
    public String toString() {
        return kind + " '" + name + "'" + (kind == Kind.SEMAPHORE ? " (" + permits + " permits)" : "");
    }
}
