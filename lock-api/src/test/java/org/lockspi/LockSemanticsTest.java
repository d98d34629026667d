package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryBackend;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.LockKeys;
import org.lockspi.spi.LockKind;

/** Reentrancy, ownership, read-write rules, lease-style locks, handles and arguments. */
class LockSemanticsTest extends EngineTestBase {
    private static final Duration SHORT = Duration.ofMillis(50);

    @Test
    void reentrantHoldCountsAndOneServerAcquisition() throws Exception {
        DistributedLock lock = service.mutex("orders/42");
        assertSame(lock, service.mutex("orders/42"));
        assertEquals("orders/42", lock.name());
        assertFalse(lock.isHeldByCurrentThread());
        assertEquals(0, lock.holdCount());
        Lease a = lock.acquire();
        Lease b = lock.acquire(SHORT);
        Lease c = lock.tryAcquire().orElseThrow();
        assertEquals(3, lock.holdCount());
        assertTrue(lock.isHeldByCurrentThread());
        assertEquals(1, backend.requests().size(), "nested acquisitions do not reach the backend");
        assertEquals(AcquireRequest.exclusive(LockKind.MUTEX, "orders/42").toString(),
                backend.requests().get(0).toString());
        assertEquals(a.fencingToken(), b.fencingToken());
        assertEquals(a.fencingToken(), c.fencingToken());
        assertEquals("orders/42", b.lockName());

        b.release();
        assertEquals(LeaseState.RELEASED, b.state());
        assertEquals(LeaseState.HELD, a.state());
        assertEquals(2, lock.holdCount());
        a.close();
        assertEquals(1, lock.holdCount());
        assertEquals(0, backend.releaseCalls(), "the server release waits for the last lease");
        assertEquals(1, backend.server().holderCount("orders/42"));
        c.release();
        assertEquals(1, backend.releaseCalls());
        assertEquals(0, backend.server().holderCount("orders/42"));
        assertEquals(0, lock.holdCount());
        assertFalse(lock.isHeldByCurrentThread());

        Lease again = lock.acquire();
        assertEquals(2, backend.requests().size(), "after the last release the next acquire goes to the server");
        assertTrue(again.fencingToken() > a.fencingToken());
        again.release();
    }

    @Test
    void releaseIsIdempotent() throws Exception {
        DistributedLock lock = service.mutex("m");
        Lease outer = lock.acquire();
        Lease inner = lock.acquire();
        inner.release();
        inner.release();
        inner.close();
        assertEquals(1, lock.holdCount(), "a second release of one lease does not take another's");
        assertEquals(LeaseState.HELD, outer.state());
        outer.close();
        outer.release();
        assertEquals(1, backend.releaseCalls());
        assertEquals(1, backend.granted().get(0).releases.get());
    }

