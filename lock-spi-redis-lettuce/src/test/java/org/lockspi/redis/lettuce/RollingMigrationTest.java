package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.redis.recipe.tck.RedisFixture;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;

/**
 * A rolling migration under load: a fleet of four instances (each a service of its own, two threads each) works on
 * one mutex without pause while the instances are replaced one at a time from Jedis ({@code redis-baseline}) to
 * Lettuce ({@code redis-lettuce}), then back to Jedis, as a deployment would: an instance stops (its threads finish
 * their turn, its service closes) and a new one on the other library starts. The next swap waits until the fleet
 * has made progress since the last one. The guarded resource never sees two holders, tokens only grow, and every
 * instance of every phase acquired the lock.
 */
@Timeout(180)
class RollingMigrationTest {
    private static final int INSTANCES = 4;
    /** Acquisitions the fleet makes between two swaps. */
    private static final int BETWEEN_SWAPS = 40;

    /** One running instance: its service and its two worker threads. */
    private final class Instance {
        final LockService service;
        final String who;
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Future<Void>> threads = new ArrayList<>();

        Instance(LockProvider provider, int slot, int generation) {
            service = redis.open(provider);
            who = provider.name() + "@" + slot + "." + generation;
            for (int t = 0; t < 2; t++) {
                threads.add(workers.submit(() -> {
                    while (!stop.get()) {
                        try (Lease lease = service.mutex(LOCK).acquire(Duration.ofSeconds(30))) {
                            guarded.enterExclusive(who, lease.fencingToken());
                            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // the guarded work
                            guarded.exitExclusive();
                        }
                        total.incrementAndGet();
                        byInstance.merge(who, 1L, Long::sum);
                    }
                    return null;
                }));
            }
        }

        /** Stops as a deployment stops an instance: the threads finish their turn, then the service closes. */
        void stop() throws Exception {
            stop.set(true);
            for (Future<Void> thread : threads) {
                thread.get(60, TimeUnit.SECONDS);
            }
            service.close();
        }
    }

    private static final String LOCK = "rolling-" + ProcessHandle.current().pid();
    @RegisterExtension
    static final RedisFixture redis = new RedisFixture();

    private Workers workers;
    private final Occupancy guarded = new Occupancy(0);
    private final AtomicLong total = new AtomicLong();
    private final Map<String, Long> byInstance = new ConcurrentHashMap<>();

    @Test
    void jedisToLettuceToJedisUnderLoadWithoutOverlap() throws Exception {
        LockProvider jedis = new RedisLockProvider();
        LockProvider lettuce = new RedisLettuceLockProvider();
        workers = new Workers(2 * INSTANCES + 2);
        List<Instance> fleet = new ArrayList<>();
        int generation = 0;
        try {
            for (int slot = 0; slot < INSTANCES; slot++) {
                fleet.add(new Instance(jedis, slot, generation));
            }
            for (LockProvider to : List.of(lettuce, jedis)) {
                generation++;
                for (int slot = 0; slot < INSTANCES; slot++) {
                    awaitProgress();
                    fleet.get(slot).stop();
                    fleet.set(slot, new Instance(to, slot, generation));
                }
            }
            awaitProgress();
        } finally {
            for (Instance instance : fleet) {
                instance.stop();
            }
            workers.close();
        }
        assertEquals(List.of(), guarded.violations(), "the guarded resource saw overlaps or a token going back");
        assertEquals(total.get(), guarded.entries());
        // every instance of every generation worked: the fleet was mixed, and each library held the lock in turn
        assertEquals(3 * INSTANCES, byInstance.size(), "instances that acquired: " + byInstance);
        System.out.printf("rolling migration: %d acquisitions, by instance %s%n", total.get(), byInstance);
        assertTrue(byInstance.keySet().stream().anyMatch(k -> k.startsWith("redis-lettuce@")), byInstance.toString());
    }

    /** Waits until the fleet acquired {@link #BETWEEN_SWAPS} more times. */
    private void awaitProgress() {
        long target = total.get() + BETWEEN_SWAPS;
        Poll.until("fleet progress", true, () -> total.get() >= target, Duration.ofSeconds(60));
    }
}
