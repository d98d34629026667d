package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.LockConnectionException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.redis.RedisInspector;

/**
 * The lease signal of the provider itself, below the engine: {@code confirmedUntilNanos()} and
 * {@code validUntilNanos()}, suspension, restoration and loss events under faults (server stopped, key deleted,
 * restart with and without its data), the socketTimeout rule, a bounded release while the server is down, and a
 * revocation reported with its requester while the holder's key is still there.
 * Against a real embedded redis-server of its own, with a 3 s lease.
 */
@Timeout(60)
class RedisLeaseSignalTest {
    static final Duration LEASE = Duration.ofSeconds(3);
    static final String PARAMETERS = "leaseTime=3s&connectTimeout=1s&socketTimeout=1s";
    private static final long MS = 1_000_000L;
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static EmbeddedRedisBackend redis;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    /** What a backend reported, each with the System.nanoTime() it arrived at. */
    static final class Events implements BackendEvents {
        final BlockingQueue<String> kinds = new LinkedBlockingQueue<>();
        final BlockingQueue<Long> times = new LinkedBlockingQueue<>();

        @Override
        public void connectionSuspended() {
            record("suspended");
        }

        @Override
        public void connectionRestored() {
            record("restored");
        }

        @Override
        public void leaseLost(BackendLease lease) {
            record("lost");
        }

        private synchronized void record(String kind) {
            times.add(System.nanoTime());
            kinds.add(kind);
        }

        /** @return the arrival time of the next event, which must be {@code kind}, within {@code max} */
        long expect(String kind, Duration max) throws InterruptedException {
            String got = kinds.poll(max.toMillis(), TimeUnit.MILLISECONDS);
            assertEquals(kind, got, "next backend event");
            return times.remove();
        }
    }

    LockBackend backend(Events events) {
        return backend(events, PARAMETERS);
    }

    LockBackend backend(Events events, String parameters) {
        LockBackend backend = new RedisLockProvider().open(LockUri.parse(redis.uri() + "?" + parameters), events);
        opened.add(backend);
        return backend;
    }

    static BackendLease acquire(LockBackend backend, String name) throws InterruptedException {
        BackendLease lease = backend.acquire(AcquireRequest.exclusive(LockKind.MUTEX, name),
                Deadline.after(Duration.ofSeconds(5)));
        assertNotNull(lease, "not acquired: " + name);
        return lease;
    }

