package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.DistributedSemaphore;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/** §7.1-§7.6 Semaphore: at most N leases across clients; leases released by any thread, once. */
@Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE}, reason = Why.PERMITS_ONLY)
public interface SemaphoreContracts extends TckContext {

    /**
     * Three clients each take one permit of a semaphore of 3 with {@code tryAcquire()}; a fourth client's
     * {@code tryAcquire()} and {@code tryAcquire(300 ms)} are empty. After one release the fourth gets a permit within
     * 10 s, and a fifth client's {@code tryAcquire()} is then empty.
     */
    @Test
    @Diagnosis("A LockKind.SEMAPHORE grant must allow AcquireRequest.permits() holders, no more, no fewer: look for "
            + "an off-by-one ('>' for '>='), permits not passed to the server (every semaphore has one), or a count "
            + "that includes released or expired entries.")
    @Covers(kinds = SEMAPHORE)
    @Inapplicable(kinds = THREAD_FREE, reason = "a thread-free read-write lock counts no permits: its readers share "
            + "without a bound (§23.6)")
    @Inapplicable(kinds = ASYNC, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§7.1 a semaphore of N permits grants N leases across clients, and no more until one is released")
    default void exactlyNPermits() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("permits");
        int permits = 3;
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < permits; i++) {
            Optional<Lease> lease = openClient().semaphore(name, permits).tryAcquire();
            assertTrue(lease.isPresent(), "client " + i + " got no permit of " + permits + " with " + i + " taken");
            leases.add(lease.get());
        }
        DistributedSemaphore extra = openClient().semaphore(name, permits);
        assertTrue(extra.tryAcquire().isEmpty(), "a client got permit " + (permits + 1) + " of " + permits);
        assertTrue(extra.tryAcquire(SHORT).isEmpty(), "the same with a timeout");
        leases.get(1).release();
        Optional<Lease> freed = extra.tryAcquire(WAIT);
        assertTrue(freed.isPresent(), "a released permit could not be taken");
        assertTrue(openClient().semaphore(name, permits).tryAcquire().isEmpty(), "more than " + permits + " held");
        freed.get().release();
        leases.forEach(Lease::release);
    }

    /**
     * Three clients with two threads each take a semaphore of 2 six times per thread, started together: the number
     * inside never exceeds 2, and all 36 sections complete within 40 s.
     */
    @Test
    @Diagnosis("More than N inside comes from counting the holders and adding one in two server calls (another "
            + "client's grant fits between) instead of one script or under the internal lock of Curator's layout; "
            + "lost sections from a released permit that wakes no waiter.")
    @Covers(kinds = SEMAPHORE, shapes = SEVERAL_WAITERS)
    @Inapplicable(kinds = THREAD_FREE, reason = "a thread-free read-write lock counts no permits")
    @Inapplicable(kinds = ASYNC, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = ONE_WAITER, reason = "a hammer queues several at once")
    @Inapplicable(shapes = MIXED_KINDS, reason = "a semaphore's permits are of one kind")
    @DisplayName("§7.2 clients x threads hammering a semaphore: never more than N inside, every section completes")
    default void neverMoreThanN() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("sem-hammer");
        int permits = 2;
        int clients = 3;
        int threadsPerClient = 2;
        int rounds = 6;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Async<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            DistributedSemaphore semaphore = openClient().semaphore(name, permits);
            for (int t = 0; t < threadsPerClient; t++) {
                workers.add(Async.start("permit-" + c + "-" + t, () -> {
                    assertTrue(start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                    for (int r = 0; r < rounds; r++) {
                        try (Lease lease = semaphore.acquire(WAIT)) {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.yield();
                            inside.decrementAndGet();
                            completed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
        }
        start.countDown();
        for (Async<Void> worker : workers) {
            worker.get(Duration.ofSeconds(40));
        }
        assertTrue(most.get() <= permits, most.get() + " holders inside a semaphore of " + permits + " permits");
        assertEquals(clients * threadsPerClient * rounds, completed.get(), "completed sections");
    }

    /**
     * One thread of one client takes both permits of a semaphore of 2; its third {@code tryAcquire()} is empty.
     */
    @Test
    @Diagnosis("Each LockBackend.acquire of a semaphore is one more permit: a backend that recognises the same client "
            + "(an owner token per service) and answers with a permit it already holds makes the semaphore reentrant.")
    @Covers(kinds = SEMAPHORE)
    @Inapplicable(kinds = THREAD_FREE, reason = "a thread-free read-write lock counts no permits")
    @Inapplicable(kinds = ASYNC, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§7.3 every acquisition takes a permit, also by one thread of one client; it is not reentrant")
    default void permitPerAcquisition() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("per-acquisition");
        DistributedSemaphore semaphore = openClient().semaphore(name, 2);
        Lease first = semaphore.acquire(WAIT);
        Lease second = semaphore.tryAcquire().orElseThrow(() -> new AssertionError("second permit refused"));
        assertTrue(semaphore.tryAcquire().isEmpty(), "one thread got a third permit of two");
        // the server counts both: another client finds no permit left
        assertTrue(openClient().semaphore(name, 2).tryAcquire().isEmpty(),
                "another client got a permit while one thread of one client held both");
        first.release();
        second.release();
    }

    /**
     * The lease of a semaphore of 1 is released by another thread within 2 s: the lease is {@code RELEASED}, and
     * another client gets the permit within 10 s.
     */
    @Test
    @Diagnosis("BackendLease.release may be called from any thread: a release that relies on state of the acquiring "
            + "thread (a thread-owned lock of the client library, a thread-local connection) or does nothing off that "
            + "thread leaves the permit taken.")
    @Covers(kinds = SEMAPHORE)
    @CoveredBy(value = "§23.1", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§7.4 a semaphore lease may be released by another thread")
    default void semaphoreReleaseFromAnotherThread() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("sem-handover");
        Lease lease = openClient().semaphore(name, 1).acquire(WAIT);
        Async.start("releaser", () -> {
            lease.release();
            return null;
        }).get(BOUND);
        assertEquals(LeaseState.RELEASED, lease.state());
        Optional<Lease> next = openClient().semaphore(name, 1).tryAcquire(WAIT);
        assertTrue(next.isPresent(), "a permit released by another thread was not freed");
        next.get().release();
    }

    /**
     * One client holds both permits of a semaphore of 2 and releases the first lease three times ({@code release},
     * {@code release}, {@code close}): the second stays {@code HELD}, another client gets the freed permit within 10 s,
     * and a further client's {@code tryAcquire()} is empty.
     */
    @Test
    @Diagnosis("The engine calls BackendLease.release once; two permits freed means the release removed more than its "
            + "own entry: a decrement of a shared counter instead of removing its own member or lease node, or a "
            + "delete of the first lease node found.")
    @Covers(kinds = SEMAPHORE)
    @Inapplicable(kinds = THREAD_FREE, reason = "a thread-free read-write lock counts no permits")
    @Inapplicable(kinds = ASYNC, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§7.5 releasing a semaphore lease twice frees one permit only")
    default void semaphoreDoubleReleaseFreesOnePermit() throws InterruptedException {
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("sem-twice");
        DistributedSemaphore semaphore = openClient().semaphore(name, 2);
        Lease first = semaphore.acquire(WAIT);
        Lease second = semaphore.acquire(WAIT);
        first.release();
        first.release();
        first.close();
        assertEquals(LeaseState.RELEASED, first.state());
        assertEquals(LeaseState.HELD, second.state(), "a second release of one lease released another");
        Optional<Lease> a = openClient().semaphore(name, 2).tryAcquire(WAIT);
        assertTrue(a.isPresent(), "the released permit was not freed");
        assertTrue(openClient().semaphore(name, 2).tryAcquire().isEmpty(),
                "releasing one lease twice freed two permits");
        a.get().release();
        second.release();
    }

    /**
     * {@code semaphore(name, 0)} throws {@code IllegalArgumentException} with the message {@code permits < 1: 0},
     * {@code semaphore(name, -1)} one naming {@code -1}, and {@code semaphore(null, 1)} {@code NullPointerException}.
     * {@code semaphore(name, 3)} reports 3 permits and the name and is returned again for the same arguments, and
     * {@code semaphore(name, 2)} then throws {@code IllegalArgumentException} naming the lock; all within 2 s.
     */
    @Test
    @Diagnosis("These checks are the engine's (EngineService.semaphore), made before the provider is involved; a "
            + "failure means the lock-api on the class path is not the kit's, e.g. an older copy shaded into the "
            + "provider's jar.")
    @Covers(kinds = SEMAPHORE)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "the permits are the semaphore factory's argument")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§7.6 permits < 1 and other permits for a name in use are refused with IllegalArgumentException")
    default void permitsChecked() {
        requireFeature(LockFeature.SEMAPHORE);
        LockService client = openClient();
        String name = uniqueName("sem-args");
        IllegalArgumentException zero = throwsWithin(IllegalArgumentException.class, BOUND, "semaphore(name, 0)",
                () -> client.semaphore(name, 0));
        assertEquals("permits < 1: 0", zero.getMessage());
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "semaphore(name, -1)",
                () -> client.semaphore(name, -1)), "-1");
        throwsWithin(NullPointerException.class, BOUND, "semaphore(null, 1)", () -> client.semaphore(null, 1));
        DistributedSemaphore three = client.semaphore(name, 3);
        assertEquals(3, three.permits());
        assertEquals(name, three.name());
        assertSame(three, client.semaphore(name, 3), "the same name and permits must give the same instance");
        IllegalArgumentException other = throwsWithin(IllegalArgumentException.class, BOUND,
                "semaphore(name, 2) after semaphore(name, 3)", () -> client.semaphore(name, 2));
        assertNames(other, name);
    }
}
