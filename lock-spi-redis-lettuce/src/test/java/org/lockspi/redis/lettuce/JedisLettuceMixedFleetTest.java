package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.redis.RedisFairLockProvider;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

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
    private static final String PARAMETERS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    /** Acquisitions per thread and kind. */
    private static final int ROUNDS = 25;
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static EmbeddedRedisBackend redis;

    private final List<LockService> services = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeServices() {
        services.forEach(LockService::close);
        services.clear();
    }

    private LockService open(LockProvider provider) {
        LockService service = Locks.open(redis.uri() + "?" + PARAMETERS, provider);
        services.add(service);
        return service;
    }

    /** Two services per client library, alternating. */
    private List<LockService> fleet(LockProvider jedis, LockProvider lettuce) {
        List<LockService> fleet = List.of(open(jedis), open(lettuce), open(jedis), open(lettuce));
        assertEquals(List.of(jedis.name(), lettuce.name(), jedis.name(), lettuce.name()),
                fleet.stream().map(LockService::providerName).toList());
        return fleet;
    }

    private static String name(String base) {
        return base + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    /** One unit of guarded work: long enough that an overlap would be seen. */
    private static void work() {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(300));
    }

    /** A task of one thread of one service; returns what it did. */
    private interface Round {
        void run(LockService service, String who, int round) throws InterruptedException;
    }

    /** Three threads per service, {@link #ROUNDS} rounds each; fails on the first worker failure. */
    private static void contend(List<LockService> fleet, Round round) throws Exception {
        try (Workers workers = new Workers(fleet.size() * 3)) {
            List<Future<Void>> done = new ArrayList<>();
            for (int s = 0; s < fleet.size(); s++) {
                LockService service = fleet.get(s);
                for (int t = 0; t < 3; t++) {
                    String who = service.providerName() + "#" + s + "/" + t;
                    done.add(workers.submit(() -> {
                        for (int i = 0; i < ROUNDS; i++) {
                            round.run(service, who, i);
                        }
                        return null;
                    }));
                }
            }
            for (Future<Void> f : done) {
                f.get(90, TimeUnit.SECONDS);
            }
        }
    }

    private static void exclusive(Acquirable lock, Occupancy guarded, String who) throws InterruptedException {
        try (Lease lease = lock.acquire(Duration.ofSeconds(30))) {
            guarded.enterExclusive(who, lease.fencingToken());
            work();
            guarded.exitExclusive();
        }
    }

    private static void assertClean(Occupancy guarded, long entries, String name) {
        assertEquals(List.of(), guarded.violations());
        assertEquals(entries, guarded.entries());
        assertEquals(List.of(), redis.residue(name), "keys left after the last release");
    }

    @Test
    void mutexExcludesAcrossClientLibraries() throws Exception {
        String name = name("mixed-mutex");
        Occupancy guarded = new Occupancy(0);
        List<LockService> fleet = fleet(new RedisLockProvider(), new RedisLettuceLockProvider());
        // services #0 and #1 (Jedis, Lettuce) take it as a reentrant mutex, #2 and #3 as a non-reentrant one (one
        // kind per name within a service)
        contend(fleet, (service, who, i) -> exclusive(who.contains("#0/") || who.contains("#1/")
                ? service.mutex(name) : service.nonReentrantMutex(name), guarded, who));
        assertClean(guarded, 12L * ROUNDS, name);
    }

    @Test
    void readWriteLockExcludesAcrossClientLibraries() throws Exception {
        String name = name("mixed-rw");
        Occupancy guarded = new Occupancy(Integer.MAX_VALUE);
        List<LockService> fleet = fleet(new RedisLockProvider(), new RedisLettuceLockProvider());
        contend(fleet, (service, who, i) -> {
            if (who.endsWith("/0")) {
                exclusive(service.readWriteLock(name).writeLock(), guarded, who);
            } else {
                try (Lease lease = service.readWriteLock(name).readLock().acquire(Duration.ofSeconds(30))) {
                    guarded.enterShared(who);
                    work();
                    guarded.exitShared();
                }
            }
        });
        assertClean(guarded, 12L * ROUNDS, name);
    }

    @Test
    void semaphoreCountsPermitsAcrossClientLibraries() throws Exception {
        String name = name("mixed-sem");
        Occupancy guarded = new Occupancy(2);
        List<LockService> fleet = fleet(new RedisLockProvider(), new RedisLettuceLockProvider());
        contend(fleet, (service, who, i) -> {
            try (Lease lease = service.semaphore(name, 2).acquire(Duration.ofSeconds(30))) {
                guarded.enterShared(who);
                work();
                guarded.exitShared();
            }
        });
        assertClean(guarded, 12L * ROUNDS, name);
    }

    @Test
    void fairMutexExcludesAcrossClientLibraries() throws Exception {
        String name = name("mixed-fair");
        Occupancy guarded = new Occupancy(0);
        List<LockService> fleet = fleet(new RedisFairLockProvider(), new RedisLettuceFairLockProvider());
        contend(fleet, (service, who, i) -> exclusive(service.mutex(name), guarded, who));
        assertClean(guarded, 12L * ROUNDS, name);
    }

    /** Waiters of both libraries queue in one line: each gets the lock in the order it queued. */
    @Test
    void fairQueueIsOneLineAcrossClientLibraries() throws Exception {
        String name = name("mixed-queue");
        List<LockService> fleet = fleet(new RedisFairLockProvider(), new RedisLettuceFairLockProvider());
        Lease held = fleet.get(0).mutex(name).acquire(Duration.ofSeconds(5));
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
                Poll.until("waiters of '" + name + "'", waiting, () -> (int) redis.residue(name).stream()
                        .filter(key -> key.contains(":wait:")).count(), Duration.ofSeconds(10));
            }
            held.release();
            for (Future<Void> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        assertEquals(queued, order, "the order in which the queued waiters got the lock");
        assertEquals(List.of(), redis.residue(name), "keys left after the last release");
    }
}
