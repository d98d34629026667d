package org.lockspi.jdbc.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where waiting acquisitions of one backend sleep, one signal per lock: a release by this backend wakes the lock's
 * waiters at once, and on PostgreSQL a {@link PgListener} wakes them on other clients' releases ({@code NOTIFY}).
 * Waits are on a {@code java.util.concurrent} condition, not a monitor, so a virtual thread does not pin.
 */
final class Wakeups implements AutoCloseable {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Signal> signals = new HashMap<>(); // guarded by lock
    private final PgListener listener; // null: no wake-ups from the database
    private boolean closed; // guarded by lock

    /** The waiters of one lock. */
    private final class Signal {
        final Condition changed = lock.newCondition();
        final java.util.List<Waiter> members = new java.util.ArrayList<>();
        /** Counts the wake-ups of every waiter of the lock. */
        long generation;
    }

    /** One waiting acquisition's place. */
    final class Waiter {
        final String lockId;
        final String id;
        private long seen;
        /** Woken by name (a release that grants it), guarded by lock. */
        private boolean called;

        private Waiter(String lockId, String id, long seen) {
            this.lockId = lockId;
            this.id = id;
            this.seen = seen;
        }

        /**
         * Sleeps until the lock is signalled (since the last return), the time passes, or the backend closes.
         *
         * @throws InterruptedException if the thread is interrupted
         */
        void await(long nanos) throws InterruptedException {
            lock.lockInterruptibly();
            try {
                Signal s = signals.get(lockId);
                long left = nanos;
                while (!closed && s.generation == seen && !called && left > 0) {
                    left = s.changed.awaitNanos(left);
                }
                seen = s.generation;
                called = false;
            } finally {
                lock.unlock();
            }
        }
    }

    /** @param listener the database's wake-ups, or null */
    Wakeups(PgListener listener) {
        this.listener = listener;
        if (listener != null) {
            listener.start(this);
        }
    }

    /**
     * @param id the acquisition's id, by which a release may wake it alone
     * @return a place among the lock's waiters; the first one makes the listener listen for the lock
     */
    Waiter join(String lockId, String id) {
        boolean first;
        Waiter w;
        lock.lock();
        try {
            Signal s = signals.computeIfAbsent(lockId, k -> new Signal());
            first = s.members.isEmpty();
            w = new Waiter(lockId, id, s.generation);
            s.members.add(w);
        } finally {
            lock.unlock();
        }
        if (first && listener != null) {
            listener.listen(lockId);
        }
        return w;
    }

    void leave(Waiter w) {
        boolean last = false;
        lock.lock();
        try {
            Signal s = signals.get(w.lockId);
            if (s != null && s.members.remove(w) && s.members.isEmpty()) {
                signals.remove(w.lockId);
                last = true;
            }
        } finally {
            lock.unlock();
        }
        if (last && listener != null) {
            listener.unlisten(w.lockId);
        }
    }

    /** Wakes the lock's waiters in this backend. */
    void wake(String lockId) {
        wake(lockId, "");
    }

    /**
     * Wakes some of the lock's waiters in this backend.
     *
     * @param ids the ids of the waiters to wake, comma separated; {@code ""} for all; null for none
     */
    void wake(String lockId, String ids) {
        if (ids == null) {
            return;
        }
        lock.lock();
        try {
            Signal s = signals.get(lockId);
            if (s == null) {
                return;
            }
            if (ids.isEmpty()) {
                s.generation++;
            } else {
                java.util.Set<String> named = java.util.Set.of(ids.split(","));
                boolean any = false;
                for (Waiter w : s.members) {
                    if (named.contains(w.id)) {
                        w.called = true;
                        any = true;
                    }
                }
                if (!any) {
                    return;
                }
            }
            s.changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter (the listener reconnected and may have missed messages). */
    void wakeAll() {
        lock.lock();
        try {
            for (Signal s : signals.values()) {
                s.generation++;
                s.changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return the locks that have waiters here, for a listener that (re)connects */
    java.util.List<String> waitedFor() {
        lock.lock();
        try {
            return java.util.List.copyOf(signals.keySet());
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter for good and stops the listener. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            for (Signal s : signals.values()) {
                s.changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (listener != null) {
            listener.close();
        }
    }
}
