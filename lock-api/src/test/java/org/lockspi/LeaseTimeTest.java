package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.spi.AcquireRequest;

/**
 * The engine's part of {@link Acquirable#withLeaseTime(Duration)}: the checks, the refusal without
 * {@link LockFeature#LEASE_TIME}, and the lease time carried to the backend by every form of acquisition of every
 * kind, through {@link AcquireRequest#leaseTime()}; a nested acquisition asks the backend nothing. What the lease
 * time does on a server is the providers' and the kit's (§26).
 */
class LeaseTimeTest extends EngineTestBase {
    private static final Duration T = Duration.ofSeconds(7);

    /** @return the lease time of each request the backend has seen since {@code from} */
    private List<Optional<Duration>> leaseTimes(int from) {
        List<AcquireRequest> all = backend.requests();
        return all.subList(from, all.size()).stream().map(AcquireRequest::leaseTime).collect(Collectors.toList());
    }

    @Test
    void everyFormOfAcquisitionOfAViewCarriesTheLeaseTime() throws Exception {
        DistributedLock mutex = service.mutex("m").withLeaseTime(T);
        mutex.acquire().release();
        mutex.acquire(Duration.ofSeconds(1)).release();
        mutex.tryAcquire().orElseThrow().release();
        mutex.tryAcquire(Duration.ofSeconds(1)).orElseThrow().release();
        mutex.executeLocked(Duration.ofSeconds(1), () -> { });
        mutex.asJavaLock().lock();
        mutex.asJavaLock().unlock();
        AsyncAcquirable nrm = service.nonReentrantMutex("n").withLeaseTime(T);
        nrm.acquireAsync(Duration.ofSeconds(1)).get(5, TimeUnit.SECONDS).release();
        nrm.tryAcquireAsync(Duration.ofSeconds(1)).get(5, TimeUnit.SECONDS).orElseThrow().release();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            nrm.executeLockedAsync(Duration.ofSeconds(1), StopWork.NEVER, lease -> null, executor)
                    .get(5, TimeUnit.SECONDS);
        } finally {
            executor.shutdown();
        }
        assertEquals(java.util.Collections.nCopies(9, Optional.of(T)), leaseTimes(0));
        mutex.acquire().release();
        service.mutex("m").acquire().release();
        assertEquals(Optional.empty(), leaseTimes(10).get(0), "the lock itself carries none");
    }

    @Test
    void everyKindHasAView() throws Exception {
        List<Function<LockService, Acquirable>> kinds = List.of(
                s -> s.mutex("a"), s -> s.nonReentrantMutex("b"), s -> s.readWriteLock("c").readLock(),
                s -> s.readWriteLock("c").writeLock(), s -> s.semaphore("d", 2),
                s -> s.threadFreeReadWriteLock("e").readLock(), s -> s.threadFreeReadWriteLock("e").writeLock(),
                s -> s.multiLock(LockPart.mutex("f"), LockPart.semaphore("g", 3)));
        for (Function<LockService, Acquirable> kind : kinds) {
            Acquirable lock = kind.apply(service);
            Acquirable view = lock.withLeaseTime(T);
            assertEquals(lock.name(), view.name());
            assertEquals(lock.getClass(), view.getClass(), "a view is of the lock's own type");
            int before = backend.requests().size();
            try (Lease lease = view.acquire(Duration.ofSeconds(1))) {
                assertEquals(LeaseState.HELD, lease.state());
                assertTrue(leaseTimes(before).stream().allMatch(Optional.of(T)::equals), lock + ": "
                        + leaseTimes(before));
                if (lock.name().equals("b") || lock.toString().startsWith("thread-free write")) {
                    assertEquals(Optional.empty(), lock.tryAcquire(), "the view holds the lock itself: " + lock);
                }
            }
        }
        DistributedSemaphore semaphore = service.semaphore("d", 2).withLeaseTime(T);
        assertEquals(2, semaphore.permits());
        Duration other = Duration.ofMillis(1500);
        int before = backend.requests().size();
        semaphore.withLeaseTime(other).acquire().release();
        assertEquals(List.of(Optional.of(other)), leaseTimes(before), "a view of a view has the new lease time");
    }

    @Test
    void aNestedAcquisitionThroughAViewIsANestedLeaseOfTheOuterOne() throws Exception {
        DistributedLock mutex = service.mutex("m");
        DistributedLock view = mutex.withLeaseTime(T);
        try (Lease outer = mutex.acquire()) {
            int before = backend.requests().size();
            try (Lease inner = view.acquire(Duration.ofSeconds(1))) {
                assertEquals(before, backend.requests().size(), "nested: nothing asked of the backend");
                assertEquals(outer.fencingToken(), inner.fencingToken());
                assertEquals(2, view.holdCount());
                assertTrue(view.isHeldByCurrentThread());
            }
            assertEquals(1, mutex.holdCount());
        }
        assertEquals(0, view.holdCount());
        try (Lease outer = view.acquire()) {
            try (Lease inner = mutex.acquire()) {
                assertEquals(2, mutex.holdCount(), "the lock sees the view's hold: one lock");
            }
        }
    }

    @Test
    void badLeaseTimesAreRefusedStatingTheValue() {
        DistributedLock mutex = service.mutex("m");
        NullPointerException npe = assertThrows(NullPointerException.class, () -> mutex.withLeaseTime(null));
        assertEquals("leaseTime is null", npe.getMessage());
        assertEquals("leaseTime <= 0: PT0S", assertThrows(IllegalArgumentException.class,
                () -> mutex.withLeaseTime(Duration.ZERO)).getMessage());
        assertEquals("leaseTime <= 0: PT-0.001S", assertThrows(IllegalArgumentException.class,
                () -> mutex.withLeaseTime(Duration.ofMillis(-1))).getMessage());
        assertEquals("leaseTime > PT8760H: PT8760H0.001S", assertThrows(IllegalArgumentException.class,
                () -> service.semaphore("s", 1).withLeaseTime(Acquirable.MAX_LEASE_TIME.plusMillis(1))).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> service.multiLock(LockPart.mutex("x")).withLeaseTime(Duration.ofNanos(-1)));
        mutex.withLeaseTime(Acquirable.MAX_LEASE_TIME);
        mutex.withLeaseTime(Duration.ofNanos(1));
        assertEquals(0, backend.requests().size(), "nothing was asked of the backend");
    }

    @Test
    void aProviderWithoutTheFeatureRefusesAtOnceNamingItselfAndTheFeature() {
        EnumSet<LockFeature> features = EnumSet.allOf(LockFeature.class);
        features.remove(LockFeature.LEASE_TIME);
        MemoryProvider without = new MemoryProvider("renewing", java.util.Set.of("mem"), 0, features);
        try (LockService other = Locks.open("mem://engine/test", without)) {
            for (Acquirable lock : List.of(other.mutex("m"), other.nonReentrantMutex("n"), other.semaphore("s", 1),
                    other.readWriteLock("r").writeLock(), other.threadFreeReadWriteLock("t").readLock(),
                    other.multiLock(LockPart.mutex("m")))) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> lock.withLeaseTime(T));
                assertTrue(e.getMessage().startsWith("provider 'renewing' does not support a lease time per "
                        + "acquisition (it lacks LEASE_TIME"), e.getMessage());
            }
            assertEquals(0, without.lastBackend().requests().size());
        }
    }

    @Test
    void aClosedServiceRefusesAView() {
        DistributedLock mutex = service.mutex("m");
        service.close();
        assertThrows(IllegalStateException.class, () -> mutex.withLeaseTime(T));
    }

    @Test
    void aViewIsNotCached() {
        DistributedLock mutex = service.mutex("m");
        assertSame(mutex, service.mutex("m"));
        assertTrue(mutex.withLeaseTime(T) != mutex.withLeaseTime(T));
        assertTrue(mutex.withLeaseTime(T).toString().contains("leaseTime PT7S"), mutex.withLeaseTime(T)::toString);
    }
}
