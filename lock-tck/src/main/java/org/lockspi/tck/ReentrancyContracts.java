package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;

import java.util.ArrayList;
import java.util.List;
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
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/** §4 Reentrancy and ownership of the mutex: hold counts per thread, release only by the owning thread. */
@Inapplicable(kinds = {NON_REENTRANT_MUTEX, SEMAPHORE, THREAD_FREE, ASYNC}, reason = Why.THREAD_OWNED)
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface ReentrancyContracts extends TckContext {

    /**
     * The holding thread acquires the mutex three times ({@code acquire}, {@code tryAcquire},
     * {@code acquire(timeout)}): the hold count is 3 and {@code isHeldByCurrentThread()} is true, while another thread
     * sees false and a hold count of 0. Releasing the nested leases lowers the count; another client is excluded until
     * the last release and acquires within 10 s after it.
     */
    @Test
    @Diagnosis("Nested acquisitions never reach LockBackend.acquire (the engine counts holds), so one server "
            + "acquisition and one BackendLease.release remain: a lock not freed by the last release means release() "
            + "left its node or key behind.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§6.6", kinds = {READ, WRITE})
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

    /**
     * While one thread holds a mutex, another thread of the same service gets empty from {@code tryAcquire()} within 2
     * s; after the release, another thread of that service acquires it with {@code tryAcquire()}. The same for the
     * write half of a read-write lock, each where declared.
     */
    @Test
    @Diagnosis("The engine sends another thread's acquisition to LockBackend.acquire as a new request: a backend that "
            + "grants it is reentrant per client, not per acquisition. Each acquisition needs its own owner token, "
            + "node or entry, not the service's id.")
    @Covers(kinds = {MUTEX, WRITE})
    @Inapplicable(kinds = READ, reason = "readers share, also between the threads of one service")
    @DisplayName("§4.2 another thread of the holding service waits like any other client")
    default void otherThreadOfServiceExcluded() throws InterruptedException {
        if (!provider().features().contains(LockFeature.READ_WRITE)) {
            requireFeature(LockFeature.REENTRANT_MUTEX);
        }
        List<DistributedLock> locks = new ArrayList<>();
        if (provider().features().contains(LockFeature.REENTRANT_MUTEX)) {
            locks.add(openClient().mutex(uniqueName("thread-owned")));
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            locks.add(openClient().readWriteLock(uniqueName("thread-owned-write")).writeLock());
        }
        for (DistributedLock lock : locks) {
            try (Lease held = lock.acquire(WAIT)) {
                Async<Optional<Lease>> other = Async.start("same-service", () -> lock.tryAcquire());
                assertTrue(other.get(BOUND).isEmpty(), "another thread of the same service got a held " + lock);
            }
            Async<Boolean> after = Async.start("same-service-after", () -> {
                try (Lease lease = lock.tryAcquire().orElseThrow(() -> new AssertionError("not freed"))) {
                    return lease.isHeld();
                }
            });
            assertTrue(after.get(WAIT), lock + ": another thread of the service takes it once freed");
        }
    }

    /**
     * A mutex lease is {@code HELD} and names its lock; a nested acquisition's lease is {@code HELD} too, and its
     * release leaves the outer lease {@code HELD}; the outer lease is {@code RELEASED}, and not held, after its
     * release.
     */
    @Test
    @Diagnosis("A lease not HELD at once after the grant has BackendLease.isLost() true, or confirmedUntilNanos() or "
            + "validUntilNanos() already past when the engine registers it: compute them from the acquiring request's "
            + "send time in System.nanoTime() units, not milliseconds or wall clock.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "the engine keeps the holds of the mutex and of both halves of "
            + "readWriteLock per thread in one piece of code, and hands the provider one acquisition per hold: "
            + "checked here through the mutex")
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

    /**
     * A thread other than the holder calls {@code release()} and then {@code close()} of a mutex lease: each throws
     * {@code IllegalMonitorStateException} within 2 s, the lease stays {@code HELD}, the hold count 1, and another
     * client is still excluded. The owner's release then frees the lock for another client within 10 s.
     */
    @Test
    @Diagnosis("Ownership is the engine's: a refused release never reaches BackendLease.release, so the lock must "
            + "stay held. If it is still taken after the owner's release, release() did not delete the server state "
            + "before returning (see §8.1).")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "the engine keeps the holds of the mutex and of both halves of "
            + "readWriteLock per thread in one piece of code, and hands the provider one acquisition per hold: "
            + "checked here through the mutex")
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

    /**
     * A nested lease released three times ({@code release}, {@code release}, {@code close}) leaves the hold count at 1,
     * the outer lease {@code HELD} and the lock held. After the outer lease is released twice another client acquires
     * within 10 s, and a third release of the old lease leaves that holder's lease {@code HELD} and the lock held.
     */
    @Test
    @Diagnosis("The engine calls BackendLease.release once per hold; a later holder loses the lock only to a delete "
            + "that lands late and removes by lock name (a Redis DEL without the owner check, a retried ZooKeeper "
            + "delete of a child other than its own node).")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "the engine keeps the holds of the mutex and of both halves of "
            + "readWriteLock per thread in one piece of code, and hands the provider one acquisition per hold: "
            + "checked here through the mutex")
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

    /**
     * {@code asJavaLock()} is one instance; {@code unlock()} without a hold throws
     * {@code IllegalMonitorStateException}; {@code lock()}, {@code tryLock()}, {@code tryLock(1 s)} and
     * {@code tryLock(Long.MAX_VALUE, DAYS)} nest to a hold count of 4; another client's {@code tryLock()} and
     * {@code tryLock(100 ms)} fail; {@code unlock()} from another thread throws; four unlocks free the lock for another
     * client within 10 s; {@code newCondition()} throws {@code UnsupportedOperationException}.
     */
    @Test
    @Diagnosis("The Lock view is the engine's (JavaLockAdapter) over the same acquisitions, so the provider fails "
            + "here only where §3.1 and §4.1 fail: another client granted a held lock, or a last unlock whose "
            + "BackendLease.release leaves the lock taken.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "asJavaLock() is the mutex's view: the halves of a read-write lock "
            + "offer none")
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

    /**
     * Two nested leases of one hold have the same fencing token; another client acquiring after both are released gets
     * a greater token.
     */
    @Test
    @Diagnosis("Nested leases share one BackendLease, so equal tokens are the engine's; a next token that is not "
            + "greater means BackendLease.fencingToken() does not come from a counter the server raises with every "
            + "grant (a per-client counter, a sequence suffix, this JVM's clock).")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "the engine keeps the holds of the mutex and of both halves of "
            + "readWriteLock per thread in one piece of code, and hands the provider one acquisition per hold: "
            + "checked here through the mutex")
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
