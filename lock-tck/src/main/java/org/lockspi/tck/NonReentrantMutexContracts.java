package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertBetween;
import static org.lockspi.tck.internal.Checks.time;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/** §7.7-§7.10 Non-reentrant mutex: one holder, not even the holding thread twice; any thread may release. */
@Inapplicable(kinds = {MUTEX, READ, WRITE}, reason = Why.NOT_OWNED)
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface NonReentrantMutexContracts extends TckContext {

    /**
     * {@code nonReentrantMutex(name)} returns the same instance twice. While client a holds it, client b's
     * {@code tryAcquire()} and {@code tryAcquire(300 ms)} are empty; after a's release b acquires within 10 s.
     */
    @Test
    @Diagnosis("LockKind.NON_REENTRANT_MUTEX has its own grant path in LockBackend.acquire (ZooKeeper: Curator's "
            + "semaphore layout with one permit; Redis: the exclusive script with kind N): look for a kind the switch "
            + "does not handle or serves with a shared recipe.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§7.1", kinds = SEMAPHORE)
    @CoveredBy(value = "§23.6", kinds = THREAD_FREE)
    @CoveredBy(value = "§23.1", kinds = ASYNC)
    @DisplayName("§7.7 a held non-reentrant mutex excludes every other client until it is released")
    default void nrmExcludesOtherClients() throws InterruptedException {
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        String name = uniqueName("nrm");
        LockService a = openClient();
        LockService b = openClient();
        assertSame(a.nonReentrantMutex(name), a.nonReentrantMutex(name), "must return the same instance");
        Lease held = a.nonReentrantMutex(name).acquire(WAIT);
        assertTrue(b.nonReentrantMutex(name).tryAcquire().isEmpty(), "another client got a held mutex");
        assertTrue(b.nonReentrantMutex(name).tryAcquire(SHORT).isEmpty(), "the same with a timeout");
        held.release();
        Optional<Lease> next = b.nonReentrantMutex(name).tryAcquire(WAIT);
        assertTrue(next.isPresent(), "the mutex was not freed by release");
        next.get().release();
    }

    /**
     * The thread holding a non-reentrant mutex calls {@code tryAcquire()}, which is empty, and
     * {@code tryAcquire(300 ms)}, which is empty after 300 ms to 2.3 s; the held lease stays {@code HELD}.
     */
    @Test
    @Diagnosis("The engine sends the holder's second acquisition to LockBackend.acquire like any other: a backend "
            + "that recognises its own client (an owner token per service, one client lock object per name) grants it "
            + "again. Each acquisition needs its own owner.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§7.3", kinds = SEMAPHORE)
    @Inapplicable(kinds = THREAD_FREE, reason = "a thread-free writer waits even for its own client's readers and "
            + "writers (§23.6)")
    @Inapplicable(kinds = ASYNC, reason = Why.SAME_REQUEST)
    @DisplayName("§7.8 the holding thread cannot acquire a non-reentrant mutex again")
    default void nrmNotReentrant() throws Exception {
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        Acquirable lock = openClient().nonReentrantMutex(uniqueName("nrm-self"));
        try (Lease held = lock.acquire(WAIT)) {
            assertTrue(lock.tryAcquire().isEmpty(), "the holding thread acquired a non-reentrant mutex twice");
            AtomicReference<Optional<Lease>> timed = new AtomicReference<>();
            assertBetween(time(() -> timed.set(lock.tryAcquire(SHORT))), SHORT, SHORT.plus(BOUND),
                    "tryAcquire(" + SHORT + ") by the holding thread");
            assertTrue(timed.get().isEmpty(), "the holding thread acquired it twice with a timeout");
            assertEquals(LeaseState.HELD, held.state());
        }
    }

    /**
     * A non-reentrant mutex's lease released by another thread within 2 s is {@code RELEASED}, and another client
     * acquires within 10 s.
     */
    @Test
    @Diagnosis("BackendLease.release may be called from any thread: a non-reentrant mutex built on a thread-owned "
            + "client lock (Curator's InterProcessMutex refuses a foreign thread) or on thread-local state stays "
            + "taken; use an acquisition bound to no thread, like a one-permit semaphore.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§7.4", kinds = SEMAPHORE)
    @CoveredBy(value = "§23.1", kinds = {THREAD_FREE, ASYNC})
    @DisplayName("§7.9 any thread may release a non-reentrant mutex's lease")
    default void nrmReleaseFromAnyThread() throws InterruptedException {
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        String name = uniqueName("nrm-handover");
        Lease lease = openClient().nonReentrantMutex(name).acquire(WAIT);
        Async.start("releaser", () -> {
            lease.release();
            return null;
        }).get(BOUND);
        assertEquals(LeaseState.RELEASED, lease.state());
        Optional<Lease> next = openClient().nonReentrantMutex(name).tryAcquire(WAIT);
        assertTrue(next.isPresent(), "the mutex released by another thread was not freed");
        next.get().release();
    }

    /**
     * A non-reentrant mutex's lease is released twice; another client then acquires within 10 s; the old lease is
     * released and closed once more. The new lease stays {@code HELD}, and a third client's {@code tryAcquire()} is
     * empty.
     */
    @Test
    @Diagnosis("The engine calls BackendLease.release once, so only a delete that lands late can hurt the new holder: "
            + "one retried after a connection loss, or run on a cleaner thread, that removes by lock name instead of "
            + "its own node, owner token or lease member.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§7.5", kinds = SEMAPHORE)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @DisplayName("§7.10 releasing a non-reentrant mutex's lease twice is harmless, also after another client took it")
    default void nrmDoubleReleaseHarmless() throws InterruptedException {
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        String name = uniqueName("nrm-twice");
        Lease lease = openClient().nonReentrantMutex(name).acquire(WAIT);
        lease.release();
        lease.release();
        Acquirable other = openClient().nonReentrantMutex(name);
        Lease next = other.tryAcquire(WAIT).orElseThrow(() -> new AssertionError("not freed by release"));
        lease.release();
        lease.close();
        assertEquals(LeaseState.HELD, next.state(), "a late release of an old lease touched the next holder");
        assertTrue(openClient().nonReentrantMutex(name).tryAcquire().isEmpty(),
                "a late release of an old lease freed the next holder's mutex");
        next.release();
    }
}
