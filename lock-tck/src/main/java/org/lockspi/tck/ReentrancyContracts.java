package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Async;

/** §4 Reentrancy and ownership of the mutex: hold counts per thread, release only by the owning thread. */
public interface ReentrancyContracts extends TckContext {

    @Test
    @DisplayName("§4.1 the holding thread may acquire again: hold counts, nested leases, freed by the last release")
    default void holdCounts() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("reentrant");
        LockService client = openClient();
        LockService other = openClient();
        DistributedLock lock = client.mutex(name);
        assertFalse(lock.isHeldByCurrentThread());
        assertEquals(0, lock.holdCount());
        Lease outer = lock.acquire(WAIT);
        Lease middle = lock.tryAcquire().orElseThrow(() -> new AssertionError("nested tryAcquire() failed"));
        Lease inner = lock.acquire(BOUND);
        assertEquals(3, lock.holdCount());
        assertTrue(lock.isHeldByCurrentThread());
        Async<Integer> elsewhere = Async.start("other-thread", () -> {
            assertFalse(lock.isHeldByCurrentThread(), "another thread of the service sees the lock as its own");
            return lock.holdCount();
        });
        assertEquals(0, elsewhere.get(BOUND), "hold count seen by another thread");
        inner.release();
        assertEquals(2, lock.holdCount());
        middle.release();
        assertEquals(1, lock.holdCount());
        assertTrue(lock.isHeldByCurrentThread());
        assertTrue(other.mutex(name).tryAcquire().isEmpty(), "the lock was freed before the last lease was released");
        outer.release();
        assertEquals(0, lock.holdCount());
        assertFalse(lock.isHeldByCurrentThread());
        Optional<Lease> next = other.mutex(name).tryAcquire(WAIT);
        assertTrue(next.isPresent(), "the lock was not freed by the last release");
        next.get().release();
    }

    @Test
    @DisplayName("§4.2 another thread of the holding service waits like any other client")
    default void otherThreadOfServiceExcluded() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("thread-owned");
        DistributedLock lock = openClient().mutex(name);
        try (Lease held = lock.acquire(WAIT)) {
            Async<Optional<Lease>> other = Async.start("same-service", () -> lock.tryAcquire());
            assertTrue(other.get(BOUND).isEmpty(), "another thread of the same service got a held mutex");
        }
        Async<Boolean> after = Async.start("same-service-after", () -> {
            try (Lease lease = lock.tryAcquire().orElseThrow(() -> new AssertionError("not freed"))) {
                return lease.isHeld();
            }
        });
        assertTrue(after.get(WAIT));
    }

    @Test
    @DisplayName("§4.3 a lease is HELD while held and RELEASED after release; it knows its lock's name")
    default void leaseStates() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("states");
        DistributedLock lock = openClient().mutex(name);
        Lease lease = lock.acquire(WAIT);
        assertEquals(LeaseState.HELD, lease.state());
        assertTrue(lease.isHeld());
        assertEquals(name, lease.lockName());
        try (Lease nested = lock.acquire(WAIT)) {
            assertEquals(LeaseState.HELD, nested.state());
        }
        assertEquals(LeaseState.HELD, lease.state(), "releasing a nested lease changed the outer lease");
        lease.release();
        assertEquals(LeaseState.RELEASED, lease.state());
        assertFalse(lease.isHeld());
    }

    @Test
    @DisplayName("§4.4 release by a thread that does not own the lease throws IllegalMonitorStateException; the lock stays held")
    default void nonOwnerReleaseRefused() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("owner");
        LockService client = openClient();
        LockService other = openClient();
        DistributedLock lock = client.mutex(name);
        Lease lease = lock.acquire(WAIT);
        Throwable thrown = Async.start("intruder", () -> {
            lease.release();
            return null;
        }).failure(BOUND);
        assertTrue(thrown instanceof IllegalMonitorStateException,
                "release by a non-owner must throw IllegalMonitorStateException, got " + thrown);
        Throwable closed = Async.start("intruder-close", () -> {
            lease.close();
            return null;
        }).failure(BOUND);
        assertTrue(closed instanceof IllegalMonitorStateException,
                "close() by a non-owner must throw IllegalMonitorStateException, got " + closed);
        assertEquals(LeaseState.HELD, lease.state(), "a refused release changed the lease");
        assertTrue(lock.isHeldByCurrentThread());
        assertEquals(1, lock.holdCount());
        assertTrue(other.mutex(name).tryAcquire().isEmpty(), "a refused release freed the lock");
        lease.release();
        assertTrue(other.mutex(name).tryAcquire(WAIT).map(l -> {
            l.release();
            return true;
        }).orElse(false), "the owner's release did not free the lock");
    }

    @Test
    @DisplayName("§4.5 releasing a lease twice is harmless: it does not release another lease of the hold")
    default void doubleReleaseHarmless() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("twice");
        LockService client = openClient();
        LockService other = openClient();
        DistributedLock lock = client.mutex(name);
        Lease outer = lock.acquire(WAIT);
        Lease inner = lock.acquire(WAIT);
        inner.release();
        inner.release();
        inner.close();
        assertEquals(1, lock.holdCount(), "a second release of the inner lease released the outer one");
        assertEquals(LeaseState.HELD, outer.state());
        assertTrue(other.mutex(name).tryAcquire().isEmpty(), "a second release of the inner lease freed the lock");
        outer.release();
        outer.release();
        assertEquals(LeaseState.RELEASED, outer.state());
        assertEquals(0, lock.holdCount());
        Lease next = other.mutex(name).tryAcquire(WAIT).orElseThrow(() -> new AssertionError("lock not freed"));
        outer.release();
        assertEquals(LeaseState.HELD, next.state(), "a third release of an old lease touched the next holder");
        assertTrue(lock.tryAcquire().isEmpty(), "a late release of an old lease freed the next holder's lock");
        next.release();
    }

    @Test
    @DisplayName("§4.6 asJavaLock(): lock, tryLock (an over-long wait meaning no limit) and unlock work; unlock without a hold throws IllegalMonitorStateException")
    default void javaLockView() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("java-lock");
        DistributedLock lock = openClient().mutex(name);
        DistributedLock other = openClient().mutex(name);
        Lock view = lock.asJavaLock();
        assertSame(view, lock.asJavaLock(), "asJavaLock() must return the same instance");
        assertThrows(IllegalMonitorStateException.class, view::unlock, "unlock() without a hold");
        view.lock();
        assertTrue(lock.isHeldByCurrentThread());
        assertTrue(view.tryLock(), "nested tryLock()");
        assertTrue(view.tryLock(1, TimeUnit.SECONDS), "nested tryLock(time, unit)");
        assertTrue(view.tryLock(Long.MAX_VALUE, TimeUnit.DAYS), "tryLock(Long.MAX_VALUE, DAYS), an unlimited wait");
        assertEquals(4, lock.holdCount());
        assertFalse(other.asJavaLock().tryLock(), "another client's tryLock() got a held lock");
        assertFalse(other.asJavaLock().tryLock(100, TimeUnit.MILLISECONDS), "the same with a timeout");
        Throwable foreign = Async.start("foreign-unlock", () -> {
            view.unlock();
            return null;
        }).failure(BOUND);
        assertTrue(foreign instanceof IllegalMonitorStateException, "unlock() by a non-holding thread: " + foreign);
        for (int i = 0; i < 4; i++) {
            view.unlock();
        }
        assertEquals(0, lock.holdCount());
        assertThrows(IllegalMonitorStateException.class, view::unlock, "unlock() after the last unlock()");
        assertTrue(other.asJavaLock().tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS), "lock not freed by unlock()");
        other.asJavaLock().unlock();
        assertThrows(UnsupportedOperationException.class, view::newCondition);
    }

    @Test
    @DisplayName("§4.7 nested leases share their hold's fencing token; the next holder's token is greater")
    default void nestedLeasesShareToken() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.FENCING_TOKENS);
        String name = uniqueName("nested-token");
        DistributedLock lock = openClient().mutex(name);
        DistributedLock other = openClient().mutex(name);
        long first;
        try (Lease outer = lock.acquire(WAIT); Lease inner = lock.acquire(WAIT)) {
            first = outer.fencingToken();
            assertEquals(first, inner.fencingToken(), "nested leases of one hold have different tokens");
        }
        try (Lease next = other.acquire(WAIT)) {
            assertTrue(next.fencingToken() > first, "the next holder's token " + next.fencingToken()
                    + " is not greater than the previous holder's " + first);
        }
    }
}
