package org.lockspi.micrometer.internal;

import java.util.Locale;
import java.util.concurrent.CancellationException;
import org.lockspi.LockTimeoutException;

/** How an acquisition attempt ended. */
enum Outcome {
    ACQUIRED, TIMED_OUT, INTERRUPTED, FAILED;

    /** @return the tag value: {@code acquired}, {@code timed_out}, {@code interrupted}, {@code failed} */
    String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the outcome of an attempt that threw {@code failure} */
    static Outcome of(Throwable failure) {
        if (failure instanceof LockTimeoutException) {
            return TIMED_OUT;
        }
        if (failure instanceof InterruptedException || failure instanceof CancellationException) {
            return INTERRUPTED;
        }
        return FAILED;
    }
}
