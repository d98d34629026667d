package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.redis.RedisFairLockProvider;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.redis.recipe.tck.RedisFixture;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;

/**
 * A mixed fleet on one real Redis: two Jedis clients ({@code redis-baseline}) and two Lettuce clients
 * ({@code redis-lettuce}), each a service of its own with three threads, contend for one lock of each kind, and
 * the guarded resource ({@link Occupancy}) never sees two exclusive holders, a writer beside a reader, more permits
 * than the semaphore has, or an exclusive holder's token below its predecessor's. First come, first served across
 * the libraries: waiters of {@code redis-fair} and {@code redis-lettuce-fair} queued in turn get the lock in the
 * order they queued.
 */
@Timeout(120)
class JedisLettuceMixedFleetTest {
    /** Acquisitions per thread and kind. */
    private static final int ROUNDS = 25;
    private static final AtomicInteger NAMES = new AtomicInteger();

    @RegisterExtension
    static final RedisFixture redis = new RedisFixture();

    /** Two services per client library, alternating: Jedis, Lettuce, Jedis, Lettuce. */
    private List<LockService> fleet(boolean fair) {
        LockProvider jedis = fair ? new RedisFairLockProvider() : new RedisLockProvider();
        LockProvider lettuce = fair ? new RedisLettuceFairLockProvider() : new RedisLettuceLockProvider();
        List<LockService> fleet = List.of(redis.open(jedis), redis.open(lettuce), redis.open(jedis),
                redis.open(lettuce));
        assertEquals(List.of(jedis.name(), lettuce.name(), jedis.name(), lettuce.name()),
                fleet.stream().map(LockService::providerName).toList());
        return fleet;
    }

    private static String name(String base) {
        return base + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    /** One turn of one thread of one service ({@code who}: provider#service/thread) on the lock named. */
    private interface Turn {
        void run(LockService service, String name, Occupancy guarded, String who) throws InterruptedException;
    }

    /**
     * The fleet contends for one lock: three threads per service, {@link #ROUNDS} turns each (fails on the first
     * worker failure); then the guarded resource saw no breach and every turn, and nothing of the lock is left.
     *
     * @param sharedLimit how many may hold the guarded resource shared at once
     */
    private void contend(String base, boolean fair, int sharedLimit, Turn turn) throws Exception {
        String name = name(base);
        Occupancy guarded = new Occupancy(sharedLimit);
        List<LockService> fleet = fleet(fair);
        try (Workers workers = new Workers(fleet.size() * 3)) {
            List<Future<Void>> done = new ArrayList<>();
            for (int s = 0; s < fleet.size(); s++) {
                LockService service = fleet.get(s);
                for (int t = 0; t < 3; t++) {
                    String who = service.providerName() + "#" + s + "/" + t;
                    done.add(workers.submit(() -> {
                        for (int i = 0; i < ROUNDS; i++) {
                            turn.run(service, name, guarded, who);
                        }
                        return null;
                    }));
                }
            }
            for (Future<Void> f : done) {
                f.get(90, TimeUnit.SECONDS);
            }
        }
        assertEquals(List.of(), guarded.violations());
        assertEquals(fleet.size() * 3L * ROUNDS, guarded.entries());
        assertEquals(List.of(), redis.server().residue(name), "keys left after the last release");
    }

    /** Holds the lock exclusively for one unit of guarded work, long enough that an overlap would be seen. */
    private static void exclusive(Acquirable lock, Occupancy guarded, String who) throws InterruptedException {
        try (Lease lease = lock.acquire(Duration.ofSeconds(30))) {
            guarded.enterExclusive(who, lease.fencingToken());
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(300));
            guarded.exitExclusive();
        }
    }

    /** Holds the lock shared (a read lock, a permit) for one unit of guarded work. */
    private static void shared(Acquirable lock, Occupancy guarded, String who) throws InterruptedException {
        try (Lease lease = lock.acquire(Duration.ofSeconds(30))) {
            guarded.enterShared(who);
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(300));
            guarded.exitShared();
        }
    }

    @Test
    void mutexExcludesAcrossClientLibraries() throws Exception {
        // services #0 and #1 (Jedis, Lettuce) take it as a reentrant mutex, #2 and #3 as a non-reentrant one (one
        // kind per name within a service)
        contend("mixed-mutex", false, 0, (service, name, guarded, who) -> exclusive(
                who.contains("#0/") || who.contains("#1/") ? service.mutex(name) : service.nonReentrantMutex(name),
                guarded, who));
    }

    @Test
    void readWriteLockExcludesAcrossClientLibraries() throws Exception {
        // the first thread of each service writes, the two others read
        contend("mixed-rw", false, Integer.MAX_VALUE, (service, name, guarded, who) -> {
            if (who.endsWith("/0")) {
                exclusive(service.readWriteLock(name).writeLock(), guarded, who);
            } else {
                shared(service.readWriteLock(name).readLock(), guarded, who);
            }
        });
    }

    @Test
    void semaphoreCountsPermitsAcrossClientLibraries() throws Exception {
        contend("mixed-sem", false, 2, (service, name, guarded, who) -> shared(service.semaphore(name, 2), guarded,
                who));
    }

    @Test
    void fairMutexExcludesAcrossClientLibraries() throws Exception {
        contend("mixed-fair", true, 0, (service, name, guarded, who) -> exclusive(service.mutex(name), guarded, who));
    }

    /** Waiters of both libraries queue in one line: each gets the lock in the order it queued. */
    @Test
    void fairQueueIsOneLineAcrossClientLibraries() throws Exception {
        String name = name("mixed-queue");
        // a waiter per client, alternately Jedis and Lettuce, and the holder apart: a client queues its own
        // threads locally and lets one at a time into the server's queue
        List<LockService> fleet = new ArrayList<>(fleet(true));
        fleet.addAll(fleet(true));
        Lease held = redis.open(new RedisFairLockProvider()).mutex(name).acquire(Duration.ofSeconds(5));
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<String> queued = new ArrayList<>();
        try (Workers workers = new Workers(8)) {
            List<Future<Void>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                LockService service = fleet.get(w % fleet.size());
                String who = service.providerName() + "#" + w;
                done.add(workers.submit(() -> {
                    try (Lease lease = service.mutex(name).acquire(Duration.ofSeconds(60))) {
                        order.add(who);
                    }
                    return null;
                }));
                queued.add(who);
                int waiting = w + 1;
                // the next waiter starts once this one's entry is on the server: the queue order is known
                Poll.until("waiters of '" + name + "'", waiting, () -> (int) redis.server().residue(name).stream()
                        .filter(key -> key.contains(":wait:")).count(), Duration.ofSeconds(10));
            }
            held.release();
            for (Future<Void> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        assertEquals(queued, order, "the order in which the queued waiters got the lock");
        assertEquals(List.of(), redis.server().residue(name), "keys left after the last release");
    }
}
