package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.spi.Deadline;

/**
 * One acquisition's wake-up call: the callback of its watches ({@link #run()}), and the nudge on close or session
 * loss. A signal given while nobody waits is kept for the next {@link #await}; spurious wake-ups are harmless, as
 * the wait loop looks again each time.
 */
final class Waiter implements Runnable {
    // a ReentrantLock, not a monitor: a virtual thread waiting here does not pin its carrier
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private boolean signalled; // guarded by lock

    @Override
    public void run() {
        lock.lock();
        try {
            signalled = true;
            woken.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return true when signalled; false when the deadline passed first */
    boolean await(Deadline deadline) throws InterruptedException {
        lock.lock();
        try {
            while (!signalled) {
                if (deadline.isInfinite()) {
                    woken.await();
                } else {
                    long left = deadline.remainingNanos();
                    if (left <= 0) {
                        return false;
                    }
                    woken.awaitNanos(left);
                }
            }
            signalled = false;
            return true;
        } finally {
            lock.unlock();
        }
    }
}
