package org.lockspi.internal;

import java.time.Duration;
import java.util.Objects;
import org.lockspi.Acquirable;

/** The readable form of lock names and the timeout range, checked once here for every provider. */
public final class Names {
    /** Longest name, in characters. */
    public static final int MAX_LENGTH = 255;
    /** Most segments in a name. */
    public static final int MAX_SEGMENTS = 8;
    /** Longest segment, in characters. */
    public static final int MAX_SEGMENT_LENGTH = 64;

    private Names() {
    }

    /**
     * Whether a name has the readable form, which is its own backend key (see {@code org.lockspi.spi.LockKeys}):
     * one to eight segments separated by {@code '/'}, each 1 to 64 characters from {@code [A-Za-z0-9_.-]}, not
     * starting with {@code '.'}; at most 255 characters.
     *
     * @param name the name, not null
     * @return true if it has the readable form
     */
    public static boolean isReadable(String name) {
        int length = name.length();
        if (length == 0 || length > MAX_LENGTH) {
            return false;
        }
        int segments = 1;
        int segmentStart = 0;
        for (int i = 0; i <= length; i++) {
            char c = i < length ? name.charAt(i) : '/';
            if (c == '/') {
                int segment = i - segmentStart;
                if (segment == 0 || segment > MAX_SEGMENT_LENGTH || name.charAt(segmentStart) == '.'
                        || i < length && ++segments > MAX_SEGMENTS) {
                    return false;
                }
                segmentStart = i + 1;
            } else if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '_' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks a timeout against {@code [0, Acquirable.MAX_TIMEOUT]}.
     *
     * @param timeout the timeout
     * @return the timeout
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if it is negative or too long
     */
    public static Duration checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout < 0: " + timeout);
        }
        if (timeout.compareTo(Acquirable.MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("timeout > " + Acquirable.MAX_TIMEOUT + ": " + timeout);
        }
        return timeout;
    }

    /**
     * Checks a lease time against {@code (0, Acquirable.MAX_LEASE_TIME]}.
     *
     * @param leaseTime the lease time
     * @return the lease time
     * @throws NullPointerException     if {@code leaseTime} is null
     * @throws IllegalArgumentException if it is zero, negative or too long
     */
    public static Duration checkLeaseTime(Duration leaseTime) {
        Objects.requireNonNull(leaseTime, "leaseTime is null");
        if (leaseTime.isNegative() || leaseTime.isZero()) {
            throw new IllegalArgumentException("leaseTime <= 0: " + leaseTime);
        }
        if (leaseTime.compareTo(Acquirable.MAX_LEASE_TIME) > 0) {
            throw new IllegalArgumentException("leaseTime > " + Acquirable.MAX_LEASE_TIME + ": " + leaseTime);
        }
        return leaseTime;
    }
}
