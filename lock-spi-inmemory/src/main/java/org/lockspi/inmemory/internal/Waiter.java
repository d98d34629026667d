package org.lockspi.inmemory.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.spi.Deadline;

/**
 * How one waiting acquisition sleeps until the space wakes it: each waiting {@link Entry} has its own, so that a
 * release wakes only the entries it grants (herd-free). Both methods are called with the space's lock held.
 */
public interface Waiter {

    /**
     * Sleeps until {@link #wake()}, the deadline or an interrupt, releasing the space's lock meanwhile and holding
     * it again on return. May return early (a spurious wake-up): the caller looks at its entry again.
     *
     * @param deadline when to give up
     * @throws InterruptedException if the thread is interrupted (its flag cleared)
     */
    void await(Deadline deadline) throws InterruptedException;

    /** Wakes the sleeping thread, or makes its next {@link #await} return at once. */
    void wake();

    /** Frees what the waiter holds, once its acquisition has ended. */
    default void close() {
    }

    /** The standard waiter: a condition of the space's lock, so the thread parks. */
    final class Parked implements Waiter {
        private final Condition condition;

        /** @param spaceLock the space's lock */
        public Parked(ReentrantLock spaceLock) {
            this.condition = spaceLock.newCondition();
        }

        @Override
        public void await(Deadline deadline) throws InterruptedException {
            if (deadline.isInfinite()) {
                condition.await();
            } else {
                condition.await(Math.max(1, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void wake() {
            condition.signal();
        }
    }
}
