package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockspi.Lease;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.redis.recipe.tck.RedisFixture;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * No key left behind (in the {@code topologies} profile: about a minute on two cores): 100,000 distinct lock names
 * (non-reentrant mutexes, read locks and semaphore permits; half through Jedis, half through Lettuce) are each
 * acquired and released once, the last 100 one after another; each of those has its fencing counter right after,
 * expiring within {@code 2 leaseTime}; within the stated bound ({@code max(2 leaseTime, leaseTime + 2 retryMax)}
 * after the last release: 6 s here, plus the server's own expiry sweep) the key count is back to what it was
 * before. Inspection and listing work meanwhile. It prints the key count before, its peak (sampled), right after
 * the last release, and how long after it the count was back.
 */
@Timeout(300)
class KeyExpirySoakTest {
    private static final int NAMES = 100_000;
    private static final String PARAMETERS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s&retryMax=250ms";
    /**
     * max(2 leaseTime, leaseTime + 2 retryMax): the longest a key of a lock outlives its last holder or waiter (the
     * fencing counter expires 2 leaseTime after the last grant, a waiter's marks leaseTime + 2 retryMax after its
     * last attempt).
     */
    private static final Duration BOUND = Duration.ofMillis(Math.max(2 * 3_000, 3_000 + 2 * 250));
    /** How late Redis's active expiry may remove a key past its time (it samples expiring keys ten times a second). */
    private static final Duration SWEEP = Duration.ofSeconds(5);

    /** Names used one after another at the end, whose counters the test looks at. */
    private static final int LAST = 100;

    /** Acquires and releases the name once, as a non-reentrant mutex, a read lock or a semaphore permit. */
    private static void useOnce(LockService service, String name, int i) throws InterruptedException {
        Lease lease = switch (i % 3) {
            case 0 -> service.nonReentrantMutex(name).acquire(Duration.ofSeconds(5));
            case 1 -> service.readWriteLock(name).readLock().acquire(Duration.ofSeconds(5));
            default -> service.semaphore(name, 2).acquire(Duration.ofSeconds(5));
        };
        lease.release();
    }

    @RegisterExtension
    static final RedisFixture fixture = new RedisFixture();

    private static long dbsize(EmbeddedRedisBackend redis) {
        return (Long) redis.command("DBSIZE");
    }

    @Test
    void aHundredThousandNamesLeaveNoKeyBehindPastTheBound() throws Exception {
        LockService jedis = fixture.open(new RedisLockProvider(), PARAMETERS);
        LockService lettuce = fixture.open(new RedisLettuceLockProvider(), PARAMETERS);
        EmbeddedRedisBackend redis = fixture.server();
        long baseline = dbsize(redis);
        String prefix = "expiry-" + ProcessHandle.current().pid() + "/";

        // while held: inspection and listing see the locks
        try (Lease a = jedis.mutex(prefix + "held-a").acquire(Duration.ofSeconds(5));
             Lease b = lettuce.semaphore(prefix + "held-b", 3).acquire(Duration.ofSeconds(5))) {
            LockInfo info = lettuce.inspect(prefix + "held-a");
            assertEquals(1, info.holders().size(), info.toString());
            assertEquals(a.fencingToken(), info.holders().get(0).fencingToken().getAsLong());
            assertEquals(List.of(prefix + "held-a", prefix + "held-b"),
                    jedis.list(prefix).stream().sorted().toList());
        }

        long start = System.nanoTime();
        int threads = 8;
        AtomicLong peak = new AtomicLong(baseline);
        AtomicBoolean running = new AtomicBoolean(true);
        long[] finished = new long[threads];
        try (Workers workers = new Workers(threads + 1)) {
            // the key count while the names are used, sampled every 100 ms: its peak
            Future<Void> sampler = workers.submit(() -> {
                while (running.get()) {
                    peak.accumulateAndGet(dbsize(redis), Math::max);
                    Thread.sleep(100); // a sampling period, not a wait for an event
                }
                return null;
            });
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                LockService service = t % 2 == 0 ? jedis : lettuce;
                done.add(workers.submit(() -> {
                    for (int i = first; i < NAMES - LAST; i += threads) {
                        useOnce(service, prefix + i, i);
                    }
                    finished[first] = System.nanoTime() - start;
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get(240, TimeUnit.SECONDS);
            }
            // the last names one after another, alternating the libraries: their counters are seen right after
            for (int i = NAMES - LAST; i < NAMES; i++) {
                useOnce(i % 2 == 0 ? jedis : lettuce, prefix + i, i);
            }
            running.set(false);
            sampler.get(10, TimeUnit.SECONDS);
        }
        long released = System.nanoTime();
        long after = dbsize(redis);
        peak.accumulateAndGet(after, Math::max);
        System.out.printf("key expiry: Jedis threads done after %s ms, Lettuce threads after %s ms%n",
                LongStream.range(0, threads).filter(t -> t % 2 == 0).map(t -> finished[(int) t] / 1_000_000)
                        .boxed().toList(),
                LongStream.range(0, threads).filter(t -> t % 2 == 1).map(t -> finished[(int) t] / 1_000_000)
                        .boxed().toList());
        // each of the last names left its counter, which expires within 2 leaseTime
        for (int i = NAMES - LAST; i < NAMES; i++) {
            String fence = "lockspi:{" + prefix + i + "}:fence";
            long ttl = (Long) redis.command("PTTL", fence);
            assertTrue(ttl > 0 && ttl <= 2 * 3_000, fence + ": PTTL " + ttl);
        }
        assertTrue(after - baseline >= LAST, "keys right after the last release: " + after + " (baseline "
                + baseline + ")");
        assertEquals(List.of(), jedis.list(prefix), "names listed after every release");

        long back = -1;
        long deadline = released + BOUND.plus(SWEEP).toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (dbsize(redis) <= baseline) {
                back = System.nanoTime();
                break;
            }
            Thread.sleep(50); // polling the server's key count: nothing signals an expiry
        }
        long keysAtEnd = dbsize(redis);
        String when = back < 0 ? "not back " + BOUND.plus(SWEEP).toMillis() + " ms after it"
                : "back to baseline " + (back - released) / 1_000_000 + " ms after it";
        System.out.printf("key expiry: %d names in %d ms; keys: %d before, peak %d while in use, %d after the "
                + "last release, %d at the end: %s (bound %d ms + sweep %d ms)%n", NAMES,
                (released - start) / 1_000_000, baseline, peak.get(), after, keysAtEnd, when, BOUND.toMillis(),
                SWEEP.toMillis());
        assertTrue(back > 0, "keys " + keysAtEnd + " still there " + BOUND.plus(SWEEP).toMillis()
                + " ms after the last release (baseline " + baseline + ")");
    }
}
