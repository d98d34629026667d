package org.lockspi.redis.recipe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wakes the waiting acquisitions of one backend: a message on their lock's channel (a release anywhere), a
 * release in this service, the confirmation of the subscription, or close.
 *
 * <p>Why pub/sub and not a blocking list ({@code BLPOP}): a blocked pop holds a connection per waiter (a pool of 16
 * would serve 16 waiters), a token pushed for a waiter that has gone stays behind for the next, and a release would
 * have to know how many to push; one subscriber connection carries the channels of every lock the service waits
 * for, and a message that is lost (a dropped connection) costs only latency, since every waiter still polls with
 * the back-off, at the latest after {@code retryMax}.
 *
 * <p>A message names whom it wakes: an owner token wakes that waiter (first-come first-served: the head of the
 * queue), {@link #ALL} wakes every waiter of the lock, and an empty message wakes the one that has waited longest
 * in this service (a release frees one lock: one attempt per service is enough; a waiter that then acquires a
 * shared lease passes the wake-up on, since more may fit). So a release costs one attempt per waiting service,
 * not one per waiting thread.
 *
 * <p>A lock's channel stays subscribed while some acquisition waits for it and for {@link #IDLE_NANOS} after, so
 * that a client taking turns on a lock does not subscribe and unsubscribe at every turn. Thread-safe.
 */
final class Wakeups implements RedisWatch.Listener {
    /** How long a channel nobody waits on stays subscribed. */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** The message that wakes every waiter of the lock. */
    static final String ALL = "*";

    private final ReentrantLock lock = new ReentrantLock(); // not a monitor: waiting virtual threads never pin
    private final Map<String, Channel> channels = new HashMap<>(); // guarded by lock
    private final RedisWatch watch;
    private boolean closed; // guarded by lock

    /** One lock's channel and its waiters in this service, oldest first. */
    private static final class Channel {
        final String name;
        final Map<String, Waiter> waiters = new LinkedHashMap<>(); // by owner token; guarded by lock
        boolean confirmed; // guarded by lock: the server confirmed the subscription
        long idleSince; // guarded by lock

        Channel(String name) {
            this.name = name;
        }
    }

    /** One waiting acquisition. */
    final class Waiter {
        private final Channel channel;
        private final String token;
        private final Condition woken = lock.newCondition();
        private boolean pending; // guarded by lock: a wake-up not yet taken by await

        private Waiter(Channel channel, String token) {
            this.channel = channel;
            this.token = token;
        }

        /** Waits up to {@code nanos} unless a wake-up is pending; takes the wake-up. */
        void await(long nanos) throws InterruptedException {
            lock.lock();
            try {
                long left = nanos;
                while (left > 0 && !pending && !closed) {
                    left = woken.awaitNanos(left);
                }
                pending = false;
            } finally {
                lock.unlock();
            }
        }

        private void wake() {
            pending = true;
            woken.signal();
        }
    }

    Wakeups(RedisWatch watch) {
        this.watch = watch;
    }

    /**
     * An acquisition that failed starts waiting on {@code channel}: subscribes to it unless it is already. The
     * waiter has a wake-up pending at once if the subscription is confirmed (a release since its failed attempt
     * may have been published before it joined: it tries again at once), else the confirmation wakes it.
     */
    Waiter join(String channel, String token) {
        Waiter waiter;
        boolean subscribe = false;
        List<String> idle = new ArrayList<>();
        lock.lock();
        try {
            Channel ch = channels.get(channel);
            if (ch == null) {
                ch = new Channel(channel);
                channels.put(channel, ch);
                subscribe = true;
            }
            waiter = new Waiter(ch, token);
            waiter.pending = ch.confirmed;
            ch.waiters.put(token, waiter);
            long now = System.nanoTime();
            for (Iterator<Channel> it = channels.values().iterator(); it.hasNext(); ) {
                Channel other = it.next();
                if (other.waiters.isEmpty() && now - other.idleSince > IDLE_NANOS) {
                    it.remove();
                    idle.add(other.name);
                }
            }
        } finally {
            lock.unlock();
        }
        if (subscribe) {
            watch.listen(channel, true);
        }
        for (String ch : idle) {
            watch.listen(ch, false);
        }
        return waiter;
    }

    /** An acquisition no longer waits (it acquired, timed out or failed). */
    void leave(Waiter waiter) {
        lock.lock();
        try {
            Channel ch = waiter.channel;
            if (ch.waiters.remove(waiter.token) != null && ch.waiters.isEmpty()) {
                ch.idleSince = System.nanoTime();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wakes waiters of {@code channel} in this service: the one whose owner token {@code whom} is, all of them for
     * {@link #ALL}, or for {@code ""} the one that has waited longest without a wake-up pending.
     */
    void wake(String channel, String whom) {
        lock.lock();
        try {
            Channel ch = channels.get(channel);
            if (ch == null) {
                return;
            }
            if (whom.isEmpty()) {
                for (Waiter waiter : ch.waiters.values()) {
                    if (!waiter.pending) {
                        waiter.wake();
                        return;
                    }
                }
            } else if (whom.equals(ALL)) {
                ch.waiters.values().forEach(Waiter::wake);
            } else {
                Waiter waiter = ch.waiters.get(whom);
                if (waiter != null) {
                    waiter.wake();
                }
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
            for (Channel ch : channels.values()) {
                ch.waiters.values().forEach(Waiter::wake);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void message(String channel, String message) {
        wake(channel, message);
    }

    @Override
    public void dropped() {
        // the lease keeper acts on drops; a waiter keeps polling until its channel is subscribed again
    }

    @Override
    public void subscribed(String channel) {
        lock.lock();
        try {
            Channel ch = channels.get(channel);
            if (ch != null) {
                ch.confirmed = true;
                ch.waiters.values().forEach(Waiter::wake);
            }
        } finally {
            lock.unlock();
        }
    }
}
