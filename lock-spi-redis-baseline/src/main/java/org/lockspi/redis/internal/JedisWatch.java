package org.lockspi.redis.internal;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import org.lockspi.redis.recipe.RedisWatch;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The {@link RedisWatch} of Jedis: one connection that stays subscribed to a channel nobody publishes on, so that its thread is always reading:
 * when the server closes its connections (it stops, restarts, or kills clients) the read ends at once, and
 * the listener's {@code dropped} runs, long before the next renewal would have noticed. It sees nothing of a silent partition
 * (no packet arrives); the renewals cover that. The address is asked again at each connection (the current
 * master of a Sentinel deployment). After a drop it reconnects with a back-off from {@code first}
 * doubling to {@code max}, until closed.
 *
 * <p>The same connection carries the service's lock channels ({@link #listen}): one subscriber connection for all
 * the locks the service waits for, whatever their number. The messages go to the {@link Listener}; after a
 * reconnection every channel is subscribed again (a message sent meanwhile is lost: the waiters' polling covers
 * that).
 *
 * <p>Threads: one daemon thread of its own; the listener runs on it and must not block for long.
 * {@link #listen} and {@link #unlisten} may be called from any thread.
 */
final class JedisWatch implements RedisWatch {
    private static final System.Logger LOG = System.getLogger(JedisWatch.class.getName());

    private final Supplier<HostAndPort> address;
    private final DefaultJedisClientConfig config;
    private final String channel;
    private final long firstMillis;
    private final long maxMillis;
    private final RedisWatch.Listener listener;
    private final Thread thread;
    private final Object lock = new Object();
    private Jedis current; // guarded by lock
    private boolean closed; // guarded by lock

    /** Guards {@link #channels} and the subscription commands sent from other threads than the watch thread. */
    private final ReentrantLock sending = new ReentrantLock(); // not a monitor: callers may be virtual threads
    private final Set<String> channels = new LinkedHashSet<>(); // guarded by sending
    private JedisPubSub subscriber; // guarded by sending; the current connection's, once it is subscribed

    JedisWatch(Supplier<HostAndPort> address, DefaultJedisClientConfig config, String channel,
               java.time.Duration first, java.time.Duration max, RedisWatch.Listener listener) {
        this.address = address;
        this.config = config;
        this.channel = channel;
        this.firstMillis = Math.max(1, first.toMillis());
        this.maxMillis = Math.max(firstMillis, max.toMillis());
        this.listener = listener;
        this.thread = new Thread(this::run, "lockspi-redis-watch-" + address.get());
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long pause = firstMillis;
        while (true) {
            boolean[] subscribed = {false};
            Jedis jedis = null;
            try {
                Jedis connecting = new Jedis(address.get(), config); // connects here; follows a failover
                synchronized (lock) {
                    current = connecting;
                    if (closed) {
                        connecting.close();
                        return;
                    }
                }
                jedis = connecting;
                // Blocks, reading with no timeout, until the connection ends.
                jedis.subscribe(new JedisPubSub() {
                    @Override
                    public void onSubscribe(String ch, int count) {
                        if (ch.equals(channel)) {
                            subscribed[0] = true;
                            attach(this);
                        } else {
                            listener.subscribed(ch);
                        }
                    }

                    @Override
                    public void onMessage(String ch, String message) {
                        // nobody publishes on the watch channel; the lock channels wake waiters
                        if (!ch.equals(channel)) {
                            listener.message(ch, message);
                        }
                    }
                }, channel);
            } catch (JedisException | IllegalStateException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "watch connection to " + address.get() + " ended", e);
            } finally {
                detach();
                if (jedis != null) {
                    jedis.close();
                }
            }
            synchronized (lock) {
                if (closed) {
                    return;
                }
            }
            if (subscribed[0]) {
                pause = firstMillis;
                listener.dropped(); // a connection that never came up dropped nothing; the renewals probe meanwhile
            } else {
                pause = Math.min(pause * 2, maxMillis);
            }
            try {
                synchronized (lock) {
                    if (!closed) {
                        lock.wait(pause);
                    }
                }
            } catch (InterruptedException e) {
                return; // only close() interrupts
            }
        }
    }

    @Override
    public void listen(String ch, boolean add) {
        sending.lock();
        try {
            if (!(add ? channels.add(ch) : channels.remove(ch)) || subscriber == null) {
                return;
            }
            try {
                if (add) {
                    subscriber.subscribe(ch);
                } else {
                    subscriber.unsubscribe(ch);
                }
            } catch (JedisException e) {
                // the connection is ending: the watch thread reconnects and subscribes the channels again
                LOG.log(System.Logger.Level.DEBUG, () -> "cannot (un)subscribe " + ch + " on " + address.get(), e);
            }
        } finally {
            sending.unlock();
        }
    }

    /** The connection is subscribed: subscribe the lock channels too, and send later changes on it. */
    private void attach(JedisPubSub pubsub) {
        sending.lock();
        try {
            subscriber = pubsub;
            if (!channels.isEmpty()) {
                pubsub.subscribe(channels.toArray(new String[0]));
            }
        } finally {
            sending.unlock();
        }
    }

    private void detach() {
        sending.lock();
        try {
            subscriber = null;
        } finally {
            sending.unlock();
        }
    }

    /** Stops the thread and closes its connection; idempotent. */
    @Override
    public void close() {
        Jedis jedis;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            jedis = current;
            lock.notifyAll();
        }
        if (jedis != null) {
            try {
                jedis.disconnect(); // ends the blocking read
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
        thread.interrupt();
    }
}