    @Test
    void releaseByAnotherThreadIsRefusedAndTheLockStaysHeld() throws Throwable {
        DistributedLock lock = service.mutex("m");
        Lease lease = lock.acquire();
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class,
                () -> inOtherThread(() -> {
                    lease.release();
                    return null;
                }));
        assertTrue(e.getMessage().contains("belongs to thread '" + Thread.currentThread().getName() + "'")
                && e.getMessage().contains("not by 'other'"), e.getMessage());
        assertThrows(IllegalMonitorStateException.class, () -> inOtherThread(() -> {
            lease.close();
            return null;
        }));
        assertEquals(LeaseState.HELD, lease.state());
        assertEquals(1, lock.holdCount());
        assertEquals(0, backend.releaseCalls());
        assertEquals(1, backend.server().holderCount("m"));
        assertFalse(inOtherThread(lock::isHeldByCurrentThread));
        assertEquals(0, (int) inOtherThread(lock::holdCount));
        lease.release();
        assertEquals(0, backend.server().holderCount("m"));
    }

    @Test
    void threadsOfOneServiceExcludeEachOther() throws Throwable {
        DistributedLock lock = service.mutex("m");
        Lease lease = lock.acquire();
        assertEquals(Optional.empty(), inOtherThread(lock::tryAcquire));
        lease.release();
        Lease theirs = inOtherThread(lock::acquire);
        assertEquals(LeaseState.HELD, theirs.state());
        assertThrows(IllegalMonitorStateException.class, theirs::release);
    }

    @Test
    void twoServicesAreTwoClients() throws Exception {
        Lease mine = service.mutex("m").acquire();
        DistributedLock theirs = otherClient().mutex("m");
        assertEquals(Optional.empty(), theirs.tryAcquire());
        mine.release();
        theirs.acquire(SHORT).release();
    }

    @Test
    void readToWriteUpgradeIsRefusedAtOnce() throws Exception {
        DistributedReadWriteLock rw = service.readWriteLock("rw");
        assertSame(rw, service.readWriteLock("rw"));
        assertSame(rw.readLock(), rw.readLock());
        assertEquals("rw", rw.name());
        assertEquals("rw", rw.writeLock().name());
        Lease read = rw.readLock().acquire();
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class,
                () -> rw.writeLock().acquire());
        assertTrue(e.getMessage().contains("read-to-write upgrade refused")
                && e.getMessage().contains("'rw'"), e.getMessage());
        assertThrows(IllegalMonitorStateException.class, () -> rw.writeLock().acquire(SHORT));
        assertThrows(IllegalMonitorStateException.class, () -> rw.writeLock().tryAcquire());
        assertThrows(IllegalMonitorStateException.class, () -> rw.writeLock().tryAcquire(SHORT));
        assertThrows(IllegalMonitorStateException.class, () -> rw.writeLock().asJavaLock().lock());
        assertEquals(1, backend.requests().size(), "the upgrade never reached the backend");
        assertEquals(LeaseState.HELD, read.state());
        read.release();
        rw.writeLock().acquire().release();
    }

    @Test
    void downgradePassesTheHeldWrite() throws Throwable {
        DistributedReadWriteLock rw = service.readWriteLock("rw");
        Lease write = rw.writeLock().acquire();
        MemoryBackend.MemoryLease writeLease = backend.lastGranted();
        Lease read = rw.readLock().acquire(SHORT);
        AcquireRequest readRequest = backend.requests().get(1);
        assertEquals(LockKind.READ, readRequest.kind());
        assertSame(writeLease, readRequest.heldWrite());
        write.release();
        assertFalse(rw.writeLock().isHeldByCurrentThread());
        assertTrue(rw.readLock().isHeldByCurrentThread());
        assertEquals(LeaseState.HELD, read.state());
        DistributedReadWriteLock theirs = otherClient().readWriteLock("rw");
        assertEquals(Optional.empty(), theirs.writeLock().tryAcquire());
        theirs.readLock().tryAcquire().orElseThrow().release();
        read.release();
        Lease plainRead = rw.readLock().acquire();
        assertNull(backend.requests().get(backend.requests().size() - 1).heldWrite());
        plainRead.release();
    }

    @Test
    void writeWhileHoldingWriteAndReadIsNested() throws Exception {
        DistributedReadWriteLock rw = service.readWriteLock("rw");
        Lease w1 = rw.writeLock().acquire();
        Lease r = rw.readLock().acquire();
        Lease w2 = rw.writeLock().acquire(SHORT);
        assertEquals(2, rw.writeLock().holdCount());
        assertEquals(1, rw.readLock().holdCount());
        assertEquals(2, backend.requests().size());
        w2.release();
        w1.release();
        r.release();
        assertEquals(0, backend.server().holderCount("rw"));
    }

    @Test
    void nonReentrantMutexLeasesBelongToNoThread() throws Throwable {
        Acquirable lock = service.nonReentrantMutex("nr");
        assertSame(lock, service.nonReentrantMutex("nr"));
        Lease lease = lock.acquire();
        assertEquals(Optional.empty(), lock.tryAcquire(), "not reentrant, even for the holder");
        assertThrows(LockTimeoutException.class, () -> lock.acquire(SHORT));
        assertEquals(LockKind.NON_REENTRANT_MUTEX, backend.requests().get(0).kind());
        inOtherThread(() -> {
            lease.release();
            lease.release();
            return null;
        });
        assertEquals(LeaseState.RELEASED, lease.state());
        assertEquals(1, backend.releaseCalls());
        lease.close();
        assertEquals(1, backend.releaseCalls());
        lock.tryAcquire().orElseThrow().close();
    }

    @Test
    void semaphorePermits() throws Throwable {
        DistributedSemaphore sem = service.semaphore("pool", 2);
        assertSame(sem, service.semaphore("pool", 2));
        assertEquals(2, sem.permits());
        Lease a = sem.acquire();
        Lease b = sem.acquire(SHORT);
        assertEquals(Optional.empty(), sem.tryAcquire());
        assertEquals(Optional.empty(), sem.tryAcquire(SHORT));
        AcquireRequest r = backend.requests().get(0);
        assertEquals(LockKind.SEMAPHORE, r.kind());
        assertEquals(2, r.permits());
        assertNotNull(inOtherThread(() -> {
            a.release();
            return a;
        }));
        Lease c = sem.tryAcquire().orElseThrow();
        b.release();
        c.release();
        c.release();
        assertEquals(0, backend.server().holderCount("pool"));
        assertEquals(3, backend.releaseCalls());
    }

    @Test
    void semaphoreArguments() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> service.semaphore("s", 0));
        assertEquals("permits < 1: 0", zero.getMessage());
        assertEquals("permits < 1: -3",
                assertThrows(IllegalArgumentException.class, () -> service.semaphore("s", -3)).getMessage());
        service.semaphore("s", 3);
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> service.semaphore("s", 4));
        assertTrue(other.getMessage().contains("semaphore 's' has 3 permits") && other.getMessage().contains("4"),
                other.getMessage());
        assertThrows(NullPointerException.class, () -> service.semaphore(null, 1));
        assertThrows(IllegalArgumentException.class, () -> service.semaphore("", 1));
    }

    @Test
    void oneNameOneKind() {
        service.mutex("a");
        service.readWriteLock("b");
        service.semaphore("c", 1);
        service.nonReentrantMutex("d");
        List<Runnable> clashes = List.of(
                () -> service.readWriteLock("a"), () -> service.semaphore("a", 1), () -> service.nonReentrantMutex("a"),
                () -> service.mutex("b"), () -> service.semaphore("b", 1), () -> service.nonReentrantMutex("b"),
                () -> service.mutex("c"), () -> service.readWriteLock("c"), () -> service.nonReentrantMutex("c"),
                () -> service.mutex("d"), () -> service.readWriteLock("d"), () -> service.semaphore("d", 1));
        for (Runnable clash : clashes) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, clash::run);
            assertTrue(e.getMessage().contains("is in use in this service as a"), e.getMessage());
        }
    }

    @Test
    void namesAreChecked() {
        assertThrows(NullPointerException.class, () -> service.mutex(null));
        assertThrows(NullPointerException.class, () -> service.readWriteLock(null));
        assertThrows(NullPointerException.class, () -> service.nonReentrantMutex(null));
        for (String bad : List.of("", "a\ud800", "\udc00b", "x".repeat(4097), "\u00e4".repeat(2049))) {
            assertThrows(IllegalArgumentException.class, () -> service.mutex(bad));
            assertThrows(IllegalArgumentException.class, () -> service.readWriteLock(bad));
            assertThrows(IllegalArgumentException.class, () -> service.nonReentrantMutex(bad));
            assertThrows(IllegalArgumentException.class, () -> service.semaphore(bad, 1));
        }
    }

    @Test
    void anyStringIsALockNameAndTheBackendGetsItsKey() throws Exception {
        List<String> names = List.of("user:alice@example.com", "order#42", "/a", "a/", "a//b", ".a", "a",
                "~YQ", LockKeys.key("user:alice@example.com"), "x".repeat(4096), "\ud83d\udd12".repeat(1024));
        LockService other = otherClient();
        List<Lease> held = new ArrayList<>();
        for (String name : names) {
            DistributedLock lock = service.mutex(name);
            assertEquals(name, lock.name());
            Lease lease = lock.acquire(Duration.ofSeconds(1));
            assertEquals(name, lease.lockName());
            assertEquals(LockKeys.key(name), backend.granted().get(backend.granted().size() - 1).request.name());
            held.add(lease);
            assertTrue(other.mutex(name).tryAcquire().isEmpty(), "'" + name + "' is held");
        }
        held.forEach(Lease::release);
        LockTimeoutException timeout = assertThrows(LockTimeoutException.class, () -> {
            try (Lease l = other.mutex("user:alice@example.com").acquire()) {
                service.mutex("user:alice@example.com").acquire(Duration.ofMillis(20));
            }
        });
        assertTrue(timeout.getMessage().contains("'user:alice@example.com'"), timeout.getMessage());
    }

    @Test
    void missingFeaturesAreUnsupported() throws Exception {
        MemoryProvider bare = new MemoryProvider("bare", Set.of("mem"), 0, EnumSet.of(LockFeature.REENTRANT_MUTEX));
        try (LockService s = Locks.open("mem://h", bare)) {
            assertEquals(Set.of(LockFeature.REENTRANT_MUTEX), s.features());
            assertEquals("bare", s.providerName());
            for (Runnable r : List.<Runnable>of(() -> s.nonReentrantMutex("a"), () -> s.readWriteLock("a"),
                    () -> s.semaphore("a", 1))) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, r::run);
                assertTrue(e.getMessage().contains("provider 'bare' does not support"), e.getMessage());
            }
            Lease lease = s.mutex("a").acquire();
            UnsupportedOperationException token = assertThrows(UnsupportedOperationException.class,
                    lease::fencingToken);
            assertTrue(token.getMessage().contains("FENCING_TOKENS"), token.getMessage());
            UnsupportedOperationException listen = assertThrows(UnsupportedOperationException.class,
                    () -> lease.addListener((l, p, c) -> { }));
            assertTrue(listen.getMessage().contains("LOST_NOTIFICATION"), listen.getMessage());
            lease.release();
        }
        MemoryProvider none = new MemoryProvider("none", Set.of("mem"), 0, EnumSet.noneOf(LockFeature.class));
        try (LockService s = Locks.open("mem://h", none)) {
            assertThrows(UnsupportedOperationException.class, () -> s.mutex("a"));
        }
    }

    @Test
    void timeouts() throws Exception {
        Lease theirs = otherClient().mutex("m").acquire();
        DistributedLock lock = service.mutex("m");
        long start = System.nanoTime();
        LockTimeoutException e = assertThrows(LockTimeoutException.class, () -> lock.acquire(SHORT));
        assertTrue(System.nanoTime() - start >= SHORT.toNanos());
        assertEquals(SHORT, e.timeout());
        assertEquals("lock 'm' not acquired within PT0.05S", e.getMessage());
        assertEquals(Optional.empty(), lock.tryAcquire(SHORT));
        assertEquals(Optional.empty(), lock.tryAcquire(Duration.ZERO));
        assertEquals(Optional.empty(), lock.tryAcquire());
        assertThrows(LockTimeoutException.class, () -> lock.acquire(Duration.ZERO));
        assertEquals(0, lock.holdCount());
        assertEquals(1, backend.server().holderCount("m"), "a failed attempt leaves nothing behind");
        theirs.release();
        lock.acquire(SHORT).release();
    }

    @Test
    void badTimeoutsAreRefusedBeforeTheBackend() {
        for (Acquirable a : List.of(service.mutex("m"), service.semaphore("s", 1), service.nonReentrantMutex("n"),
                service.readWriteLock("rw").readLock())) {
            assertThrows(NullPointerException.class, () -> a.acquire(null));
            assertThrows(NullPointerException.class, () -> a.tryAcquire(null));
            IllegalArgumentException neg = assertThrows(IllegalArgumentException.class,
                    () -> a.acquire(Duration.ofSeconds(-1)));
            assertEquals("timeout < 0: PT-1S", neg.getMessage());
            assertThrows(IllegalArgumentException.class, () -> a.tryAcquire(Duration.ofNanos(-1)));
            assertThrows(IllegalArgumentException.class, () -> a.acquire(Acquirable.MAX_TIMEOUT.plusSeconds(1)));
            assertThrows(IllegalArgumentException.class, () -> a.tryAcquire(Duration.ofDays(10_000)));
        }
        assertTrue(backend.requests().isEmpty());
    }

    @Test
    void maxTimeoutIsAccepted() throws Exception {
        service.mutex("m").acquire(Acquirable.MAX_TIMEOUT).release();
        service.semaphore("s", 1).tryAcquire(Acquirable.MAX_TIMEOUT).orElseThrow().release();
    }

    @Test
    void interruptBeforeAcquire() {
        for (Acquirable a : List.of(service.mutex("m"), service.semaphore("s", 1), service.nonReentrantMutex("n"),
                service.readWriteLock("rw").writeLock())) {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, a::acquire);
            assertFalse(Thread.interrupted(), "the flag is cleared as the exception is thrown");
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> a.acquire(SHORT));
            assertFalse(Thread.interrupted());
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> a.tryAcquire(SHORT));
            assertFalse(Thread.interrupted());
        }
        assertTrue(backend.requests().isEmpty());
    }

    @Test
    void interruptBeforeANestedAcquire() throws Exception {
        DistributedLock lock = service.mutex("m");
        Lease held = lock.acquire();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::acquire, "as ReentrantLock.lockInterruptibly does");
        assertFalse(Thread.interrupted());
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.acquire(SHORT));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.tryAcquire(SHORT));
        assertFalse(Thread.interrupted());
        assertEquals(1, lock.holdCount());
        Thread.currentThread().interrupt();
        Lease nested = lock.tryAcquire().orElseThrow();
        assertTrue(Thread.interrupted(), "tryAcquire() keeps the flag and does not throw");
        nested.release();
        held.release();
    }

    @Test
    void interruptWhileWaitingLeavesNothingBehind() throws Throwable {
        Lease theirs = otherClient().mutex("m").acquire();
        DistributedLock lock = service.mutex("m");
        Thread[] waiter = new Thread[1];
        FutureTask<Object> f = start("waiter", () -> {
            waiter[0] = Thread.currentThread();
            try {
                lock.acquire();
                return "acquired";
            } catch (InterruptedException e) {
                return Thread.currentThread().isInterrupted() ? "flag still set" : e;
            }
        });
        backend.server().awaitWaiting(1);
        waiter[0].interrupt();
        assertTrue(await(f) instanceof InterruptedException, () -> String.valueOf(f));
        assertEquals(1, backend.server().holderCount("m"));
        theirs.release();
        assertEquals(0, backend.server().holderCount("m"));
    }

    @Test
    void tryAcquireKeepsTheInterruptFlag() {
        DistributedLock lock = service.mutex("m");
        Thread.currentThread().interrupt();
        Lease lease = lock.tryAcquire().orElseThrow();
        assertTrue(Thread.interrupted(), "the flag is kept when set");
        lease.release();
        Lease again = lock.tryAcquire().orElseThrow();
        assertFalse(Thread.currentThread().isInterrupted(), "and not set when clear");
        again.release();
        DistributedSemaphore sem = service.semaphore("s", 1);
        Thread.currentThread().interrupt();
        Lease permit = sem.tryAcquire().orElseThrow();
        assertTrue(Thread.currentThread().isInterrupted());
        Thread.currentThread().interrupt();
        assertEquals(Optional.empty(), sem.tryAcquire());
        assertTrue(Thread.interrupted());
        permit.release();
    }

    @Test
    void leaseToStringAndState() throws Exception {
        Lease lease = service.mutex("m").acquire();
        assertTrue(lease.isHeld());
        assertTrue(lease.toString().contains("'m'"), lease.toString());
        lease.release();
        assertFalse(lease.isHeld());
        assertThrows(NullPointerException.class, () -> lease.addListener(null));
        assertThrows(NullPointerException.class, () -> lease.removeListener(null));
    }
}
