package org.lockspi.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A point in time on {@link System#nanoTime()}'s clock by which an operation must give up, or none. Immutable.
 */
public final class Deadline {
    private static final Deadline NONE = new Deadline(0L, true);

    private final long endNanos;
    private final boolean infinite;

    private Deadline(long endNanos, boolean infinite) {
        this.endNanos = endNanos;
        this.infinite = infinite;
    }

    /** @return a deadline that never passes */
    public static Deadline none() {
        return NONE;
    }

    /**
     * @param timeout how long from now, not negative
     * @return the deadline {@code timeout} from now
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public static Deadline after(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout < 0: " + timeout);
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            return NONE;
        }
        return new Deadline(System.nanoTime() + nanos, false);
    }

    /** @return whether this deadline never passes */
    public boolean isInfinite() {
        return infinite;
    }

    /** @return whether the deadline has passed */
    public boolean hasExpired() {
        return !infinite && endNanos - System.nanoTime() <= 0;
    }

    /** @return the nanoseconds left, at most 0 once passed; {@link Long#MAX_VALUE} if infinite */
    public long remainingNanos() {
        return infinite ? Long.MAX_VALUE : endNanos - System.nanoTime();
    }

    /** @return the milliseconds left, rounded up, at least 0; {@link Long#MAX_VALUE} if infinite */
    public long remainingMillis() {
        if (infinite) {
            return Long.MAX_VALUE;
        }
        long nanos = remainingNanos();
        return nanos <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(nanos + 999_999L);
    }

    /**
     * @param other another deadline
     * @return whichever of the two passes first
     */
    public Deadline earliest(Deadline other) {
        if (other.infinite) {
            return this;
        }
        if (infinite) {
            return other;
        }
        return endNanos - other.endNanos <= 0 ? this : other;
    }

    @Override
    public String toString() {
        return infinite ? "Deadline[none]" : "Deadline[" + remainingMillis() + " ms left]";
    }
}
