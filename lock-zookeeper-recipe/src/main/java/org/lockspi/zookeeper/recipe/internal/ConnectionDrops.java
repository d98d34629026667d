package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The drops of one client's connection, counted, so that a release waiting for its delete stops waiting at the next
 * drop: the request may then wait for the client's next reconnection attempt, seconds, and the delete is left to the
 * reconnection. Used by the recipe's releases and by the Curator provider's.
 *
 * <p>Thread-safe; waiters park on a {@link ReentrantLock}'s condition, so a virtual thread does not pin its carrier.
 */
public final class ConnectionDrops {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long drops; // guarded by lock

    /** @return how many times the connection dropped so far: the {@code since} of a later {@link #await} */
    public long count() {
        lock.lock();
        try {
            return drops;
        } finally {
            lock.unlock();
        }
    }

    /** The connection dropped: every wait ends. */
    public void dropped() {
        lock.lock();
        try {
            drops++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** What a wait waits for may have happened: the waits look again. */
    public void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@code done} holds (looked at again on each {@link #wake()}), the connection drops after
     * {@code since}, or {@code endNanos} passes.
     *
     * @param done     what the caller waits for; cheap, never blocks
     * @param since    {@link #count()} read before the work waited for began
     * @param endNanos the {@link System#nanoTime()} instant at which the wait gives up
     * @return true once {@code done} holds, false if the connection dropped first
     * @throws TimeoutException     at {@code endNanos}
     * @throws InterruptedException if the thread is interrupted
     */
    public boolean await(BooleanSupplier done, long since, long endNanos)
            throws InterruptedException, TimeoutException {
        lock.lock();
        try {
            while (!done.getAsBoolean()) {
                if (drops != since) {
                    return false;
                }
                long left = endNanos - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException();
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
