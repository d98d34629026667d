package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * How waiters are woken and what a cycle costs the server: a release wakes a waiter of another client through
 * the lock's channel long before its back-off would; a release the waiter never hears of (the key deleted behind
 * the provider's back) costs it at most {@code retryMax}; an uncontended cycle is two {@code EVALSHA} round
 * trips; a flushed script cache is refilled; {@code redis-fair} skips a dead head of its queue and waits behind a
 * live one. Against a real embedded redis-server.
 */
@Timeout(60)
class RedisWakeupTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static EmbeddedRedisBackend redis;

    private final List<LockService> clients = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeClients() {
        clients.forEach(LockService::close);
    }

    private LockService client(LockProvider provider, String parameters) {
        LockService service = Locks.open(redis.uri() + "?" + parameters, provider);
        clients.add(service);
        return service;
    }

    private static String name(String base) {
        return base + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    /** Waits until the lock shows {@code waiters} waiter keys on the server. */
    private static void awaitWaiters(String name, int waiters) {
        Poll.until("waiter keys of '" + name + "'", waiters, () -> (int) redis.residue(name).stream()
                .filter(key -> key.contains(":wait:")).count(), Duration.ofSeconds(10));
    }

    /** @return the server's command counts by name, from INFO commandstats */
    private static Map<String, Long> commandCounts() {
        String info = new String((byte[]) redis.command("INFO", "commandstats"), StandardCharsets.UTF_8);
        Map<String, Long> counts = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                int calls = line.indexOf("calls=") + "calls=".length();
                counts.put(line.substring("cmdstat_".length(), line.indexOf(':')),
                        Long.parseLong(line.substring(calls, line.indexOf(',', calls))));
            }
        }
        return counts;
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String command) {
        return after.getOrDefault(command, 0L) - before.getOrDefault(command, 0L);
    }

    @Test
    void aReleaseWakesAWaiterOfAnotherClientLongBeforeItsBackOff() throws Exception {
        // With these pauses a poller would sleep 2.5 s to 5 s after each failed attempt.
        String parameters = "retryInitial=5s&retryMax=5s";
        String name = name("wake");
        Lease held = client(new RedisLockProvider(), parameters).mutex(name).acquire(Duration.ofSeconds(5));
        LockService other = client(new RedisLockProvider(), parameters);
        Map<String, Long> before = commandCounts();
        CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
            try (Lease lease = other.mutex(name).acquire(Duration.ofSeconds(30))) {
                return System.nanoTime();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        // Each attempt runs TIME once: the first fails, the second follows the confirmation of the waiter's
        // subscription; after it the waiter sleeps its back-off, unless a message wakes it.
        Poll.until("attempts of the waiter", true, () -> delta(before, commandCounts(), "time") >= 2,
                Duration.ofSeconds(10));
        awaitWaiters(name, 1);
        long releasedAt = System.nanoTime();
        held.release();
        long millis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);
        assertTrue(millis < 1500, "the waiter acquired " + millis + " ms after the release; its back-off alone "
                + "would have taken at least 2500 ms");
    }

    @Test
    void aReleaseNobodyPublishedCostsTheWaiterAtMostRetryMax() throws Exception {
        // Every pause of the waiter is at most retryMax, so it finds the lock within that after it was freed.
        String parameters = "retryInitial=50ms&retryMax=300ms";
        String name = name("lost-message");
        client(new RedisLockProvider(), parameters).mutex(name).acquire(Duration.ofSeconds(5));
        LockService other = client(new RedisLockProvider(), parameters);
        CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
            try (Lease lease = other.mutex(name).acquire(Duration.ofSeconds(30))) {
                return System.nanoTime();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        awaitWaiters(name, 1);
        long freedAt = System.nanoTime();
        redis.command("DEL", EmbeddedRedisBackend.baseKey(name)); // freed without a message
        long millis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(20, TimeUnit.SECONDS) - freedAt);
        // retryMax, and slack for a loaded machine
        assertTrue(millis < 300 + 700, "the waiter took " + millis + " ms to find the lock freed without a "
                + "message; its polling should find it within retryMax 300 ms");
    }

    @Test
    void anUncontendedCycleIsTwoScriptCallsAndNoScriptIsSent() throws InterruptedException {
        Map<String, Long> unopened = commandCounts();
        LockService service = client(new RedisLockProvider(), "leaseTime=30s");
        String name = name("cycle");
        service.mutex(name).acquire(Duration.ofSeconds(5)).release(); // loads the scripts if the server lacks them
        // the watch connection subscribes on a thread of its own: its SUBSCRIBE must not land among the cycles'
        Poll.until("the watch connection's SUBSCRIBE", true,
                () -> delta(unopened, commandCounts(), "subscribe") >= 1, Duration.ofSeconds(10));
        int cycles = 50;
        Map<String, Long> before = commandCounts();
        for (int i = 0; i < cycles; i++) {
            service.mutex(name).acquire(Duration.ofSeconds(5)).release();
        }
        Map<String, Long> after = commandCounts();
        assertEquals(2L * cycles, delta(before, after, "evalsha"), "EVALSHA calls for " + cycles + " cycles: "
                + after);
        assertEquals(0L, delta(before, after, "eval"), "scripts sent in full");
        Map<String, Long> deltas = new TreeMap<>();
        after.forEach((command, count) -> deltas.put(command, count - before.getOrDefault(command, 0L)));
        deltas.remove("info");
        deltas.values().removeIf(d -> d == 0);
        long all = deltas.values().stream().mapToLong(Long::longValue).sum();
        // Two round trips; inside them TIME, GET, SET NX PX and SET (acquire), GET, DEL and PUBLISH (release).
        assertEquals(9L * cycles, all, "commands (those run by the scripts included) for " + cycles + " cycles: "
                + deltas);
    }

    @Test
    void aFlushedScriptCacheIsLoadedAgain() throws InterruptedException {
        LockService service = client(new RedisLockProvider(), "leaseTime=30s");
        String name = name("flush");
        service.mutex(name).acquire(Duration.ofSeconds(5)).release();
        redis.command("SCRIPT", "FLUSH");
        Map<String, Long> before = commandCounts();
        Lease lease = service.mutex(name).acquire(Duration.ofSeconds(5));
        lease.release();
        Map<String, Long> after = commandCounts();
        assertEquals(2L, delta(before, after, "script"), "SCRIPT LOAD of the acquire and release scripts: " + after);
        assertEquals(null, redis.command("GET", EmbeddedRedisBackend.baseKey(name)), "the release deleted the key");
    }

    @Test
    void theFairProviderSkipsADeadHeadAndWaitsBehindALiveOne() throws InterruptedException {
        LockService service = client(new RedisFairLockProvider(), "leaseTime=30s&retryMax=100ms");
        String name = name("fair-head");
        String base = EmbeddedRedisBackend.baseKey(name);
        // A queued waiter whose waiter key expired (it died): it must not block anyone.
        redis.command("ZADD", base + ":queue", "1", "dead-waiter");
        Optional<Lease> first = service.mutex(name).tryAcquire();
        assertTrue(first.isPresent(), "a dead head of the queue blocked a free lock");
        first.get().release();
        // A live one, queued first: a newcomer waits behind it, and gets the lock once it goes.
        redis.command("ZADD", base + ":queue", "1", "live-waiter");
        redis.command("SET", base + ":wait:live-waiter", "waiting", "PX", "30000");
        assertTrue(service.mutex(name).tryAcquire(Duration.ofMillis(300)).isEmpty(),
                "a newcomer overtook the live head of the queue");
        redis.command("DEL", base + ":wait:live-waiter");
        Optional<Lease> later = service.mutex(name).tryAcquire(Duration.ofSeconds(5));
        assertTrue(later.isPresent(), "the lock stayed blocked after the head went away");
        later.get().release();
        assertEquals(List.of(), redis.residue(name), "keys left after the last release");
        assertEquals(0L, (Long) redis.command("EXISTS", base + ":queue"), "the queue is gone with its waiters");
    }
}
