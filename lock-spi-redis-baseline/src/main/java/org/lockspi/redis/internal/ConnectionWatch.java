package org.lockspi.redis.internal;

import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One connection that stays subscribed to a channel nobody publishes on, so that its thread is always reading:
 * when the server closes its connections (it stops, restarts, or kills clients) the read ends at once, and
 * {@code onDrop} runs, long before the next renewal would have noticed. It sees nothing of a silent partition
 * (no packet arrives); the renewals cover that. The address is asked again at each connection (the current
 * master of a Sentinel deployment). After a drop it reconnects with a back-off from {@code first}
 * doubling to {@code max}, until closed.
 *
 * <p>Threads: one daemon thread of its own; {@code onDrop} runs on it and must not block for long.
 */
final class ConnectionWatch implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ConnectionWatch.class.getName());

    private final Supplier<HostAndPort> address;
    private final DefaultJedisClientConfig config;
    private final String channel;
    private final long firstMillis;
    private final long maxMillis;
    private final Runnable onDrop;
    private final Thread thread;
    private final Object lock = new Object();
    private Jedis current; // guarded by lock
    private boolean closed; // guarded by lock

    ConnectionWatch(Supplier<HostAndPort> address, DefaultJedisClientConfig config, String channel,
                    java.time.Duration first, java.time.Duration max, Runnable onDrop) {
        this.address = address;
        this.config = config;
        this.channel = channel;
        this.firstMillis = Math.max(1, first.toMillis());
        this.maxMillis = Math.max(firstMillis, max.toMillis());
        this.onDrop = onDrop;
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
                        subscribed[0] = true;
                    }

                    @Override
                    public void onMessage(String ch, String message) {
                        // nobody publishes here; the subscription only keeps a read pending
                    }
                }, channel);
            } catch (JedisException | IllegalStateException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "watch connection to " + address.get() + " ended", e);
            } finally {
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
                onDrop.run(); // a connection that never came up dropped nothing; the renewals probe meanwhile
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