    static String name(String base) {
        return base + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    /** Deletes the server's data files while it is stopped: its next start is a restart without persistence. */
    static void restartWithoutData(EmbeddedRedisBackend redis) {
        Object dir = redis.command("CONFIG", "GET", "dir");
        String path = new String((byte[]) ((List<?>) dir).get(1), StandardCharsets.UTF_8);
        redis.stopServer();
        try (var files = Files.list(Path.of(path))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            redis.startServer();
        }
    }

    @Test
    void confirmationAndValidityStartAtTheSendTimeAndMoveWithRenewals() throws InterruptedException {
        Events events = new Events();
        LockBackend backend = backend(events);
        long before = System.nanoTime();
        BackendLease lease = acquire(backend, name("deadlines"));
        long after = System.nanoTime();
        long margin = LEASE.toNanos() / 100 + 2 * MS; // 1% of the lease plus 2 ms
        long valid = lease.validUntilNanos();
        long confirmed = lease.confirmedUntilNanos();
        assertTrue(valid - (before + LEASE.toNanos() - margin) >= 0 && valid - (after + LEASE.toNanos() - margin) <= 0,
                "validUntil is not sentAt + lease - margin: " + (valid - before) / MS + " ms after the call");
        long half = LEASE.toNanos() / 2;
        assertTrue(confirmed - (before + half) >= 0 && confirmed - (after + half) <= 0,
                "confirmedUntil is not sentAt + lease / 2: " + (confirmed - before) / MS + " ms after the call");
        // The next renewal (after a third of the lease) moves both forward; they never move back.
        long end = System.nanoTime() + LEASE.toNanos();
        while (lease.validUntilNanos() == valid && System.nanoTime() - end < 0) {
            Thread.sleep(20); // polling: a successful renewal announces itself by no event
        }
        assertTrue(lease.validUntilNanos() - valid >= LEASE.toNanos() / 3 - 50 * MS,
                "validUntil did not move by about a renewal interval: " + (lease.validUntilNanos() - valid) / MS);
        assertEquals(lease.validUntilNanos() - lease.confirmedUntilNanos(), valid - confirmed);
        assertFalse(lease.isLost());
        assertTrue(events.kinds.isEmpty(), "events on a healthy lease: " + events.kinds);
        lease.release();
    }

    @Test
    void stoppedServerSuspendsAtOnceBeforeTheKeyCanExpireThenLosesAtValidUntil() throws InterruptedException {
        Events events = new Events();
        LockBackend backend = backend(events);
        BackendLease lease = acquire(backend, name("stopped"));
        long stop = System.nanoTime();
        redis.stopServer();
        try {
            long suspended = events.expect("suspended", LEASE);
            long valid = lease.validUntilNanos();
            assertTrue(valid - suspended > LEASE.toNanos() / 3,
                    "suspended only " + (valid - suspended) / MS + " ms before validUntil");
            System.out.printf("server stopped: suspended after %d ms; validUntil %d ms after the stop%n",
                    (suspended - stop) / MS, (valid - stop) / MS);
            long lost = events.expect("lost", LEASE.multipliedBy(2));
            assertTrue(lost - valid >= 0, "lost " + (valid - lost) / MS + " ms before validUntil");
            assertTrue(lost - valid < 300 * MS, "lost " + (lost - valid) / MS + " ms after validUntil");
            assertTrue(lease.isLost());
            long start = System.nanoTime();
            lease.release(); // a lost lease's release neither throws nor waits long
            assertTrue(System.nanoTime() - start < 2_500 * MS);
        } finally {
            redis.startServer();
        }
        assertEquals("restored", events.kinds.poll(LEASE.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Test
    void keyDeletedBehindOurBackIsLostAtTheNextRenewal() throws InterruptedException {
        Events events = new Events();
        LockBackend backend = backend(events);
        String name = name("deleted");
        BackendLease lease = acquire(backend, name);
        long deleted = System.nanoTime();
        redis.forceLoss(name);
        long lost = events.expect("lost", LEASE);
        assertTrue(lost - deleted <= LEASE.toNanos() / 3 + 500 * MS, "lost " + (lost - deleted) / MS + " ms later");
        assertTrue(lease.isLost());
        assertTrue(events.kinds.isEmpty(), "other events: " + events.kinds);
    }

    @Test
    void restartWithoutPersistenceLosesTheLease() throws InterruptedException {
        Events events = new Events();
        LockBackend backend = backend(events);
        BackendLease lease = acquire(backend, name("unpersisted"));
        restartWithoutData(redis);
        assertEquals("suspended", events.kinds.poll(LEASE.toMillis(), TimeUnit.MILLISECONDS));
        long lost = events.expect("lost", LEASE);
        assertTrue(lost - lease.validUntilNanos() < 0, "lost only at validUntil: the restart went unnoticed");
        assertTrue(lease.isLost());
        assertEquals("restored", events.kinds.poll(LEASE.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Test
    void restartWithItsAppendOnlyFileKeepsTheLease() throws InterruptedException {
        Events events = new Events();
        LockBackend backend = backend(events);
        String name = name("persisted");
        BackendLease lease = acquire(backend, name);
        long valid = lease.validUntilNanos();
        redis.restart();
        assertEquals("suspended", events.kinds.poll(LEASE.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals("restored", events.kinds.poll(LEASE.toMillis(), TimeUnit.MILLISECONDS));
        long end = System.nanoTime() + LEASE.toNanos();
        while (lease.validUntilNanos() == valid && System.nanoTime() - end < 0) {
            Thread.sleep(20); // polling: a renewal announces itself by no event
        }
        assertTrue(lease.validUntilNanos() - valid > 0, "not renewed after the restart");
        assertFalse(lease.isLost());
        assertTrue(lease.confirmedUntilNanos() - System.nanoTime() > 0, "not confirmed after the restart");
        assertTrue(events.kinds.isEmpty(), "other events: " + events.kinds);
        Events other = new Events();
        assertEquals(null, backend(other).acquire(AcquireRequest.exclusive(LockKind.MUTEX, name), Deadline.after(
                Duration.ZERO)), "another client got the lock the restarted server kept");
        lease.release();
    }

    @Test
    void shortLeaseWithLongSocketTimeoutIsRefusedNamingBothAndTheRule() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(redis.uri() + "?leaseTime=3s&socketTimeout=2s", new RedisLockProvider()));
        assertTrue(e.getMessage().contains("socketTimeout PT2S") && e.getMessage().contains("leaseTime PT3S")
                && e.getMessage().contains("leaseTime / 3"), e.getMessage());
        // Unset, the socket timeout shrinks to a third of a short lease instead.
        try (LockService service = Locks.open(redis.uri() + "?leaseTime=1500ms", new RedisLockProvider())) {
            assertEquals(RedisLockProvider.NAME, service.providerName());
        }
        e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(redis.uri() + "?leaseTime=3s&socketTimeout=1s&confirmThreshold=1s",
                        new RedisLockProvider()));
        assertTrue(e.getMessage().contains("confirmThreshold"), e.getMessage());
    }

    @Test
    void releaseAndCloseAreBoundedWhileTheServerIsDown() throws InterruptedException {
        Events events = new Events();
        LockBackend backend = backend(events);
        BackendLease released = acquire(backend, name("release-down"));
        acquire(backend, name("close-down-1"));
        acquire(backend, name("close-down-2"));
        redis.stopServer();
        try {
            long bound = 1_000 + 2 * 1_000 + 500; // connectTimeout + 2 socketTimeout + scheduling slack, in ms
            long start = System.nanoTime();
            try {
                released.release();
            } catch (LockConnectionException expected) {
                assertTrue(expected.getMessage().contains("leaseTime"), expected.getMessage());
            }
            long releaseMs = (System.nanoTime() - start) / MS;
            assertTrue(releaseMs <= bound, "release took " + releaseMs + " ms");
            start = System.nanoTime();
            backend.close();
            long closeMs = (System.nanoTime() - start) / MS;
            assertTrue(closeMs <= bound + 1_000, "close with two leases took " + closeMs + " ms");
            System.out.printf("server down: release %d ms, close %d ms%n", releaseMs, closeMs);
        } finally {
            redis.startServer();
        }
    }

    /**
     * As §16.2: the client may not have heard yet that the server is back when it tries, so it is given
     * {@code failFast=1m} and a try with a deadline, which waits for the reconnection (with the default failFast a
     * try made while the service still counts its connection down fails fast, §16.3).
     */
    @Test
    void aClientThatLivedThroughARestartAcquiresOnItsFirstTry() throws InterruptedException {
        try (LockService service = Locks.open(redis.uri() + "?" + PARAMETERS + "&failFast=1m",
                new RedisLockProvider())) {
            service.mutex(name("warm")).acquire(Duration.ofSeconds(5)).release(); // pooled connections exist
            redis.restart();
            assertTrue(service.mutex(name("after-restart")).tryAcquire(Duration.ofSeconds(10)).isPresent(),
                    "the first try after the restart did not acquire");
        }
    }

    /**
     * Revocation below the engine: the holder's backend reports the loss with the requester while its key is still
     * on the server (the report comes first), then deletes the key and the request itself; the revoker's
     * {@code revoke} returns at once, and a second one finds no holder.
     */
    @Test
    void revocationIsReportedWithItsRequesterBeforeTheKeyGoes() throws InterruptedException {
        String name = name("revoked");
        String key = RedisInspector.baseKey(name);
        BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        BlockingQueue<Long> times = new LinkedBlockingQueue<>();
        BackendEvents events = new BackendEvents() {
            @Override
            public void connectionSuspended() {
                reports.add("suspended");
            }

            @Override
            public void connectionRestored() {
                reports.add("restored");
            }

            @Override
            public void leaseLost(BackendLease lease) {
                reports.add("lost without a reason");
            }

            @Override
            public void leaseLost(BackendLease lease, String why) {
                times.add(System.nanoTime());
                reports.add(why + "; key there: " + Long.valueOf(1).equals(redis.command("EXISTS", key)));
            }
        };
        LockBackend holder = new RedisLockProvider().open(LockUri.parse(redis.uri() + "?" + PARAMETERS), events);
        opened.add(holder);
        BackendLease lease = holder.acquire(AcquireRequest.exclusive(LockKind.MUTEX, name).revocable(),
                Deadline.after(Duration.ofSeconds(5)));
        assertNotNull(lease, "not acquired: " + name);
        LockBackend operator = backend(new Events());
        assertTrue(operator.revoke(name, lease.fencingToken(), "ops@test"), "revoke found the holder");
        long returned = System.nanoTime();
        assertEquals("revoked at the request of ops@test; key there: true",
                reports.poll(LEASE.toMillis() / 2, TimeUnit.MILLISECONDS), "the holder's report");
        long lost = times.remove();
        assertTrue(lease.isLost(), "the revoked lease is lost");
        Poll.until("the holder's key and the request deleted by the holder", 0L,
                () -> (Long) redis.command("EXISTS", key, key + ":revoke"), Duration.ofSeconds(1));
        System.out.printf("revocation: revoke() returned -> leaseLost %d ms%n", (lost - returned) / MS);
        lease.release(); // of a revoked lease: nothing, no exception
        assertFalse(operator.revoke(name, lease.fencingToken(), "ops@test"), "revoke of the freed token");
        assertTrue(reports.isEmpty(), "nothing more reported: " + reports);
    }
}
