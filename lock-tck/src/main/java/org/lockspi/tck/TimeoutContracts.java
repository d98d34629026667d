package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertBetween;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;
import static org.lockspi.tck.internal.Checks.time;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Kind;

/**
 * §5 Timeouts and interrupts: a timed acquisition returns within its timeout plus a small bound, an interrupt
 * ends a wait, and neither leaves anything behind on the server.
 */
public interface TimeoutContracts extends TckContext {

    @Test
    @DisplayName("§5.1 tryAcquire() of a held lock returns empty at once, for every kind")
    default void tryAcquireReturnsAtOnce() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("try-" + kind);
            LockService holder = openClient();
            Acquirable contender = kind.of(openClient(), name);
            try (Lease held = kind.of(holder, name).acquire(WAIT)) {
                AtomicReference<Optional<Lease>> result = new AtomicReference<>();
                Duration took = time(() -> result.set(contender.tryAcquire()));
                assertTrue(result.get().isEmpty(), kind + ": tryAcquire() got a held lock");
                assertBetween(took, Duration.ZERO, BOUND, kind + ": tryAcquire() of a held lock");
            }
        }
    }

    @Test
    @DisplayName("§5.2 tryAcquire(timeout) of a held lock returns empty after the timeout, within a bound")
    default void tryAcquireTimesOut() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("timed-" + kind);
            Acquirable contender = kind.of(openClient(), name);
            try (Lease held = kind.of(openClient(), name).acquire(WAIT)) {
                AtomicReference<Optional<Lease>> result = new AtomicReference<>();
                Duration took = time(() -> result.set(contender.tryAcquire(SHORT)));
                assertTrue(result.get().isEmpty(), kind + ": tryAcquire(" + SHORT + ") got a held lock");
                assertBetween(took, SHORT, SHORT.plus(BOUND), kind + ": tryAcquire(" + SHORT + ") of a held lock");
            }
        }
    }

    @Test
    @DisplayName("§5.3 acquire(timeout) of a held lock throws LockTimeoutException naming the lock and the timeout")
    default void acquireTimesOut() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("acq-" + kind);
            Acquirable contender = kind.of(openClient(), name);
            try (Lease held = kind.of(openClient(), name).acquire(WAIT)) {
                long start = System.nanoTime();
                LockTimeoutException e = throwsWithin(LockTimeoutException.class, SHORT.plus(BOUND),
                        kind + ".acquire(" + SHORT + ") of a held lock", () -> contender.acquire(SHORT));
                assertBetween(Duration.ofNanos(System.nanoTime() - start), SHORT, SHORT.plus(BOUND),
                        kind + ".acquire(" + SHORT + ")");
                assertEquals(SHORT, e.timeout());
                assertNames(e, name);
            }
        }
    }

    @Test
    @DisplayName("§5.4 a timed-out acquisition leaves nothing behind on the server, for every kind")
    default void timeoutLeavesNothing() throws Exception {
        List<Kind> kinds = requireSomeKind(provider());
        requireCapability(TckBackend.Capability.INSPECT);
        for (Kind kind : kinds) {
            String name = uniqueName("residue-" + kind);
            LockService waiterClient = openClient();
            Lease held = kind.of(openClient(), name).acquire(WAIT);
            List<String> holderOnly = backend().residue(name);
            assertFalse(holderOnly.isEmpty(), kind + ": the holder's own state is not visible to residue()");
            assertTrue(kind.of(waiterClient, name).tryAcquire(SHORT).isEmpty());
            assertEquals(holderOnly, backend().residue(name), kind + ": tryAcquire(timeout) left state behind");
            throwsWithin(LockTimeoutException.class, SHORT.plus(BOUND), kind + ".acquire(" + SHORT + ")",
                    () -> kind.of(waiterClient, name).acquire(SHORT));
            assertEquals(holderOnly, backend().residue(name), kind + ": acquire(timeout) left state behind");
            assertTrue(kind.of(waiterClient, name).tryAcquire().isEmpty());
            assertEquals(holderOnly, backend().residue(name), kind + ": tryAcquire() left state behind");
            held.release();
            // Nothing stale blocks the next holder.
            Optional<Lease> next = kind.of(waiterClient, name).tryAcquire(BOUND);
            assertTrue(next.isPresent(), kind + ": the lock could not be acquired after the holder released it");
            next.get().release();
            assertEquals(List.of(), backend().residue(name), kind + ": state left after every lease was released");
        }
    }

    @Test
    @DisplayName("§5.5 an interrupt during acquire throws InterruptedException, clears the flag and leaves nothing behind")
    default void interruptWhileWaiting() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("interrupt-" + kind);
            LockService waiterClient = openClient();
            Lease held = kind.of(openClient(), name).acquire(WAIT);
            boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
            List<String> holderOnly = inspect ? backend().residue(name) : List.of();
            for (String method : List.of("acquire()", "acquire(timeout)", "tryAcquire(timeout)")) {
                Acquirable lock = kind.of(waiterClient, name);
                Async<Boolean> waiter = Async.startWaiter("interrupted-" + kind, backend(), name, () -> {
                    try {
                        switch (method) {
                            case "acquire()":
                                lock.acquire().release();
                                break;
                            case "acquire(timeout)":
                                lock.acquire(WAIT.multipliedBy(3)).release();
                                break;
                            default:
                                lock.tryAcquire(WAIT.multipliedBy(3)).ifPresent(Lease::release);
                                break;
                        }
                        throw new AssertionError(method + " returned although interrupted while waiting");
                    } catch (InterruptedException e) {
                        boolean flag = Thread.currentThread().isInterrupted();
                        if (lock instanceof DistributedLock && ((DistributedLock) lock).holdCount() != 0) {
                            throw new AssertionError(method + " was interrupted but the thread holds the lock");
                        }
                        return flag;
                    }
                });
                long interrupted = System.nanoTime();
                waiter.thread().interrupt();
                boolean flagStillSet = waiter.get(BOUND);
                assertTrue(Duration.ofNanos(System.nanoTime() - interrupted).compareTo(BOUND) <= 0,
                        kind + "." + method + " took too long to notice the interrupt");
                assertFalse(flagStillSet, kind + "." + method + " threw InterruptedException but left the interrupt "
                        + "flag set (the Javadoc says it is cleared)");
                if (inspect) {
                    assertEquals(holderOnly, backend().residue(name), kind + "." + method + " interrupted left state "
                            + "behind");
                }
            }
            held.release();
            Optional<Lease> next = kind.of(openClient(), name).tryAcquire(BOUND);
            assertTrue(next.isPresent(), kind + ": after interrupted waiters, the released lock could not be acquired");
            next.get().release();
        }
    }

    @Test
    @DisplayName("§5.6 a thread interrupted before it calls acquire fails at once, even for a free lock or one it holds")
    default void interruptedBeforeAcquire() throws Exception {
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("pre-interrupt-" + kind);
            Acquirable lock = kind.of(openClient(), name);
            try {
                Thread.currentThread().interrupt();
                throwsWithin(InterruptedException.class, BOUND, kind + ".acquire() when interrupted", lock::acquire);
                assertFalse(Thread.currentThread().isInterrupted(), "acquire() left the interrupt flag set");
                Thread.currentThread().interrupt();
                throwsWithin(InterruptedException.class, BOUND, kind + ".acquire(timeout) when interrupted",
                        () -> lock.acquire(WAIT));
                assertFalse(Thread.currentThread().isInterrupted(), "acquire(timeout) left the interrupt flag set");
                Thread.currentThread().interrupt();
                throwsWithin(InterruptedException.class, BOUND, kind + ".tryAcquire(timeout) when interrupted",
                        () -> lock.tryAcquire(WAIT));
                assertFalse(Thread.currentThread().isInterrupted(), "tryAcquire(timeout) left the interrupt flag set");
            } finally {
                Thread.interrupted();
            }
            if (lock instanceof DistributedLock) {
                assertEquals(0, ((DistributedLock) lock).holdCount(), kind + ": held after failed acquisitions");
            }
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                assertEquals(List.of(), backend().residue(name), kind + ": interrupted acquisitions left state");
            }
            Optional<Lease> other = kind.of(openClient(), name).tryAcquire();
            assertTrue(other.isPresent(), kind + ": the lock is taken after interrupted acquisitions");
            other.get().release();
        }
        if (provider().features().contains(LockFeature.REENTRANT_MUTEX)) {
            // A thread that already holds the lock is no exception: a nested acquire is a blocking method too.
            DistributedLock mutex = openClient().mutex(uniqueName("pre-interrupt-nested"));
            try (Lease held = mutex.acquire(WAIT)) {
                try {
                    Thread.currentThread().interrupt();
                    throwsWithin(InterruptedException.class, BOUND, "nested acquire() when interrupted", mutex::acquire);
                    assertFalse(Thread.currentThread().isInterrupted(), "nested acquire() left the interrupt flag set");
                    Thread.currentThread().interrupt();
                    throwsWithin(InterruptedException.class, BOUND, "nested tryAcquire(timeout) when interrupted",
                            () -> mutex.tryAcquire(WAIT));
                } finally {
                    Thread.interrupted();
                }
                assertEquals(1, mutex.holdCount(), "a refused nested acquisition changed the hold count");
            }
        }
    }

    @Test
    @DisplayName("§5.7 tryAcquire() makes its one attempt whatever the interrupt flag, and keeps the flag")
    default void tryAcquireKeepsInterruptFlag() {
        for (Kind kind : requireSomeKind(provider())) {
            Acquirable lock = kind.of(openClient(), uniqueName("flag-" + kind));
            Optional<Lease> lease;
            try {
                Thread.currentThread().interrupt();
                lease = lock.tryAcquire();
                assertTrue(Thread.currentThread().isInterrupted(), kind + ": tryAcquire() cleared the interrupt flag");
            } finally {
                Thread.interrupted();
            }
            assertTrue(lease.isPresent(), kind + ": tryAcquire() of a free lock by an interrupted thread failed");
            lease.get().release();
        }
    }

    @Test
    @DisplayName("§5.8 mutex: a timed acquisition that waits gets the lock when it is released before the timeout")
    default void timedWaiterGetsLock() throws Exception {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("timed-handoff");
        Lease held = openClient().mutex(name).acquire(WAIT);
        DistributedLock contender = openClient().mutex(name);
        Async<Boolean> waiter = Async.startWaiter("timed-waiter", backend(), name, () -> {
            try (Lease lease = contender.acquire(WAIT)) {
                return lease.isHeld();
            }
        });
        held.release();
        assertTrue(waiter.get(WAIT), "the timed waiter did not get the released lock");
    }
}
