package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryBackend;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.spi.AcquireRequest;

/** {@link MultiLock}: checks, the global order, all or nothing, the worst state, release of every part. */
class MultiLockTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private List<String> asked() {
        return backend.requests().stream().map(AcquireRequest::name).toList();
    }

    private void assertFree(String... names) {
        LockService other = otherClient();
        for (String name : names) {
            assertTrue(other.nonReentrantMutex(name).tryAcquire().map(l -> {
                l.release();
                return true;
            }).orElse(false), "'" + name + "' must be free");
        }
    }

    @Test
    void badInputIsRefusedAtOnceAndNothingIsAcquired() {
        assertThrows(NullPointerException.class, () -> service.multiLock((List<LockPart>) null));
        assertThrows(NullPointerException.class, () -> service.multiLock((LockPart[]) null));
        assertEquals("part 1 of a multi-lock is null: [mutex 'a', null]", assertThrows(NullPointerException.class,
                () -> service.multiLock(LockPart.mutex("a"), null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> service.multiLock())
                .getMessage().contains("at least one part"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> service.multiLock(LockPart.mutex("a"), LockPart.mutex("b"), LockPart.mutex("a")))
                .getMessage().contains("names mutex 'a' twice"));
        String twoKinds = assertThrows(IllegalArgumentException.class,
                () -> service.multiLock(LockPart.write("a"), LockPart.read("a"))).getMessage();
        assertTrue(twoKinds.contains("lock 'a' twice, as read 'a' and as write 'a'"), twoKinds);
        assertThrows(IllegalArgumentException.class,
                () -> service.multiLock(LockPart.semaphore("s", 2), LockPart.semaphore("s", 3)));
        assertEquals("permits < 1: 0", assertThrows(IllegalArgumentException.class,
                () -> LockPart.semaphore("s", 0)).getMessage());
        assertThrows(NullPointerException.class, () -> LockPart.mutex(null));
        assertThrows(IllegalArgumentException.class, () -> LockPart.mutex(""));
        service.semaphore("in-use", 1);
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> service.multiLock(LockPart.mutex("a"), LockPart.mutex("in-use"))).getMessage()
                .contains("in use in this service"));
        assertEquals(List.of(), asked(), "nothing reached the backend");
    }

    @Test
    void aKindTheProviderLacksIsRefused() {
        MemoryProvider mutexOnly = new MemoryProvider("mutex-only", Set.of("mem"), 0,
                EnumSet.of(LockFeature.REENTRANT_MUTEX, LockFeature.FENCING_TOKENS, LockFeature.LOST_NOTIFICATION));
        try (LockService limited = Locks.open("mem://limited", mutexOnly)) {
            assertTrue(assertThrows(UnsupportedOperationException.class,
                    () -> limited.multiLock(LockPart.mutex("a"), LockPart.semaphore("b", 2))).getMessage()
                    .contains("SEMAPHORE"));
            assertEquals(List.of(), mutexOnly.lastBackend().requests());
        }
    }

    @Test
    void aClosedServiceRefusesMultiLocksAndTheirAcquisitions() {
        MultiLock before = service.multiLock(LockPart.mutex("a"), LockPart.mutex("b"));
        service.close();
        assertThrows(IllegalStateException.class, () -> service.multiLock(LockPart.mutex("a")));
        assertThrows(IllegalStateException.class, () -> before.acquire(WAIT));
        assertThrows(IllegalStateException.class, before::tryAcquire);
    }

    @Test
    void partsAreTakenInTheGlobalOrderAndReleasedInTheReverse() throws InterruptedException {
        MultiLock lock = service.multiLock(LockPart.semaphore("c", 2), LockPart.mutex("a/2"), LockPart.write("b"),
                LockPart.nonReentrantMutex("a/10"), LockPart.threadFreeRead("d"));
        assertEquals(List.of("a/10", "a/2", "b", "c", "d"), lock.parts().stream().map(LockPart::name).toList());
        assertEquals("a/10 + a/2 + b + c + d", lock.name());
        try (MultiLease lease = lock.acquire(WAIT)) {
            assertEquals(List.of("a/10", "a/2", "b", "c", "d"), asked());
            assertEquals(List.of("a/10", "a/2", "b", "c", "d"), lease.parts().stream().map(Lease::lockName).toList());
            assertEquals(LeaseState.HELD, lease.state());
            assertTrue(lease.validFor().compareTo(Duration.ZERO) > 0);
            lease.checkValid();
        }
        assertEquals(List.of("d", "c", "b", "a/2", "a/10"), backend.releasedNames());
    }

    @Test
    void everyPartIsHeldUntilTheMultiLeaseIsReleased() throws InterruptedException {
        LockService other = otherClient();
        MultiLease lease = service.multiLock(LockPart.mutex("m"), LockPart.read("r"), LockPart.semaphore("s", 1))
                .acquire(WAIT);
        assertTrue(other.mutex("m").tryAcquire().isEmpty());
        assertTrue(other.readWriteLock("r").writeLock().tryAcquire().isEmpty());
        other.readWriteLock("r").readLock().tryAcquire().orElseThrow().release(); // readers share
        assertTrue(other.semaphore("s", 1).tryAcquire().isEmpty());

        String noToken = assertThrows(UnsupportedOperationException.class, lease::fencingToken).getMessage();
        assertTrue(noToken.contains("no fencing token of its own") && noToken.contains("part(name)"), noToken);
        assertTrue(lease.part("m").fencingToken() > 0 && lease.part("s").fencingToken() > 0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lease.part("x")).getMessage()
                .contains("[m, r, s]"));
        Lease m = lease.part("m");
        assertTrue(assertThrows(UnsupportedOperationException.class, m::release).getMessage()
                .contains("release the multi-lease"));
        assertThrows(UnsupportedOperationException.class, m::close);
        assertEquals(LeaseState.HELD, m.state(), "a part cannot be released alone");
        assertTrue(other.mutex("m").tryAcquire().isEmpty());

        lease.release();
        assertEquals(LeaseState.RELEASED, lease.state());
        assertEquals(LeaseState.RELEASED, m.state());
        assertEquals(LeaseState.RELEASED, assertThrows(LeaseLostException.class, lease::checkValid).state());
        lease.release(); // twice: nothing
        assertEquals(3, backend.releaseCalls());
        other.mutex("m").tryAcquire().orElseThrow().release();
        other.readWriteLock("r").writeLock().tryAcquire().orElseThrow().release();
        other.semaphore("s", 1).tryAcquire().orElseThrow().release();
    }

    @Test
    void aTimeoutPartWayReleasesWhatWasTakenAndAsksNoFurther() throws InterruptedException {
        Lease b = otherClient().nonReentrantMutex("b").acquire();
        MultiLock lock = service.multiLock(LockPart.nonReentrantMutex("c"), LockPart.nonReentrantMutex("b"),
                LockPart.nonReentrantMutex("a"));
        LockTimeoutException e = assertThrows(LockTimeoutException.class, () -> lock.acquire(Duration.ofMillis(100)));
        assertEquals(Duration.ofMillis(100), e.timeout());
        assertTrue(e.getMessage().contains("a + b + c"), e.getMessage());
        assertEquals(List.of("a", "b"), asked(), "c is never asked for");
        assertEquals(List.of("a"), backend.releasedNames());
        assertFree("a", "c");
        assertTrue(lock.tryAcquire().isEmpty());
        assertTrue(lock.tryAcquire(Duration.ofMillis(50)).isEmpty());
        assertEquals(List.of("a", "a", "a"), backend.releasedNames());
        b.release();
        lock.tryAcquire().orElseThrow().release();
    }

    @Test
    void aFailedReleaseOnTheWayToEmptyIsThrown() {
        Lease b = null;
        try {
            b = otherClient().nonReentrantMutex("b").tryAcquire().orElseThrow();
            LockConnectionException failure = new LockConnectionException("server gone on release");
            backend.failReleases("a", failure);
            assertSame(failure, assertThrows(LockConnectionException.class,
                    () -> service.multiLock(LockPart.nonReentrantMutex("a"), LockPart.nonReentrantMutex("b"))
                            .tryAcquire()));
            assertFree("a");
        } finally {
            if (b != null) {
                b.release();
            }
        }
    }

    @Test
    void anInterruptPartWayReleasesWhatWasTaken() throws Throwable {
        Lease b = otherClient().mutex("b").acquire();
        MultiLock lock = service.multiLock(LockPart.mutex("a"), LockPart.mutex("b"));
        List<Throwable> outcome = new CopyOnWriteArrayList<>();
        Thread waiter = new Thread(() -> {
            try {
                lock.acquire();
                outcome.add(new AssertionError("acquired while b is held"));
            } catch (Throwable t) {
                outcome.add(t);
                outcome.add(new Throwable("flag " + Thread.currentThread().isInterrupted()));
            }
        }, "multi-waiter");
        waiter.start();
        backend.server().awaitWaiting(1);
        waiter.interrupt();
        waiter.join(5000);
        assertTrue(outcome.get(0) instanceof InterruptedException, outcome.toString());
        assertEquals("flag false", outcome.get(1).getMessage(), "the interrupt flag is cleared");
        assertEquals(List.of("a"), backend.releasedNames());
        assertFree("a");
        b.release();
    }

    @Test
    void theStateIsTheWorstPartsAndListenersHearEachChangeOnce() throws Exception {
        MultiLease lease = service.multiLock(LockPart.mutex("a"), LockPart.mutex("b")).acquire(WAIT);
        Recorder heard = new Recorder();
        lease.addListener(heard);
        MemoryBackend.MemoryLease a = granted("a");
        long now = System.nanoTime();
        backend.confirm(a, now - 1, now + Duration.ofMinutes(1).toNanos()); // a's confirmation is overdue
        assertEquals(LeaseState.UNCERTAIN, lease.state());
        assertEquals(LeaseState.HELD, lease.part("b").state());
        backend.events().connectionSuspended(); // b too: no second change
        backend.events().connectionRestored();
        backend.confirm(a, Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(LeaseState.HELD, lease.state());
        backend.lose(granted("b"));
        assertEquals(LeaseState.LOST, lease.state());
        heard.await(3);
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->HELD", "HELD->LOST"), heard.changes());
        assertTrue(heard.leases.stream().allMatch(l -> l == lease), "each call names the multi-lease");
        LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
        assertEquals("b", e.lockName());
        assertEquals(LeaseState.LOST, e.state());
        assertEquals(LeaseState.HELD, lease.part("a").state());

        Recorder late = new Recorder();
        lease.addListener(late);
        late.await(1);
        assertEquals(List.of("HELD->LOST"), late.changes(), "a listener added after the loss hears it once");
        lease.release(); // b's lost: no exception, a freed
        assertFree("a");
        assertEquals(LeaseState.RELEASED, lease.state());
        assertEquals(3, heard.changes().size(), "a release is not told");
    }

    @Test
    void aPartThatIsThreadOwnedMakesTheMultiLeaseTheThreads() throws Throwable {
        MultiLease owned = service.multiLock(LockPart.mutex("a"), LockPart.semaphore("s", 1)).acquire(WAIT);
        IllegalMonitorStateException e = inOtherThread(() -> assertThrows(IllegalMonitorStateException.class,
                owned::release));
        assertTrue(e.getMessage().contains("owned by thread '" + Thread.currentThread().getName() + "'"), e.getMessage());
        assertEquals(LeaseState.HELD, owned.state());
        assertEquals(0, backend.releaseCalls(), "nothing was released");
        owned.release();

        MultiLease free = service.multiLock(LockPart.nonReentrantMutex("n"), LockPart.semaphore("s", 1)).acquire(WAIT);
        inOtherThread(() -> {
            free.release();
            return null;
        });
        assertEquals(LeaseState.RELEASED, free.state());
        assertFree("n");
    }

    @Test
    void aHeldMutexIsANestedPartAndStaysHeldAfterTheRelease() throws InterruptedException {
        DistributedLock a = service.mutex("a");
        try (Lease outer = a.acquire(WAIT)) {
            try (MultiLease lease = service.multiLock(LockPart.mutex("a"), LockPart.mutex("b")).acquire(WAIT)) {
                assertEquals(2, a.holdCount());
                assertEquals(outer.fencingToken(), lease.part("a").fencingToken());
            }
            assertEquals(1, a.holdCount());
            assertTrue(otherClient().mutex("a").tryAcquire().isEmpty());
        }
        assertEquals(List.of("a", "b"), asked(), "a reached the backend once");
    }

    @Test
    void releaseAttemptsEveryPartAndCarriesEveryFailure() throws InterruptedException {
        LockConnectionException onA = new LockConnectionException("a: server gone on release");
        LockConnectionException onC = new LockConnectionException("c: server gone on release");
        MultiLease lease = service.multiLock(LockPart.mutex("a"), LockPart.mutex("b"), LockPart.mutex("c"))
                .acquire(WAIT);
        backend.failReleases("a", onA);
        backend.failReleases("c", onC);
        LockConnectionException e = assertThrows(LockConnectionException.class, lease::release);
        assertSame(onC, e, "released newest first: c's failure is the first");
        assertEquals(List.of(onA), List.of(e.getSuppressed()));
        assertEquals(List.of("c", "b", "a"), backend.releasedNames(), "every part was attempted");
        assertEquals(LeaseState.RELEASED, lease.state());
    }

    @Test
    void closingTheServiceEndsTheMultiLease() throws InterruptedException {
        MultiLease lease = service.multiLock(LockPart.mutex("a"), LockPart.nonReentrantMutex("b")).acquire(WAIT);
        service.close();
        assertEquals(LeaseState.RELEASED, lease.state());
        lease.release(); // does nothing
        assertFree("a", "b");
    }

    @Test
    void executeLockedGivesTheTaskTheMultiLease() throws InterruptedException {
        MultiLock lock = service.multiLock(LockPart.mutex("x"), LockPart.mutex("y"));
        long token = lock.executeLocked(WAIT, lease -> ((MultiLease) lease).part("y").fencingToken());
        assertTrue(token > 0);
        assertFalse(service.mutex("x").isHeldByCurrentThread());
        assertFree("x", "y");
    }

    private MemoryBackend.MemoryLease granted(String name) {
        return backend.granted().stream().filter(l -> l.request.name().equals(name)).reduce((x, y) -> y).orElseThrow();
    }

    /** Records a lease's state changes. */
    static final class Recorder implements LeaseListener {
        final List<String> changes = new CopyOnWriteArrayList<>();
        final List<Lease> leases = new CopyOnWriteArrayList<>();

        @Override
        public void stateChanged(Lease lease, LeaseState previous, LeaseState current) {
            leases.add(lease);
            changes.add(previous + "->" + current);
            synchronized (this) {
                notifyAll();
            }
        }

        synchronized void await(int n) throws InterruptedException {
            long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (changes.size() < n && end - System.nanoTime() > 0) {
                wait(100);
            }
            assertTrue(changes.size() >= n, "heard " + changes);
        }

        List<String> changes() {
            return new ArrayList<>(changes);
        }
    }
}
