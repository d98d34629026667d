package org.lockspi.spring.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The starter's log of runs and calls skipped because the lock server failed: one WARN line for the first skip of
 * an outage, the skips after it at DEBUG and counted, and one INFO line with that count once an acquisition is
 * granted again. A job fired every 200 ms then costs an outage one line, not five a second.
 *
 * <p>Thread-safe; one per application (its interceptor). "An outage" is seen from the acquisitions alone: it begins
 * with a skip after a grant (or the first skip ever) and ends with the next grant, the server's proof that it
 * serves again (a wait that merely timed out is none: it may have started before the drop), so nothing here
 * listens to the service or keeps a thread.
 */
final class OutageSkips {
    private static final System.Logger LOG = System.getLogger(LockspiInterceptor.class.getName());

    /** Skips since the last grant; -1 while none is counted (no outage under way). */
    private final AtomicLong skips = new AtomicLong(-1);

    /**
     * A run or call skipped because the lock server failed.
     *
     * @param what   the method, as the log shows it
     * @param lock   the lock's name
     * @param reason the failure on one line
     */
    void skipped(String what, String lock, String reason) {
        if (skips.getAndUpdate(n -> n < 0 ? 1 : n + 1) < 0) { // the outage's first skip
            LOG.log(System.Logger.Level.WARNING, "skipped {0}: lock ''{1}'' not acquired, the lock server failed: "
                    + "{2} (the skips after this one are logged at DEBUG and counted until a lock is granted again)",
                    what, lock, reason);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "skipped {0}: lock ''{1}'' not acquired, the lock server failed: {2}",
                    what, lock, reason);
        }
    }

    /** An acquisition was granted: an outage under way has ended. */
    void granted() {
        if (skips.get() < 0) {
            return; // the common case: no outage, one volatile read
        }
        long n = skips.getAndSet(-1);
        if (n > 0) { // the first skip's WARN line included
            LOG.log(System.Logger.Level.INFO, "the lock server grants again; {0} run(s) or call(s) skipped while it "
                    + "failed", n);
        }
    }
}
