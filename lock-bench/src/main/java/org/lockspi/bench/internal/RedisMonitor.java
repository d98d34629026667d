package org.lockspi.bench.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Counts the commands clients send to redis-server around a piece of work, through {@code MONITOR}: unlike
 * {@code INFO commandstats}, it tells a client's command (one round trip, or one pipelined command) from one that
 * a Lua script runs ({@code [0 lua]}). MONITOR slows the server down, so it runs only around counting blocks,
 * never around timed ones. Other clients' commands in the window count too: run nothing else meanwhile.
 */
final class RedisMonitor {
    /** Work to count the commands of. */
    interface Work {
        void run() throws Exception;
    }

    private RedisMonitor() {
    }

    /** @return the commands clients sent while {@code work} ran, without those run by Lua scripts */
    static long clientCommands(int port, Work work) throws Exception {
        String marker = "bench-monitor-" + System.nanoTime();
        AtomicBoolean counting = new AtomicBoolean();
        AtomicLong count = new AtomicLong();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        Jedis monitor = new Jedis("127.0.0.1", port);
        Thread reader = new Thread(() -> {
            try {
                monitor.monitor(new JedisMonitor() {
                    @Override
                    public void onCommand(String command) {
                        if (command.contains(marker + "-start")) {
                            counting.set(true);
                            started.countDown();
                        } else if (command.contains(marker + "-end")) {
                            counting.set(false);
                            ended.countDown();
                        } else if (counting.get() && !command.contains(" lua]")) {
                            count.incrementAndGet();
                        }
                    }
                });
            } catch (JedisException closed) {
                // the connection was closed to end the monitor
            }
        }, "bench-redis-monitor");
        reader.setDaemon(true);
        reader.start();
        try (Jedis control = new Jedis("127.0.0.1", port)) {
            // MONITOR shows only what comes after it took effect: repeat the start marker until it is seen
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            do {
                control.echo(marker + "-start");
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("MONITOR showed no command within 10 s");
                }
            } while (!started.await(20, TimeUnit.MILLISECONDS));
            work.run();
            control.echo(marker + "-end");
            if (!ended.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("MONITOR did not show the end marker within 10 s");
            }
        } finally {
            monitor.close();
            reader.join(10_000);
        }
        return count.get();
    }
}
