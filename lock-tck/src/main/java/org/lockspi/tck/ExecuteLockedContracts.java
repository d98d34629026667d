package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.OVERSHOOT;
import static org.lockspi.tck.internal.Checks.TIMED;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertBetween;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §21 Locked work: {@link Acquirable#executeLocked} acquires, runs the task while the lock is held, and
 * releases on every path, on every provider and kind.
 */
public interface ExecuteLockedContracts extends TckContext {

    /** The lock must be free at once: another client acquires it within the bound, and (INSPECT) nothing is left. */
    private void assertReleased(Kind kind, LockService other, String name, String after) throws InterruptedException {
        Optional<Lease> next = kind.of(other, name).tryAcquire(BOUND);
        assertTrue(next.isPresent(), kind + ": the lock was not free at once " + after);
        next.get().release();
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            assertEquals(List.of(), backend().residue(name), kind + ": state left on the server " + after);
        }
    }

    /**
     * For every declared kind, {@code executeLocked(10 s, task)} returns the task's value; the task sees its lease
     * {@code HELD}, named after the lock, with (FENCING_TOKENS) a token of at least 0, while another client's
     * {@code tryAcquire()} is empty. Afterwards another client acquires within 2 s and (INSPECT) nothing is left. The
     * same for {@code executeLocked(10 s, action)}, which runs once.
     */
    @Test
    @Diagnosis("executeLocked is the engine's, over acquire and release: a lease not HELD in the task has deadlines "
            + "already past (BackendLease.confirmedUntilNanos/validUntilNanos), a lock still taken after means "
            + "BackendLease.release left its state (§8.1).")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = READ, reason = "executeLocked is Acquirable's default method, one piece of code for every "
            + "kind: the read half runs it like the write half")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "executeLocked is synchronous; thread-free locks run it "
            + "through the same default method")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§21.1 executeLocked returns the task's value; the task sees its lease HELD, with a token, while other clients are excluded; the lock is free after")
    default void executeLockedReturnsTheValue() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        boolean tokens = provider().features().contains(LockFeature.FENCING_TOKENS);
        LockService client = openClient();
        LockService other = openClient();
        for (Kind kind : kinds) {
            String name = uniqueName("locked-" + kind);
            Acquirable lock = kind.of(client, name);
            String value = lock.executeLocked(WAIT, lease -> {
                assertEquals(LeaseState.HELD, lease.state(), kind + ": the task's lease");
                assertEquals(name, lease.lockName(), kind + ": the task's lease");
                if (tokens) {
                    assertTrue(lease.fencingToken() >= 0, kind + ": token " + lease.fencingToken());
                }
                assertTrue(kind.of(other, name).tryAcquire().isEmpty(), kind + ": another client got the lock "
                        + "while the task ran");
                return "done " + name;
            });
            assertEquals("done " + name, value, kind + ": executeLocked must return the task's value");
            assertReleased(kind, other, name, "after the task returned");

            AtomicInteger runs = new AtomicInteger();
            lock.executeLocked(WAIT, () -> {
                assertTrue(kind.of(other, name).tryAcquire().isEmpty(), kind + ": another client got the lock "
                        + "while the action ran");
                runs.incrementAndGet();
            });
            assertEquals(1, runs.get(), kind + ": the action ran " + runs.get() + " times");
            assertReleased(kind, other, name, "after the action returned");
        }
    }

    /**
     * For every declared kind, a task that throws an {@code IOException} makes {@code executeLocked} throw that same
     * instance, with no suppressed exception; an action that throws {@code IllegalStateException} likewise. After each,
     * another client acquires within 2 s and (INSPECT) nothing is left.
     */
    @Test
    @Diagnosis("A suppressed exception is a failed release: BackendLease.release threw on a healthy server "
            + "(LockConnectionException, or an exception of a thread-bound client lock); a lock still taken "
            + "afterwards means release() left its node or key.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = READ, reason = "executeLocked is Acquirable's default method, one piece of code for every "
            + "kind: the read half runs it like the write half")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "executeLocked is synchronous; thread-free locks run it "
            + "through the same default method")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§21.2 a task's exception propagates with its type (the same instance) and the lock is released")
    default void executeLockedPropagatesTheTasksException() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        LockService other = openClient();
        for (Kind kind : kinds) {
            String name = uniqueName("locked-throws-" + kind);
            Acquirable lock = kind.of(client, name);
            IOException checked = new IOException("the task failed: " + name);
            IOException e = throwsWithin(IOException.class, WAIT, kind + ": a task that throws IOException",
                    () -> lock.executeLocked(WAIT, lease -> {
                        throw checked;
                    }));
            assertSame(checked, e, kind + ": the task's own exception must arrive");
            assertEquals(0, e.getSuppressed().length, kind + ": the release failed: " + List.of(e.getSuppressed()));
            assertReleased(kind, other, name, "after the task threw IOException");

            IllegalStateException unchecked = new IllegalStateException("the action failed: " + name);
            assertSame(unchecked, throwsWithin(IllegalStateException.class, WAIT,
                    kind + ": an action that throws IllegalStateException", () -> lock.executeLocked(WAIT, () -> {
                        throw unchecked;
                    })), kind + ": the action's own exception must arrive");
            assertReleased(kind, other, name, "after the action threw IllegalStateException");
        }
    }

    /**
     * For every declared kind, another client holds the lock: {@code executeLocked(100 ms, task)} throws
     * {@code LockTimeoutException} within 100 to 800 ms, with {@code timeout()} 100 ms and a message naming the lock;
     * the task does not run and the holder still holds. After the holder's release another client acquires within 2 s.
     */
    @Test
    @Diagnosis("The timeout is LockBackend.acquire returning null at its Deadline (see §5.3): look for a wait that "
            + "overshoots it. A holder that lost the lock means the waiter's clean-up deleted by lock name instead of "
            + "its own entry.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE}, shapes = ONE_WAITER)
    @Inapplicable(kinds = READ, reason = "executeLocked is Acquirable's default method, one piece of code for every "
            + "kind: the read half runs it like the write half")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "executeLocked is synchronous; thread-free locks run it "
            + "through the same default method")
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§21.3 a timeout throws LockTimeoutException within the overshoot bound and the task does not run")
    default void executeLockedTimesOutWithoutRunning() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        LockService other = openClient();
        for (Kind kind : kinds) {
            String name = uniqueName("locked-timeout-" + kind);
            Acquirable contender = kind.of(openClient(), name);
            AtomicInteger runs = new AtomicInteger();
            try (Lease held = kind.of(other, name).acquire(WAIT)) {
                long start = System.nanoTime();
                LockTimeoutException e = throwsWithin(LockTimeoutException.class, TIMED.plus(OVERSHOOT),
                        kind + ".executeLocked(" + TIMED + ") of a held lock",
                        () -> contender.executeLocked(TIMED, lease -> runs.incrementAndGet()));
                assertBetween(Duration.ofNanos(System.nanoTime() - start), TIMED, TIMED.plus(OVERSHOOT),
                        kind + ".executeLocked(" + TIMED + ")");
                assertEquals(TIMED, e.timeout());
                assertNames(e, name);
                assertEquals(0, runs.get(), kind + ": the task ran without the lock");
                assertTrue(held.isHeld(), kind + ": the holder lost the lock");
            }
            assertReleased(kind, other, name, "after the holder released");
        }
    }

    /**
     * On a closed service, {@code executeLocked} with a task and with an action, on locks of every declared kind
     * obtained before the close, throws {@code IllegalStateException} within 2 s and runs nothing.
     */
    @Test
    @Diagnosis("The refusal is the engine's (the service checks it is open before acquiring); a failure means the "
            + "lock-api on the class path is not the kit's, e.g. an older copy shaded into the provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = "checked by the engine before a provider is asked, in "
            + "one piece of code for every kind; the kit checks it through the kinds tested here")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§21.4 on a closed service executeLocked throws IllegalStateException at once and runs nothing")
    default void executeLockedOnAClosedServiceRunsNothing() {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        AtomicInteger runs = new AtomicInteger();
        List<Acquirable> locks = kinds.stream().map(k -> k.of(client, uniqueName("locked-closed-" + k))).toList();
        client.close();
        for (int i = 0; i < kinds.size(); i++) {
            Acquirable lock = locks.get(i);
            throwsWithin(IllegalStateException.class, BOUND, kinds.get(i) + ".executeLocked on a closed service",
                    () -> lock.executeLocked(WAIT, lease -> runs.incrementAndGet()));
            throwsWithin(IllegalStateException.class, BOUND, kinds.get(i) + ".executeLocked(action) on a closed "
                    + "service", () -> lock.executeLocked(WAIT, runs::incrementAndGet));
        }
        assertEquals(0, runs.get(), "a task ran on a closed service");
    }
}
