package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * No key left behind (in the {@code topologies} profile: it takes a minute or more on two cores): 100,000 distinct
 * lock names (mutexes, read locks and semaphore permits, half through Jedis and
 * half through Lettuce) are each acquired and released once; right after, the server holds one fencing counter per
 * name, and within the stated bound ({@code max(2 leaseTime, leaseTime + 2 retryMax)} after the last release: 6 s
 * here, plus the server's own expiry sweep) the key count is back to what it was before. Inspection and listing work meanwhile.
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

    private static long dbsize(EmbeddedRedisBackend redis) {
        return (Long) redis.command("DBSIZE");
    }

    @Test
    void aHundredThousandNamesLeaveNoKeyBehindPastTheBound() throws Exception {
        try (EmbeddedRedisBackend redis = EmbeddedRedisBackend.start();
             LockService jedis = Locks.open(redis.uri() + "?" + PARAMETERS, new RedisLockProvider());
             LockService lettuce = Locks.open(redis.uri() + "?" + PARAMETERS, new RedisLettuceLockProvider())) {
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
            try (Workers workers = new Workers(threads)) {
                List<Future<Void>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int first = t;
                    LockService service = t % 2 == 0 ? jedis : lettuce;
                    done.add(workers.submit(() -> {
                        for (int i = first; i < NAMES; i += threads) {
                            String name = prefix + i;
                            Lease lease = switch (i % 3) {
                                case 0 -> service.nonReentrantMutex(name).acquire(Duration.ofSeconds(5));
                                case 1 -> service.readWriteLock(name).readLock().acquire(Duration.ofSeconds(5));
                                default -> service.semaphore(name, 2).acquire(Duration.ofSeconds(5));
                            };
                            lease.release();
                        }
                        return null;
                    }));
                }
                for (Future<Void> f : done) {
                    f.get(240, TimeUnit.SECONDS);
                }
            }
            long released = System.nanoTime();
            long after = dbsize(redis);
            // the counters of the last names are there (those of the first may have expired while the run went on,
            // if it took longer than the bound): the test sees a key left behind
            for (int i = NAMES - 100; i < NAMES; i++) {
                String fence = "lockspi:{" + prefix + i + "}:fence";
                long ttl = (Long) redis.command("PTTL", fence);
                assertTrue(ttl > 0 && ttl <= 2 * 3_000, fence + ": PTTL " + ttl);
            }
            assertTrue(after - baseline >= 100, "keys right after the last release: " + after + " (baseline "
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
            System.out.printf("key expiry: %d names in %d ms; keys %d before, %d after the last release, back to %d "
                    + "after %s ms (bound %d ms + sweep)%n", NAMES, (released - start) / 1_000_000, baseline, after,
                    keysAtEnd, back < 0 ? "never" : Long.toString((back - released) / 1_000_000), BOUND.toMillis());
            assertTrue(back > 0, "keys " + keysAtEnd + " still there " + BOUND.plus(SWEEP).toMillis()
                    + " ms after the last release (baseline " + baseline + ")");
        }
    }
}
