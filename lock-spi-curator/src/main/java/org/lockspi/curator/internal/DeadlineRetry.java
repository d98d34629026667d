package org.lockspi.curator.internal;

import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;
import org.lockspi.spi.Deadline;

/**
 * The client's retry policy, cut short by the deadline of the acquisition running on the calling thread: Curator
 * retries each operation of a recipe on its own, which during an outage would keep a timed acquisition far past
 * its deadline. Clean-up after the deadline is not retried here; Curator's guaranteed deletes retry it in the
 * background.
 */
final class DeadlineRetry implements RetryPolicy {
    private static final ThreadLocal<Deadline> CURRENT = new ThreadLocal<>();

    private final RetryPolicy policy;

    DeadlineRetry(RetryPolicy policy) {
        this.policy = policy;
    }

    /** Runs on the calling thread until {@link #clear()}. */
    static void begin(Deadline deadline) {
        CURRENT.set(deadline);
    }

    static void clear() {
        CURRENT.remove();
    }

    @Override
    public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
        Deadline deadline = CURRENT.get();
        if (deadline != null && deadline.hasExpired()) {
            return false;
        }
        return policy.allowRetry(retryCount, elapsedTimeMs, sleeper);
    }

    @Override
    public boolean allowRetry(Throwable exception) {
        return policy.allowRetry(exception);
    }

    @Override
    public String toString() {
        return "DeadlineRetry[" + policy + "]";
    }
}
