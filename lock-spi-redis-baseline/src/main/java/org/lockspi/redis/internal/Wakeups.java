package org.lockspi.redis.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wakes the waiting acquisitions of one backend, per lock: a release in this service, a message on the lock's
 * channel (any client's release), the confirmation of the subscription, or close.
 *
 * <p>Why pub/sub and not a blocking list ({@code BLPOP}): a blocked pop holds a connection per waiter (a pool of 16
 * would serve 16 waiters), a token pushed for a waiter that has gone stays behind for the next, and a release would
 * have to know how many to push; one subscriber connection carries the channels of every lock the service waits
 * for, and a message that is lost (a dropped connection) costs only latency, since every waiter still polls with
 * the back-off, at the latest after {@code retryMax}.
 *
 * <p>A lock's channel stays subscribed while some acquisition waits for it and for {@link #IDLE_NANOS} after, so
 * that a client taking turns on a lock does not subscribe and unsubscribe at every turn. Thread-safe.
 */
final class Wakeups implements ConnectionWatch.Listener {
    /** How long a channel nobody waits on stays subscribed. */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final ReentrantLock lock = new ReentrantLock(); // not a monitor: waiting virtual threads never pin
    private final Map<String, Signal> signals = new HashMap<>(); // guarded by lock
    private final ConnectionWatch watch;
    private boolean closed; // guarded by lock

    /** One lock's wake-ups: a counter that every wake-up raises. */
    final class Signal {
        final String channel;
        private final Condition changed = lock.newCondition();
        private long count; // guarded by lock
        private int waiters; // guarded by lock
        private long idleSince; // guarded by lock
        private boolean confirmed; // guarded by lock: the server confirmed the subscription

        private Signal(String channel) {
            this.channel = channel;
        }

        /** @return the wake-ups so far, to pass to {@link #await} after an attempt failed */
        long seen() {
            lock.lock();
            try {
                return count;
            } finally {
                lock.unlock();
            }
        }

        /**
         * @return -1 if the subscription is confirmed (the caller tries again at once: a release since its failed
         *         attempt may have been published before it joined), else the wake-ups so far (the confirmation
         *         will raise them)
         */
        long seenUnlessConfirmed() {
            lock.lock();
            try {
                return confirmed ? -1 : count;
            } finally {
                lock.unlock();
            }
        }

        /** Waits up to {@code nanos} unless a wake-up came after {@code seen}. */
        void await(long seen, long nanos) throws InterruptedException {
            lock.lock();
            try {
                long left = nanos;
                while (left > 0 && count == seen && !closed) {
                    left = changed.awaitNanos(left);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    Wakeups(ConnectionWatch watch) {
        this.watch = watch;
        watch.listener(this);
    }

    /**
     * An acquisition starts waiting for {@code channel}: subscribes to it unless it is already; the confirmation
     * then wakes the waiters (see {@link ConnectionWatch.Listener#subscribed}), which try once more, so a release
     * between their failed attempt and the subscription is not missed.
     */
    Signal join(String channel) {
        Signal signal;
        boolean subscribe = false;
        List<String> idle = new ArrayList<>();
        lock.lock();
        try {
            signal = signals.get(channel);
            if (signal == null) {
                signal = new Signal(channel);
                signals.put(channel, signal);
                subscribe = true;
            }
            signal.waiters++;
            long now = System.nanoTime();
            for (Iterator<Signal> it = signals.values().iterator(); it.hasNext(); ) {
                Signal other = it.next();
                if (other.waiters == 0 && now - other.idleSince > IDLE_NANOS) {
                    it.remove();
                    idle.add(other.channel);
                }
            }
        } finally {
            lock.unlock();
        }
        if (subscribe) {
            watch.listen(channel);
        }
        for (String ch : idle) {
            watch.unlisten(ch);
        }
        return signal;
    }

    /** An acquisition no longer waits (it acquired, timed out or failed). */
    void leave(Signal signal) {
        lock.lock();
        try {
            if (--signal.waiters == 0) {
                signal.idleSince = System.nanoTime();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes the waiters of {@code channel} in this service, if any. */
    void wake(String channel) {
        wake(channel, false);
    }

    private void wake(String channel, boolean confirming) {
        lock.lock();
        try {
            Signal signal = signals.get(channel);
            if (signal != null) {
                signal.confirmed |= confirming;
                signal.count++;
                signal.changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter for good: the backend closes. */
    void close() {
        lock.lock();
        try {
            closed = true;
            for (Signal signal : signals.values()) {
                signal.count++;
                signal.changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void message(String channel, String message) {
        wake(channel);
    }

    @Override
    public void subscribed(String channel) {
        wake(channel, true);
    }
}
