package org.lockspi.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.ConnectionState;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** The meters of a bound service, read from a real {@link SimpleMeterRegistry}, on a real ZooKeeper. */
class LockMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static EmbeddedZooKeeperBackend zookeeper;

    private SimpleMeterRegistry registry;
    private LockService a;
    private LockService b;

    @BeforeAll
    static void startServer() {
        zookeeper = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    static void stopServer() {
        zookeeper.close();
    }

    @BeforeEach
    void bind() {
        registry = new SimpleMeterRegistry();
        a = LockMetrics.builder(registry).service("a").maxLockNames(2).bind(open());
        b = LockMetrics.builder(registry).service("b").bind(open());
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private static LockService open() {
        return Locks.open(zookeeper.uri() + "?sessionTimeout=4s&connectTimeout=5s", "zookeeper-raw");
    }

    private long attempts(String service, String lock, String outcome) {
        Timer timer = registry.find("lockspi.acquire").tags("service", service, "lock", lock, "outcome", outcome)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private double gauge(String name, String... tags) {
        Gauge g = registry.find(name).tags(tags).gauge();
        assertNotNull(g, name + " " + String.join(",", tags));
        return g.value();
    }

    private double transitions(String service, String state) {
        Counter c = registry.find("lockspi.lease.transitions").tags("service", service, "state", state).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void attemptsByOutcomeWaitHoldAndActive() throws Exception {
        DistributedLock lock = a.mutex("orders/1");
        assertSame(lock, a.mutex("orders/1"), "one view per handle");
        Lease lease = lock.acquire(Duration.ofSeconds(5));
        assertEquals(1, attempts("a", "orders/1", "acquired"));
        assertEquals(1.0, gauge("lockspi.leases.active", "service", "a", "lock", "orders/1", "kind", "mutex"));

        Acquirable other = b.mutex("orders/1");
        assertThrows(LockTimeoutException.class, () -> other.acquire(Duration.ofMillis(200)));
        assertTrue(other.tryAcquire().isEmpty());
        assertTrue(other.tryAcquire(Duration.ofMillis(100)).isEmpty());
        assertEquals(3, attempts("b", "orders/1", "timed_out"));
        Timer waits = registry.find("lockspi.acquire").tags("service", "b", "outcome", "timed_out").timer();
        assertTrue(waits.totalTime(TimeUnit.MILLISECONDS) >= 300, "the waits add up: " + waits);

        Async<Lease> waiter = Async.startWaiter("waiter", zookeeper, "orders/1", other::acquire);
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, waiter.failure(WAIT));
        assertEquals(1, attempts("b", "orders/1", "interrupted"));

        Thread.sleep(50); // a hold time worth measuring
        lease.release();
        lease.release(); // recorded once
        Timer held = registry.find("lockspi.lease.held").tags("service", "a", "lock", "orders/1").timer();
        assertEquals(1, held.count());
        assertTrue(held.totalTime(TimeUnit.MILLISECONDS) >= 50, held.toString());
        assertEquals(0.0, gauge("lockspi.leases.active", "service", "a", "lock", "orders/1", "kind", "mutex"));

        // the executeLocked of the view goes through the metered acquire
        assertEquals("done", b.mutex("orders/1").executeLocked(Duration.ofSeconds(5), l -> "done"));
        assertEquals(1, attempts("b", "orders/1", "acquired"));
    }

    @Test
    void everyMeterIsTaggedWithTheProvidersName() throws Exception {
        a.mutex("orders/1").acquire(Duration.ofSeconds(5)).release();
        assertTrue(registry.getMeters().size() >= 5, "the service's meters: " + registry.getMeters());
        for (Meter meter : registry.getMeters()) {
            assertEquals("zookeeper-raw", meter.getId().getTag("provider"), meter.getId().toString());
        }
    }

    @Test
    void failedAttemptsAndConnectionState() throws Exception {
        assertEquals(1.0, gauge("lockspi.connection.state", "service", "a", "state", "connected"));
        assertEquals(0.0, gauge("lockspi.connection.state", "service", "a", "state", "suspended"));
        Acquirable lock = a.nonReentrantMutex("jobs/x");
        a.close();
        assertThrows(IllegalStateException.class, () -> lock.acquire(Duration.ofSeconds(1)));
        assertEquals(1, attempts("a", "jobs/x", "failed"));
        assertEquals(ConnectionState.CLOSED, a.connectionState());
        assertEquals(1.0, gauge("lockspi.connection.state", "service", "a", "state", "closed"));
        assertEquals(0.0, gauge("lockspi.connection.state", "service", "a", "state", "connected"));
    }

    @Test
    void lockNameCardinalityGuard() throws Exception {
        for (String name : new String[] {"one", "two", "three", "four"}) {
            a.nonReentrantMutex(name).acquire(Duration.ofSeconds(5)).release();
        }
        assertEquals(1, attempts("a", "one", "acquired"));
        assertEquals(1, attempts("a", "two", "acquired"));
        assertEquals(2, attempts("a", LockMetrics.OTHER_LOCKS, "acquired"), "three and four share one tag");
        assertEquals(0, registry.find("lockspi.acquire").tags("lock", "three").timers().size());
    }

    @Test
    void uncertainHeldAndLostTransitions() throws Exception {
        Lease lease = a.mutex("m").acquire(Duration.ofSeconds(5));
        java.util.concurrent.BlockingQueue<Lease> told = new java.util.concurrent.LinkedBlockingQueue<>();
        lease.addListener((l, previous, current) -> told.add(l));
        zookeeper.stopServer();
        try {
            Poll.until("connection state", ConnectionState.SUSPENDED, a::connectionState, WAIT);
            Poll.until("uncertain transitions", 1.0, () -> transitions("a", "uncertain"), WAIT);
            assertEquals(1.0, gauge("lockspi.connection.state", "service", "a", "state", "suspended"));
        } finally {
            zookeeper.startServer();
        }
        assertSame(lease, told.poll(15, TimeUnit.SECONDS), "an application's listener is given the metered lease");
        Poll.until("connection state", ConnectionState.CONNECTED, a::connectionState, WAIT);
        Poll.until("held again", 1.0, () -> transitions("a", "held"), WAIT);
        assertEquals(LeaseState.HELD, lease.state());

        zookeeper.expireAllSessions();
        Poll.until("lost transitions", 1.0, () -> transitions("a", "lost"), WAIT);
        assertEquals(0.0, gauge("lockspi.leases.active", "service", "a", "lock", "m"), "a lost lease is not active");
        lease.release();
    }

    @Test
    void builderChecks() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LockMetrics.builder(registry).maxLockNames(-1));
        assertEquals("maxLockNames < 0: -1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LockMetrics.builder(registry).service(" "));
        assertThrows(NullPointerException.class, () -> LockMetrics.bind(null, registry));
    }
    /** Asynchronous acquisitions are timed by outcome too; a cancelled one counts as interrupted and frees all. */
    @Test
    void asyncAcquisitionsAreMetered() throws Exception {
        org.lockspi.AsyncAcquirable lock = a.nonReentrantMutex("async");
        Lease first = lock.acquireAsync(WAIT).get(15, TimeUnit.SECONDS);
        assertEquals(1, attempts("a", "async", "acquired"));
        assertEquals(1.0, gauge("lockspi.leases.active", "service", "a", "lock", "async"));
        java.util.Optional<Lease> none = b.nonReentrantMutex("async").tryAcquireAsync(Duration.ofMillis(100))
                .get(15, TimeUnit.SECONDS);
        assertTrue(none.isEmpty(), "b got a lock a holds");
        assertEquals(1, attempts("b", "async", "timed_out"));
        java.util.concurrent.CompletableFuture<Lease> waiting = b.nonReentrantMutex("async").acquireAsync(WAIT);
        assertTrue(waiting.cancel(true), "the wait had ended already: " + waiting);
        assertEquals(1, attempts("b", "async", "interrupted"), "the cancelled wait counts as interrupted");
        first.release();
        assertEquals(0.0, gauge("lockspi.leases.active", "service", "a", "lock", "async"));
        try (Lease next = b.nonReentrantMutex("async").acquire(WAIT)) {   // the cancelled wait leaves nothing behind
            assertEquals(LeaseState.HELD, next.state());
        }
    }
}
