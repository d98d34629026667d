package org.lockspi.curator.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounds synchronous ZooKeeper requests: a thread arms it before the request and disarms it after; if the request is
 * still outstanding at the deadline, the watchdog interrupts the thread (a synchronous ZooKeeper call then throws
 * {@link InterruptedException}; the request itself may still reach the server). Its interrupt never outlives the
 * call: {@link #disarm} takes it back.
 *
 * <p>One daemon thread, started at the first {@link #arm}, ended by {@link #close()}. It sleeps until the earliest
 * deadline armed and is woken only when a new deadline is earlier than that, so a loop of bounded calls with one
 * bound costs it one wake-up per bound, not one per call.
 */
final class Watchdog implements AutoCloseable {
    private final String name;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<Ticket> armed = new ArrayList<>(); // guarded by lock
    /** When the thread wakes next; Long.MAX_VALUE while it waits for an arm. Guarded by lock. */
    private long wakeAt = Long.MAX_VALUE;
    private Thread thread; // guarded by lock
    private boolean closed; // guarded by lock

    /** One armed call. */
    static final class Ticket {
        private final Thread caller;
        private final long deadlineNanos;
        private boolean fired; // guarded by the watchdog's lock

        private Ticket(Thread caller, long deadlineNanos) {
            this.caller = caller;
            this.deadlineNanos = deadlineNanos;
        }
    }

    /** @param name the thread's name */
    Watchdog(String name) {
        this.name = name;
    }

    /**
     * Arms the watchdog for the calling thread.
     *
     * @param deadlineNanos the {@link System#nanoTime()} instant at which the call is cut short
     * @return the ticket for {@link #disarm}, or null if the watchdog is closed (then the caller must not make an
     *         unbounded call)
     */
    Ticket arm(long deadlineNanos) {
        lock.lock();
        try {
            if (closed) {
                return null;
            }
            Ticket ticket = new Ticket(Thread.currentThread(), deadlineNanos);
            armed.add(ticket);
            if (thread == null) {
                thread = new Thread(this::run, name);
                thread.setDaemon(true);
                thread.start();
            } else if (wakeAt == Long.MAX_VALUE || deadlineNanos - wakeAt < 0) {
                changed.signal();
            }
            return ticket;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Disarms a ticket, on the thread that armed it, and clears the interrupt if the watchdog sent one that the call
     * did not consume.
     *
     * @param ticket the ticket of {@link #arm}
     * @return whether the deadline passed (the watchdog interrupted the call)
     */
    boolean disarm(Ticket ticket) {
        boolean fired;
        lock.lock();
        try {
            armed.remove(ticket);
            fired = ticket.fired;
        } finally {
            lock.unlock();
        }
        if (fired) {
            Thread.interrupted(); // ours, if the call returned before it saw it
        }
        return fired;
    }

    /**
     * Cuts every armed call now, as if its deadline had passed: the connection is lost, and the calls would wait
     * for the client's next reconnection attempt to fail them.
     */
    void cutAll() {
        lock.lock();
        try {
            for (Ticket t : armed) {
                if (!t.fired) {
                    t.fired = true;
                    t.caller.interrupt();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        lock.lock();
        try {
            while (!closed) {
                long now = System.nanoTime();
                long next = Long.MAX_VALUE;
                for (Ticket t : armed) {
                    if (t.fired) {
                        continue;
                    }
                    if (now - t.deadlineNanos >= 0) {
                        t.fired = true;
                        t.caller.interrupt();
                    } else if (next == Long.MAX_VALUE || t.deadlineNanos - next < 0) {
                        next = t.deadlineNanos;
                    }
                }
                wakeAt = next;
                try {
                    if (next == Long.MAX_VALUE) {
                        changed.await();
                    } else {
                        changed.awaitNanos(next - now);
                    }
                } catch (InterruptedException e) {
                    return; // only close() interrupts
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends the thread and waits for it (briefly: it never blocks but on its condition). Idempotent. */
    @Override
    public void close() {
        Thread t;
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
            t = thread;
        } finally {
            lock.unlock();
        }
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
