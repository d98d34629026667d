package org.lockspi.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.spi.Deadline;

/**
 * The local queue in front of the server for one exclusive thread-free lock of one service (a non-reentrant
 * mutex, a semaphore, a thread-free write half): as many acquisitions as the lock has permits go to the server,
 * the others wait here in FIFO order, since no more of one service's acquisitions could hold at once anyway. Ten
 * thousand waiters of one service thus cost the server one queue entry, not ten thousand. Waits on a
 * {@link Condition}, never a monitor, so a waiting virtual thread does not pin its carrier.
 */
final class LocalGate {
    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<Waiter> queue = new ArrayDeque<>(); // guarded by lock
    private int available; // guarded by lock
    private boolean closed; // guarded by lock

    private final class Waiter {
        final Condition turn = lock.newCondition();
        boolean admitted;
    }

    LocalGate(int permits) {
        this.available = permits;
    }

    /**
     * Enters, waiting in turn until the deadline.
     *
     * @param what what is acquired, for the closed-service message
     * @return whether it entered; false if the deadline passed first
     * @throws InterruptedException  if interrupted while waiting
     * @throws IllegalStateException if the gate is or gets closed (the service closed)
     */
    boolean enter(Deadline deadline, String what) throws InterruptedException {
        lock.lock();
        try {
            checkOpen(what);
            if (available > 0 && queue.isEmpty()) {
                available--;
                return true;
            }
            if (deadline.hasExpired()) {
                return false;
            }
            Waiter me = new Waiter();
            queue.addLast(me);
            boolean entered = false;
            try {
                while (!me.admitted) {
                    checkOpen(what);
                    if (deadline.isInfinite()) {
                        me.turn.await();
                    } else {
                        long left = deadline.remainingNanos();
                        if (left <= 0) {
                            return false;
                        }
                        me.turn.awaitNanos(left);
                    }
                }
                entered = true;
                return true;
            } finally {
                if (!entered) {
                    if (me.admitted) {
                        passOn(); // admitted as it gave up: the turn goes to the next
                    } else {
                        queue.remove(me);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Leaves: the next waiter enters, or the permit is free again. */
    void leave() {
        lock.lock();
        try {
            passOn();
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds lock. */
    private void passOn() {
        Waiter next = queue.pollFirst();
        if (next == null) {
            available++;
        } else {
            next.admitted = true;
            next.turn.signal();
        }
    }

    /** Fails every waiter with IllegalStateException, now and later. */
    void close() {
        lock.lock();
        try {
            closed = true;
            for (Waiter w : queue) {
                w.turn.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen(String what) {
        if (closed) {
            throw new IllegalStateException("lock service closed while waiting for " + what);
        }
    }
}
