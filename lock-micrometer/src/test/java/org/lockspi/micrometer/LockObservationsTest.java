package org.lockspi.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockPart;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.MultiLease;
import org.lockspi.StopWork;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** The observations of a bound service, read from Micrometer's {@link TestObservationRegistry}, on a real ZooKeeper. */
class LockObservationsTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static EmbeddedZooKeeperBackend zookeeper;

    private TestObservationRegistry registry;
    private LockService observed;
    private LockService other;

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
        registry = TestObservationRegistry.create();
        observed = LockObservations.builder(registry).service("orders").bind(open());
        other = open();
    }

    @AfterEach
    void close() {
        observed.close();
        other.close();
    }

    private static LockService open() {
        return Locks.open(zookeeper.uri() + "?sessionTimeout=4s&connectTimeout=5s", "zookeeper-raw");
    }

    /** @return the contexts of the observations named {@code name} that carry lock name {@code lock}, in order */
    private List<Observation.Context> observations(String name, String lock) {
        List<Observation.Context> found = new ArrayList<>();
        TestObservationRegistryAssert.assertThat(registry).hasHandledContextsThatSatisfy(all -> all.stream()
                .filter(c -> c.getName().equals(name) && lock.equals(high(c, LockObservations.NAME)))
                .forEach(found::add));
        return found;
    }

    private static String low(Observation.Context context, String key) {
        KeyValue value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    private static String high(Observation.Context context, String key) {
        KeyValue value = context.getHighCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    private static Observation.Context only(List<Observation.Context> contexts) {
        assertEquals(1, contexts.size(), contexts.toString());
        return contexts.get(0);
    }

    @Test
    void anAcquisitionAndItsHoldAreObservedWithNameKindProviderOutcomeAndToken() throws InterruptedException {
        long token;
        try (Lease lease = observed.mutex("orders/1").acquire(WAIT)) {
            token = lease.fencingToken();
            Observation.Context hold = only(observations(LockObservations.HOLD, "orders/1"));
            assertNull(low(hold, LockObservations.OUTCOME), "the hold is open while the lease is held");
        }
        Observation.Context acquire = only(observations(LockObservations.ACQUIRE, "orders/1"));
        assertEquals("lock acquire", acquire.getContextualName());
        assertEquals("mutex", low(acquire, LockObservations.KIND));
        assertEquals("zookeeper-raw", low(acquire, LockObservations.PROVIDER));
        assertEquals("orders", low(acquire, LockObservations.SERVICE));
        assertEquals("acquired", low(acquire, LockObservations.OUTCOME));
        assertEquals(Long.toString(token), high(acquire, LockObservations.TOKEN));
        Observation.Context hold = only(observations(LockObservations.HOLD, "orders/1"));
        assertEquals("lock hold", hold.getContextualName());
        assertEquals("released", low(hold, LockObservations.OUTCOME));
        assertEquals(Long.toString(token), high(hold, LockObservations.TOKEN));
        TestObservationRegistryAssert.assertThat(registry)
                .forAllObservationsWithNameEqualTo(LockObservations.HOLD, o -> o.doesNotHaveError());
    }

    @Test
    void aTimeoutAndAFailureEndTheAttemptWithoutAHold() throws InterruptedException {
        try (Lease held = other.mutex("busy").acquire(WAIT)) {
            assertTrue(observed.mutex("busy").tryAcquire().isEmpty());
            assertThrows(LockTimeoutException.class, () -> observed.mutex("busy").acquire(Duration.ofMillis(50)));
        }
        List<Observation.Context> attempts = observations(LockObservations.ACQUIRE, "busy");
        assertEquals(List.of("timed_out", "timed_out"), attempts.stream().map(c -> low(c, LockObservations.OUTCOME))
                .toList());
        assertNull(attempts.get(0).getError(), "a lock held elsewhere is no error");
        assertEquals(List.of(), observations(LockObservations.HOLD, "busy"));

        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> observed.nonReentrantMutex("interrupted").acquire(WAIT));
        assertEquals("interrupted", low(only(observations(LockObservations.ACQUIRE, "interrupted")),
                LockObservations.OUTCOME));

        LockService closed = LockObservations.bind(open(), registry);
        org.lockspi.DistributedLock lock = closed.mutex("closed");
        closed.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> lock.acquire(WAIT));
        Observation.Context failed = only(observations(LockObservations.ACQUIRE, "closed"));
        assertEquals("failed", low(failed, LockObservations.OUTCOME));
        assertSame(e, failed.getError());
        assertEquals("default", low(failed, LockObservations.SERVICE));
    }

    @Test
    void aLostLeaseEndsItsHoldWhenItIsLost() throws InterruptedException {
        Lease lease = observed.mutex("lost").acquire(WAIT);
        zookeeper.forceLoss("lost");
        Poll.until("the lease LOST", LeaseState.LOST, lease::state, WAIT);
        Poll.until("the hold ended", "lost",
                () -> low(only(observations(LockObservations.HOLD, "lost")), LockObservations.OUTCOME), WAIT);
        lease.release();
        assertEquals("lost", low(only(observations(LockObservations.HOLD, "lost")), LockObservations.OUTCOME),
                "the release after the loss does not end it again");
    }

    @Test
    void closingTheViewEndsTheHoldsStillOpen() throws InterruptedException {
        LockService closing = LockObservations.bind(open(), registry);
        closing.semaphore("slots", 2).acquire(WAIT);
        closing.close();
        assertEquals("closed", low(only(observations(LockObservations.HOLD, "slots")), LockObservations.OUTCOME));
        assertEquals("semaphore", low(only(observations(LockObservations.HOLD, "slots")), LockObservations.KIND));
    }

    @Test
    void aMultiLockIsOneObservationWithItsPartsTokens() throws InterruptedException {
        try (MultiLease lease = observed.multiLock(LockPart.mutex("m/b"), LockPart.nonReentrantMutex("m/a"))
                .acquire(WAIT)) {
            Observation.Context acquire = only(observations(LockObservations.ACQUIRE, "m/a + m/b"));
            assertEquals("multi", low(acquire, LockObservations.KIND));
            assertEquals("m/a=" + lease.part("m/a").fencingToken() + ",m/b=" + lease.part("m/b").fencingToken(),
                    high(acquire, LockObservations.TOKENS));
            assertNull(high(acquire, LockObservations.TOKEN), "a multi-lease has no token of its own");
            assertEquals(List.of("m/a", "m/b"), lease.parts().stream().map(Lease::lockName).toList());
        }
        assertEquals("released", low(only(observations(LockObservations.HOLD, "m/a + m/b")),
                LockObservations.OUTCOME));
    }

    @Test
    void anObservationOpenOnTheThreadIsTheParent() throws InterruptedException {
        Observation request = Observation.start("http.request", registry);
        try (Observation.Scope scope = request.openScope()) {
            observed.mutex("nested").executeLocked(WAIT, StopWork.WHEN_LOST, lease -> null);
        } finally {
            request.stop();
        }
        assertSame(request, only(observations(LockObservations.ACQUIRE, "nested")).getParentObservation());
        assertSame(request, only(observations(LockObservations.HOLD, "nested")).getParentObservation());
        assertEquals("released", low(only(observations(LockObservations.HOLD, "nested")), LockObservations.OUTCOME));
    }

    @Test
    void asynchronousWorkIsObservedToo() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            assertEquals("ran", observed.nonReentrantMutex("async").executeLockedAsync(WAIT, StopWork.WHEN_LOST,
                    lease -> "ran", pool).get(15, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        assertEquals("acquired", low(only(observations(LockObservations.ACQUIRE, "async")), LockObservations.OUTCOME));
        Poll.until("the hold ended", "released",
                () -> low(only(observations(LockObservations.HOLD, "async")), LockObservations.OUTCOME), WAIT);
    }

    @Test
    void metricsAndObservationsStack() throws InterruptedException {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        LockService both = LockMetrics.bind(LockObservations.bind(open(), registry), meters);
        try {
            both.mutex("stacked").acquire(WAIT).release();
        } finally {
            both.close();
        }
        assertEquals(1, meters.find("lockspi.acquire").tags("lock", "stacked", "outcome", "acquired").timer().count());
        assertEquals("released", low(only(observations(LockObservations.HOLD, "stacked")), LockObservations.OUTCOME));
    }

    @Test
    void badBindingsAreRefused() {
        assertThrows(NullPointerException.class, () -> LockObservations.builder(null));
        assertThrows(NullPointerException.class, () -> LockObservations.bind(null, registry));
        assertEquals("service name is blank: ' '", assertThrows(IllegalArgumentException.class,
                () -> LockObservations.builder(registry).service(" ")).getMessage());
        assertInstanceOf(LockService.class, LockObservations.builder(registry).service("x").bind(other));
    }
}
