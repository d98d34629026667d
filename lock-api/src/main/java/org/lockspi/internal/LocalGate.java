package org.lockspi.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.spi.Deadline;

/**
 * The local queue in front of the server for one exclusive lock of one service (a mutex, a non-reentrant
 * mutex, a semaphore, a write half, thread-owned or thread-free): as many acquisitions as the lock has permits go to the server,
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

    /** A place in the queue, taken by {@link #reserve}: used by {@link #await} or given back by {@link #cancel}. */
    static final class Ticket {
        private final Waiter waiter; // null: a permit was free, the holder entered at once

        private Ticket(Waiter waiter) {
            this.waiter = waiter;
        }
    }

    /**
     * Takes a place in the queue now, without waiting, so that acquisitions enter in the order they asked (an
     * asynchronous one asks in its caller's thread, before its own thread starts).
     *
     * @param what what is acquired, for the closed-service message
     * @return the place; pass it to {@link #await} or {@link #cancel}, exactly once
     * @throws IllegalStateException if the gate is closed (the service closed)
     */
    Ticket reserve(String what) {
        lock.lock();
        try {
            checkOpen(what);
            if (available > 0 && queue.isEmpty()) {
                available--;
                return new Ticket(null);
            }
            Waiter me = new Waiter();
            queue.addLast(me);
            return new Ticket(me);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the ticket's turn until the deadline. On every way out but entering, the place is given back.
     *
     * @param ticket the place taken by {@link #reserve}
     * @param what   what is acquired, for the closed-service message
     * @return whether it entered; false if the deadline passed first
     * @throws InterruptedException  if interrupted while waiting
     * @throws IllegalStateException if the gate is or gets closed (the service closed)
     */
    boolean await(Ticket ticket, Deadline deadline, String what) throws InterruptedException {
        Waiter me = ticket.waiter;
        if (me == null) {
            return true;
        }
        lock.lock();
        try {
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
                    giveBack(me);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Gives a place back that will not be awaited (the acquisition ended before it waited). */
    void cancel(Ticket ticket) {
        lock.lock();
        try {
            if (ticket.waiter == null) {
                passOn(); // the permit it entered with
            } else {
                giveBack(ticket.waiter);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds lock. */
    private void giveBack(Waiter me) {
        if (me.admitted) {
            passOn(); // admitted as it gave up: the turn goes to the next
        } else {
            queue.remove(me);
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

    /** @return the acquisitions waiting here, not yet let through to the server */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
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
