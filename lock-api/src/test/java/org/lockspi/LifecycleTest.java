package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.lockspi.fixture.MemoryBackend;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockServices;

/** close() of a service, and services made by LockServices.create. */
class LifecycleTest extends EngineTestBase {

    private static Set<String> eventThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("lockspi-events-")).collect(Collectors.toSet());
    }

    @Test
    void closeReleasesLeasesQuietlyAndStopsEverything() throws Exception {
        DistributedLock mutex = service.mutex("m");
        Lease outer = mutex.acquire();
        Lease inner = mutex.acquire();
        Lease permit = service.semaphore("s", 2).acquire();
        Lease read = service.readWriteLock("rw").readLock().acquire();
        List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch uncertain = new CountDownLatch(4);
        for (Lease l : List.of(outer, inner, permit, read)) {
            l.addListener((lease, p, c) -> {
                calls.add(p + "->" + c);
                uncertain.countDown();
            });
        }
        backend.events().connectionSuspended();
        assertTrue(uncertain.await(5, TimeUnit.SECONDS));
        assertTrue(eventThreads().stream().anyMatch(n -> n.startsWith("lockspi-events-engine-")));
        backend.events().connectionRestored();

        service.close();
        assertTrue(service.isClosed());
        for (Lease l : List.of(outer, inner, permit, read)) {
            assertEquals(LeaseState.RELEASED, l.state());
        }
        assertEquals(8, calls.size(), () -> "only the suspend/restore calls, none for close: " + calls);
        assertFalse(calls.contains("HELD->RELEASED") || calls.contains("UNCERTAIN->RELEASED"), calls::toString);
        assertEquals(1, backend.closeCalls());
        assertTrue(backend.isClosed());
        assertEquals(Set.of(), eventThreads().stream().filter(n -> n.startsWith("lockspi-events-engine-"))
                .collect(Collectors.toSet()));
        assertFalse(mutex.isHeldByCurrentThread());
        assertEquals(0, mutex.holdCount());

        service.close();
        assertEquals(1, backend.closeCalls(), "close is idempotent");
        outer.release();
        inner.close();
        assertEquals(0, backend.releaseCalls(), "the backend's close freed them");
        backend.events().connectionSuspended();
        backend.events().leaseLost(backend.lastGranted());
        assertEquals(LeaseState.RELEASED, read.state());
    }

    @Test
    void leaseOfAClosedServiceMayBeReleasedFromAnyThread() throws Throwable {
        Lease lease = service.mutex("m").acquire();
        service.close();
        inOtherThread(() -> {
            lease.release();
            return null;
        });
        assertEquals(LeaseState.RELEASED, lease.state());
    }

    @Test
    void everyMethodButAFewThrowsAfterClose() {
        DistributedLock mutex = service.mutex("m");
        DistributedSemaphore sem = service.semaphore("s", 1);
        Acquirable nr = service.nonReentrantMutex("n");
        DistributedReadWriteLock rw = service.readWriteLock("rw");
        service.close();
        assertEquals("engine", service.providerName());
        assertEquals(EnumSet.allOf(LockFeature.class), service.features());
        List<Executable> calls = List.of(() -> service.mutex("m"), () -> service.mutex("x"),
                () -> service.semaphore("s", 1), () -> service.nonReentrantMutex("n"),
                () -> service.readWriteLock("rw"));
        for (Executable call : calls) {
            IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertTrue(e.getMessage().startsWith("lock service is closed: mem://engine/test"), e.getMessage());
        }
        for (Acquirable a : List.of(mutex, sem, nr, rw.readLock(), rw.writeLock())) {
            assertThrows(IllegalStateException.class, a::acquire);
            assertThrows(IllegalStateException.class, () -> a.acquire(Duration.ofMillis(10)));
            assertThrows(IllegalStateException.class, a::tryAcquire);
            assertThrows(IllegalStateException.class, () -> a.tryAcquire(Duration.ofMillis(10)));
            assertThrows(IllegalStateException.class, () -> a.asJavaLock().lock());
            assertThrows(IllegalStateException.class, () -> a.asJavaLock().tryLock());
        }
        assertTrue(backend.requests().isEmpty());
    }

    @Test
    void closeFailsWaitingAcquisitions() throws Throwable {
        Lease theirs = otherClient().mutex("m").acquire();
        DistributedLock lock = service.mutex("m");
        FutureTask<Lease> waiting = start("waiter", lock::acquire);
        backend.server().awaitWaiting(1);
        service.close();
        assertThrows(IllegalStateException.class, () -> await(waiting));
        assertEquals(1, backend.server().holderCount("m"));
        theirs.release();
    }

    /** The event thread has ended when close() returns, not a moment later (repeated: it is a race). */
    @RepeatedTest(40)
    void noEventThreadOutlivesClose() throws Exception {
        LockService s = otherClient();
        Lease lease = s.mutex("m").acquire();
        CountDownLatch called = new CountDownLatch(1);
        lease.addListener((l, p, c) -> called.countDown());
        provider.lastBackend().events().connectionSuspended();
        assertTrue(called.await(5, TimeUnit.SECONDS));
        String prefix = "lockspi-events-engine-";
        assertTrue(eventThreads().stream().anyMatch(n -> n.startsWith(prefix)));
        s.close();
        assertEquals(Set.of(), eventThreads().stream().filter(n -> n.startsWith(prefix)).collect(Collectors.toSet()));
    }

    @Test
    void closeWithoutEverDispatchingStartsNoThread() {
        Set<String> before = eventThreads();
        LockService s = otherClient();
        s.close();
        assertEquals(before, eventThreads());
    }

    @Test
    void closeFailureOfTheBackendIsThrownOnceAndTheServiceIsClosed() {
        MemoryProvider p = MemoryProvider.full("failing");
        AtomicInteger closes = new AtomicInteger();
        LockService s = LockServices.create(p, "failing backend", events -> new LockBackend() {
            @Override
            public org.lockspi.spi.BackendLease acquire(org.lockspi.spi.AcquireRequest r,
                                                        org.lockspi.spi.Deadline d) {
                throw new AssertionError("not called");
            }

            @Override
            public void close() {
                closes.incrementAndGet();
                throw new LockConnectionException("cannot say goodbye to the test server");
            }
        });
        assertThrows(LockConnectionException.class, s::close);
        assertTrue(s.isClosed());
        s.close();
        assertEquals(1, closes.get());
    }

    @Test
    void lockServicesCreate() throws Exception {
        MemoryProvider p = MemoryProvider.full("wrapped");
        MemoryBackend.Server server = new MemoryBackend.Server();
        AtomicInteger calls = new AtomicInteger();
        MemoryBackend[] made = new MemoryBackend[1];
        Function<BackendEvents, LockBackend> opener = events -> {
            calls.incrementAndGet();
            made[0] = new MemoryBackend(server, events);
            return made[0];
        };
        try (LockService s = LockServices.create(p, "an existing client", opener)) {
            assertEquals(1, calls.get(), "called once, at once");
            assertEquals("wrapped", s.providerName());
            assertTrue(s.toString().contains("an existing client"), s.toString());
            DistributedLock m = s.mutex("m");
            Lease a = m.acquire();
            Lease b = m.acquire();
            assertEquals(2, m.holdCount());
            assertEquals(1, made[0].requests().size());
            CountDownLatch lost = new CountDownLatch(1);
            b.addListener((l, prev, now) -> lost.countDown());
            made[0].lose(made[0].lastGranted());
            assertTrue(lost.await(5, TimeUnit.SECONDS));
            assertEquals(LeaseState.LOST, a.state());
            a.release();
            b.release();
        }
        assertTrue(made[0].isClosed());
        assertThrows(NullPointerException.class, () -> LockServices.create(null, "d", opener));
        assertThrows(NullPointerException.class, () -> LockServices.create(p, null, opener));
        assertThrows(NullPointerException.class, () -> LockServices.create(p, "d", null));
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> LockServices.create(p, "nothing", events -> null));
        assertTrue(none.getMessage().contains("'wrapped'") && none.getMessage().contains("nothing"),
                none.getMessage());
        LockConnectionException refused = assertThrows(LockConnectionException.class,
                () -> LockServices.create(p, "down", events -> {
                    throw new LockConnectionException("cannot reach down:1");
                }));
        assertEquals("cannot reach down:1", refused.getMessage());
    }

    /** An application-client form's query carries the engine's failFast; the provider sees only its own. */
    @Test
    void lockServicesCreateReadsTheEnginesParameters() throws Exception {
        MemoryProvider p = MemoryProvider.full("wrapped");
        MemoryBackend.Server server = new MemoryBackend.Server();
        BackendEvents[] told = new BackendEvents[1];
        Function<BackendEvents, LockBackend> opener = events -> {
            told[0] = events;
            return new MemoryBackend(server, events);
        };
        try (LockService s = LockServices.create(p, "an existing client", "?leaseTime=5s&failFast=0ms", opener)) {
            told[0].connectionSuspended();
            LockConnectionException e = assertThrows(LockConnectionException.class,
                    () -> s.mutex("m").acquire(Duration.ofSeconds(30)));
            assertTrue(e.getMessage().contains("failFast=PT0S"), e.getMessage());
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> LockServices.create(p, "d", "failFast=soon", opener));
        assertTrue(bad.getMessage().contains("failFast"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LockServices.create(p, "d", "failFast=2h", opener));
        assertThrows(NullPointerException.class, () -> LockServices.create(p, "d", null, opener));
        assertEquals("leaseTime=5s&tablePrefix=a_", LockServices.providerParameters("?leaseTime=5s&failFast=1s"
                + "&tablePrefix=a_"));
        assertEquals("", LockServices.providerParameters("failFast=1s"));
        assertEquals("", LockServices.providerParameters(""));
    }

    @Test
    void closedWhileTheBackendGrantsGivesTheLeaseBack() {
        MemoryProvider p = MemoryProvider.full("racing");
        LockService[] self = new LockService[1];
        AtomicInteger released = new AtomicInteger();
        LockService s = LockServices.create(p, "racing backend", events -> new LockBackend() {
            @Override
            public org.lockspi.spi.BackendLease acquire(org.lockspi.spi.AcquireRequest r,
                                                        org.lockspi.spi.Deadline d) {
                self[0].close(); // another thread's close(), as the grant arrives
                return new org.lockspi.spi.BackendLease() {
                    @Override
                    public long fencingToken() {
                        return 1;
                    }

                    @Override
                    public boolean isLost() {
                        return false;
                    }

                    @Override
                    public void release() {
                        released.incrementAndGet();
                    }
                };
            }

            @Override
            public void close() {
            }
        });
        self[0] = s;
        DistributedLock mutex = s.mutex("m");
        IllegalStateException e = assertThrows(IllegalStateException.class, mutex::acquire);
        assertTrue(e.getMessage().startsWith("lock service is closed: racing backend"), e.getMessage());
        assertEquals(1, released.get(), "the grant was given back");
        assertFalse(mutex.isHeldByCurrentThread());
    }

    @Test
    void credentialsStayOutOfTheServiceDescription() {
        LockService s = Locks.open("mem://bob:secret@h/app", provider);
        assertTrue(s.toString().contains("mem://bob:***@h/app"), s.toString());
        assertFalse(s.toString().contains("secret"), s.toString());
        s.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.mutex("m"));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertEquals("bob", provider.lastBackend() == null ? null
                : provider.openedUris().get(provider.openedUris().size() - 1).user().orElseThrow());
        assertEquals("secret", provider.openedUris().get(provider.openedUris().size() - 1).password().orElseThrow(),
                "the provider gets the password itself");
    }

    @Test
    void sameHandleInstancesAndFeatures() {
        assertSame(service.mutex("a"), service.mutex("a"));
        assertSame(service.readWriteLock("b").writeLock(), service.readWriteLock("b").writeLock());
        assertEquals("engine", service.providerName());
        assertThrows(UnsupportedOperationException.class, () -> service.features().clear());
    }
}
