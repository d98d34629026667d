package org.lockspi.internal;

import java.time.Duration;
import java.util.Objects;
import org.lockspi.Acquirable;

/** The lock-name grammar and the timeout range, checked once here for every provider. */
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
     * Checks a lock name against the grammar documented on {@code LockService}.
     *
     * @param name the name
     * @return the name
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if it breaks the grammar; the message says which rule and shows the name
     */
    public static String check(String name) {
        Objects.requireNonNull(name, "lock name is null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("lock name is empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("lock name longer than " + MAX_LENGTH + " characters ("
                    + name.length() + "): '" + name + "'");
        }
        int segments = 1;
        int segmentStart = 0;
        for (int i = 0; i <= name.length(); i++) {
            char c = i < name.length() ? name.charAt(i) : '/';
            if (c == '/') {
                int length = i - segmentStart;
                if (length == 0) {
                    throw new IllegalArgumentException("lock name has an empty segment (a leading, trailing or "
                            + "double '/'): '" + name + "'");
                }
                if (length > MAX_SEGMENT_LENGTH) {
                    throw new IllegalArgumentException("lock name segment longer than " + MAX_SEGMENT_LENGTH
                            + " characters (" + length + "): '" + name + "'");
                }
                if (name.charAt(segmentStart) == '.') {
                    throw new IllegalArgumentException("lock name segment starts with '.': '" + name + "'");
                }
                if (i < name.length() && ++segments > MAX_SEGMENTS) {
                    throw new IllegalArgumentException("lock name has more than " + MAX_SEGMENTS + " segments: '"
                            + name + "'");
                }
                segmentStart = i + 1;
            } else if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '_' || c == '-' || c == '.')) {
                throw new IllegalArgumentException("lock name has a character outside [A-Za-z0-9_.-/] at index "
                        + i + ": '" + name + "'");
            }
        }
        return name;
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
}
