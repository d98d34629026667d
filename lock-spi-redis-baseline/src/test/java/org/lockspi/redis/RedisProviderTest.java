package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * What the TCK cannot see from outside: lease expiry of a killed or paused holder process, owner-checked late
 * release, suspension and loss while the server is down, fencing across restarts and a lost counter, URI
 * options and credentials in messages. Against a real embedded redis-server, with a 3 s lease.
 */
@Timeout(60)
class RedisProviderTest {
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final String PARAMETERS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
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

    private LockService client() {
        return client(PARAMETERS);
    }

    private LockService client(String parameters) {
        LockService service = Locks.open(redis.uri() + "?" + parameters, new RedisLockProvider());
        clients.add(service);
        return service;
    }

    private static String name(String base) {
        return base + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
    }

    private static String value(String key) {
        Object reply = redis.command("GET", key);
        return reply == null ? null : new String((byte[]) reply, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void discoveredByScheme() {
        try (LockService service = Locks.open(redis.uri() + "?" + PARAMETERS)) {
            assertEquals(RedisLockProvider.NAME, service.providerName());
        }
        String version = new RedisLockProvider().version();
        assertTrue(version.matches("\\d+\\.\\d+.*"), "version from the build: " + version);
    }

    @Test
    void holderKilledWithSigkillLosesTheLockAfterTheLease() throws Exception {
        String name = name("killed");
        Acquirable lock = client().nonReentrantMutex(name);
        try (ChildHolder child = ChildHolder.start(redis.uri() + "?" + PARAMETERS, name)) {
            long childToken = Long.parseLong(child.expect("HELD", Duration.ofSeconds(20)));
            assertTrue(lock.tryAcquire().isEmpty(), "the lock was free while the child held it");
            child.kill();
            long start = System.nanoTime();
            try (Lease lease = lock.acquire(Duration.ofSeconds(10))) {
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(took.compareTo(LEASE.plusSeconds(2)) <= 0, "freed only after " + took);
                assertTrue(lease.fencingToken() > childToken,
                        "token " + lease.fencingToken() + " not above the killed holder's " + childToken);
            }
        }
    }

    @Test
    void pausedHolderLosesTheLockAndItsLateReleaseLeavesTheNewHolderAlone() throws IOException, InterruptedException {
        String name = name("paused");
        LockService service = client();
        Acquirable lock = service.nonReentrantMutex(name);
        try (ChildHolder child = ChildHolder.start(redis.uri() + "?" + PARAMETERS, name)) {
            long childToken = Long.parseLong(child.expect("HELD", Duration.ofSeconds(20)));
            String childOwner = value(EmbeddedRedisBackend.baseKey(name));
            assertNotNull(childOwner);
            child.signal("STOP"); // a pause longer than the lease: GC, swapping, a stopped VM
            try (Lease lease = lock.acquire(Duration.ofSeconds(10))) {
                assertTrue(lease.fencingToken() > childToken);
                String ours = value(EmbeddedRedisBackend.baseKey(name));
                assertNotNull(ours);
                assertFalse(ours.equals(childOwner), "the key still names the paused holder");
                child.signal("CONT");
                assertEquals("LOST", child.expect("STATE", LEASE.multipliedBy(2)),
                        "the resumed holder did not learn it lost the lock");
                child.send("release");
                child.expect("RELEASED", Duration.ofSeconds(5));
                assertEquals(ours, value(EmbeddedRedisBackend.baseKey(name)),
                        "the late release of the paused holder touched the new holder's key");
                assertEquals(LeaseState.HELD, lease.state());
                assertTrue(client().nonReentrantMutex(name).tryAcquire().isEmpty(),
                        "a third client got the lock the new holder still holds");
            }
        }
    }

    /**
     * §13.6 for this provider, which the TCK cannot check here (a Redis counter starts at 0 and the backend
     * cannot raise counters of locks it does not know yet): tokens are {@code max(counter + 1, server TIME in
     * ms)}, so the first token of a fresh lock is already above 2^32, and a token cut to 32 bits would not be.
     */
    @Test
    void tokensOfAFreshLockAreAboveTwoToThe32AndIncrease() throws InterruptedException {
        String name = name("high");
        long last = 1L << 32;
        for (int i = 0; i < 3; i++) {
            try (Lease lease = client().mutex(name).acquire(Duration.ofSeconds(5))) {
                assertTrue(lease.fencingToken() > last, "token " + lease.fencingToken() + " not above " + last);
                last = lease.fencingToken();
            }
        }
    }

    @Test
    void forcedLossIsReportedAndTheLateReleaseLeavesTheNewHolderAlone() throws InterruptedException {
        String name = name("forced");
        Lease first = client().mutex(name).acquire(Duration.ofSeconds(5));
        BlockingQueue<LeaseState> states = new LinkedBlockingQueue<>();
        first.addListener((lease, previous, current) -> states.add(current));
        redis.forceLoss(name);
        assertEquals(LeaseState.LOST, states.poll(LEASE.toMillis() + 2000, TimeUnit.MILLISECONDS),
                "the loss was not reported");
        assertTrue(first.state() == LeaseState.LOST);
        Lease second = client().mutex(name).acquire(Duration.ofSeconds(5));
        String owner = value(EmbeddedRedisBackend.baseKey(name));
        assertTrue(second.fencingToken() > first.fencingToken());
        first.release(); // late: compare-and-delete finds another owner
        assertEquals(owner, value(EmbeddedRedisBackend.baseKey(name)), "a lost lease's release deleted the key");
        assertEquals(LeaseState.HELD, second.state());
        second.release();
        assertEquals(List.of(), redis.residue(name));
    }

    @Test
    void leaseOutlivesManyRenewals() throws InterruptedException {
        String name = name("renewed");
        Lease lease = client().mutex(name).acquire(Duration.ofSeconds(5));
        Acquirable other = client().mutex(name);
        // Waiting twice the lease time for the lock is the point here: it must never come free.
        assertTrue(other.tryAcquire(LEASE.multipliedBy(2)).isEmpty(), "the lease expired despite renewal");
        assertEquals(LeaseState.HELD, lease.state());
        lease.release();
        assertTrue(other.tryAcquire().isPresent());
    }

    @Test
    void readAndSemaphoreLeasesAreRenewedToo() throws InterruptedException {
        String rw = name("renewed-read");
        String sem = name("renewed-sem");
        LockService holder = client();
        Lease read = holder.readWriteLock(rw).readLock().acquire(Duration.ofSeconds(5));
        Lease permit = holder.semaphore(sem, 1).acquire(Duration.ofSeconds(5));
        LockService other = client();
        // Twice the lease time: a reader or permit that is not renewed would drop out of its sorted set.
        assertTrue(other.readWriteLock(rw).writeLock().tryAcquire(LEASE.multipliedBy(2)).isEmpty(),
                "a writer got in past a renewed reader");
        assertTrue(other.semaphore(sem, 1).tryAcquire().isEmpty(), "a second permit of one was granted");
        assertEquals(LeaseState.HELD, read.state());
        assertEquals(LeaseState.HELD, permit.state());
        read.release();
        permit.release();
        other.readWriteLock(rw).writeLock().acquire(Duration.ofSeconds(5)).release();
        other.semaphore(sem, 1).acquire(Duration.ofSeconds(5)).release();
        assertEquals(List.of(), redis.residue(rw));
        assertEquals(List.of(), redis.residue(sem));
    }

    @Test
    void serverDownLongerThanTheLeaseMakesLeasesUncertainThenLost() throws InterruptedException {
        String name = name("down");
        LockService service = client();
        Lease lease = service.nonReentrantMutex(name).acquire(Duration.ofSeconds(5));
        BlockingQueue<LeaseState> states = new LinkedBlockingQueue<>();
        lease.addListener((l, previous, current) -> states.add(current));
        redis.stopServer();
        try {
            assertEquals(LeaseState.UNCERTAIN, states.poll(LEASE.toMillis() + 2000, TimeUnit.MILLISECONDS));
            assertEquals(LeaseState.LOST, states.poll(LEASE.toMillis() + 2000, TimeUnit.MILLISECONDS));
        } finally {
            redis.startServer();
        }
        lease.release(); // harmless on a lost lease
        try (Lease again = service.nonReentrantMutex(name).acquire(Duration.ofSeconds(10))) {
            assertTrue(again.fencingToken() > lease.fencingToken());
            assertEquals(LeaseState.HELD, again.state());
        }
    }

    @Test
    void leaseSurvivesAQuickRestartAndTokensKeepGrowing() throws InterruptedException {
        String name = name("restart");
        LockService service = client();
        Lease lease = service.nonReentrantMutex(name).acquire(Duration.ofSeconds(5));
        long before = lease.fencingToken();
        redis.restart();
        // The key and the counter are in the append-only file; renewal goes on after the restart.
        Acquirable other = client().nonReentrantMutex(name);
        assertTrue(other.tryAcquire(LEASE).isEmpty(), "the lease did not survive the restart");
        assertTrue(lease.state() == LeaseState.HELD || lease.state() == LeaseState.UNCERTAIN, lease.state().name());
        lease.release();
        try (Lease after = other.acquire(Duration.ofSeconds(5))) {
            assertTrue(after.fencingToken() > before);
        }
    }

    @Test
    void tokensKeepGrowingWhenTheCounterIsLost() throws InterruptedException {
        String name = name("counter-lost");
        Acquirable lock = client().mutex(name);
        long first;
        try (Lease lease = lock.acquire(Duration.ofSeconds(5))) {
            first = lease.fencingToken();
        }
        // As a restart without persistence would: the counter is gone. The server clock floor takes over.
        redis.command("DEL", EmbeddedRedisBackend.baseKey(name) + ":fence");
        try (Lease lease = lock.acquire(Duration.ofSeconds(5))) {
            assertTrue(lease.fencingToken() > first, lease.fencingToken() + " <= " + first);
        }
    }

    @Test
    void keyPrefixIsHonoured() throws InterruptedException {
        String name = name("prefixed");
        try (Lease lease = client(PARAMETERS + "&keyPrefix=app1:").mutex(name).acquire(Duration.ofSeconds(5))) {
            assertEquals(LeaseState.HELD, lease.state());
            assertNotNull(value("app1:{" + name + "}"));
            assertEquals(List.of(), redis.residue(name), "the default prefix was used");
        }
        assertEquals(null, value("app1:{" + name + "}"));
    }

    @Test
    void unreachableServerFailsFastNamingAddressNotPassword() {
        int port = Ports.freeLoopbackPort();
        long start = System.nanoTime();
        LockConnectionException e = assertThrows(LockConnectionException.class,
                () -> Locks.open("redis://admin:s3cret@127.0.0.1:" + port + "?connectTimeout=1s",
                        new RedisLockProvider()));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(5)) < 0);
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains("s3cret"), t.getMessage());
        }
    }

    @Test
    void badOptionsFailAtOnce() {
        RedisLockProvider provider = new RedisLockProvider();
        String base = redis.uri();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open(base + "?leaseTime=100ms", provider));
        assertTrue(e.getMessage().contains("leaseTime"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Locks.open(base + "?keyPrefix=a%7Bb", provider));
        assertTrue(e.getMessage().contains("keyPrefix"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Locks.open(base + "/orders", provider));
        assertTrue(e.getMessage().contains("database"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("redis://:pw@127.0.0.1:1,127.0.0.1:2", provider));
        assertTrue(e.getMessage().contains("one Redis instance") && !e.getMessage().contains("pw@"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Locks.open(base + "?lease=3s", provider));
        assertTrue(e.getMessage().contains("lease"), e.getMessage());
    }
}
