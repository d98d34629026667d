package org.lockspi.tck.internal;

/** Keeps the first failure of a clean-up and attaches the later ones to it. */
public final class Failures {
    private Failures() {
    }

    /**
     * @param first the failure so far, or null
     * @param next  a new failure
     * @return {@code first} with {@code next} suppressed in it, or {@code next} if there was none
     */
    public static RuntimeException chain(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
