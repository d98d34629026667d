package org.lockspi.micrometer.internal;

import org.lockspi.Lease;
import org.lockspi.LeaseState;

/**
 * What an instrumented view records of one lock (a name and a kind): each acquisition attempt, and each lease an
 * attempt hands out until it ends. Meters ({@link LockMeters}) and observations ({@link ObservedLock}) are probes.
 * Thread-safe.
 */
public interface LockProbe {

    /** @return a new attempt, begun now */
    Attempt attempt();

    /** One acquisition attempt: it ends exactly once, with a lease or without one. */
    interface Attempt {
        /**
         * The attempt got a lease.
         *
         * @param lease the lease acquired (the wrapped service's)
         * @return what watches the lease until it ends
         */
        Hold acquired(Lease lease);

        /**
         * The attempt ended without a lease.
         *
         * @param outcome  {@code TIMED_OUT}, {@code INTERRUPTED} or {@code FAILED}
         * @param failure  the exception, or null (a {@code tryAcquire} that found the lock held)
         */
        void ended(Outcome outcome, Throwable failure);
    }

    /** One lease, from its grant to its end. */
    interface Hold {
        /** The lease's state changed (a listener call: never {@code RELEASED}). */
        void transition(LeaseState current);

        /** The lease was released through the view (or its release failed after releasing it locally); once. */
        void released();

        /** The lease's service was closed through the view while it was held; once, and not after release. */
        void closed();
    }
}
