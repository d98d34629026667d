package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/** {@link Acquirable#executeLocked}: the value, the task's exceptions, release on every path, refusals. */
class ExecuteLockedTest extends EngineTestBase {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private void assertFree(String name) {
        Optional<Lease> next = otherClient().mutex(name).tryAcquire();
        assertTrue(next.isPresent(), "'" + name + "' must be free after executeLocked");
        next.get().release();
    }

    @Test
    void returnsTheTasksValueAndTheTaskSeesItsHeldLease() throws InterruptedException {
        LockService other = otherClient();
        DistributedLock lock = service.mutex("jobs/report");
        long token = lock.executeLocked(WAIT, lease -> {   // no checked exception: none to catch
            assertEquals(LeaseState.HELD, lease.state());
            assertEquals("jobs/report", lease.lockName());
            assertTrue(lock.isHeldByCurrentThread());
            assertTrue(other.mutex("jobs/report").tryAcquire().isEmpty(), "held while the task runs");
            return lease.fencingToken();
        });
        assertTrue(token > 0, "token " + token);
        assertFalse(lock.isHeldByCurrentThread());
        assertFree("jobs/report");
        assertEquals(1, backend.releaseCalls());
    }

    @Test
    void aCheckedExceptionKeepsItsTypeAndTheLockIsReleased() {
        IOException thrown = new IOException("disk full");
        IOException e = assertThrows(IOException.class,
                () -> service.mutex("a").executeLocked(WAIT, lease -> {
                    throw thrown;
                }));
        assertSame(thrown, e);
        assertEquals(0, e.getSuppressed().length);
        assertFree("a");
    }

    @Test
    void uncheckedExceptionsAndErrorsPassThroughAndTheLockIsReleased() {
        IllegalStateException state = new IllegalStateException("bad order");
        assertSame(state, assertThrows(IllegalStateException.class,
                () -> service.semaphore("s", 1).executeLocked(WAIT, () -> {
                    throw state;
                })));
        assertTrue(otherClient().semaphore("s", 1).tryAcquire().isPresent(), "semaphore freed");
        StackOverflowError error = new StackOverflowError("deep");
        assertSame(error, assertThrows(StackOverflowError.class,
                () -> service.readWriteLock("rw").writeLock().executeLocked(WAIT, lease -> {
                    throw error;
                })));
        assertTrue(otherClient().readWriteLock("rw").writeLock().tryAcquire().isPresent(), "write lock freed");
    }

    @Test
    void theActionFormRunsWhileHeld() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        LockService other = otherClient();
        service.nonReentrantMutex("n").executeLocked(WAIT, () -> {
            assertTrue(other.nonReentrantMutex("n").tryAcquire().isEmpty());
            runs.incrementAndGet();
        });
        assertEquals(1, runs.get());
        assertTrue(other.nonReentrantMutex("n").tryAcquire().isPresent());
    }

    @Test
    void aTimeoutThrowsLockTimeoutExceptionAndTheTaskDoesNotRun() throws InterruptedException {
        Lease held = otherClient().mutex("busy").acquire();
        AtomicInteger runs = new AtomicInteger();
        LockTimeoutException e = assertThrows(LockTimeoutException.class,
                () -> service.mutex("busy").executeLocked(Duration.ofMillis(50), lease -> runs.incrementAndGet()));
        assertEquals(Duration.ofMillis(50), e.timeout());
        assertEquals(0, runs.get());
        held.release();
        assertFree("busy");
    }

    @Test
    void aClosedServiceRunsNothing() {
        DistributedLock lock = service.mutex("a");
        service.close();
        AtomicInteger runs = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> lock.executeLocked(WAIT, lease -> runs.incrementAndGet()));
        assertThrows(IllegalStateException.class, () -> lock.executeLocked(WAIT, runs::incrementAndGet));
        assertEquals(0, runs.get());
    }

    @Test
    void aLeaseLostBeforeTheTaskStartsIsReleasedAndTheTaskDoesNotRun() {
        backend.grantLost(true);
        AtomicInteger runs = new AtomicInteger();
        LeaseLostException e = assertThrows(LeaseLostException.class,
                () -> service.mutex("lost").executeLocked(WAIT, lease -> runs.incrementAndGet()));
        assertEquals(LeaseState.LOST, e.state());
        assertEquals("lost", e.lockName());
        assertEquals(0, runs.get());
        assertEquals(1, backend.releaseCalls(), "the lost lease is released");
    }

    /** A lease granted while the connection is suspended (an acquisition under way, not yet cut, §16.3). */
    @Test
    void anUncertainLeaseDoesNotRunTheTask() throws Exception {
        reopenWithoutFailFastCut();
        Lease other = otherClient().mutex("u").acquire();
        AtomicInteger runs = new AtomicInteger();
        FutureTask<Object> task = start("execute", () -> {
            service.mutex("u").executeLocked(WAIT, runs::incrementAndGet);
            return null;
        });
        backend.server().awaitWaiting(1);
        backend.events().connectionSuspended();
        other.release();
        LeaseLostException e = assertThrows(LeaseLostException.class, () -> await(task));
        assertEquals(LeaseState.UNCERTAIN, e.state());
        assertEquals(0, runs.get());
        backend.events().connectionRestored();
        assertFree("u");
    }

    @Test
    void anInterruptedThreadRunsNothing() {
        AtomicInteger runs = new AtomicInteger();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> service.mutex("i").executeLocked(WAIT, runs::incrementAndGet));
        assertFalse(Thread.interrupted(), "the flag is cleared, as acquire does");
        assertEquals(0, runs.get());
    }

    @Test
    void nullArgumentsAreRefusedBeforeAcquiring() {
        DistributedLock lock = service.mutex("a");
        assertEquals("task is null", assertThrows(NullPointerException.class,
                () -> lock.executeLocked(WAIT, (LockedTask<Object, RuntimeException>) null)).getMessage());
        assertEquals("action is null", assertThrows(NullPointerException.class,
                () -> lock.executeLocked(WAIT, (LockedAction<RuntimeException>) null)).getMessage());
        assertThrows(NullPointerException.class, () -> lock.executeLocked(null, lease -> 1));
        assertThrows(IllegalArgumentException.class, () -> lock.executeLocked(Duration.ofMillis(-1), lease -> 1));
        assertEquals(List.of(), backend.requests());
    }

    @Test
    void aReentrantTaskMayTakeTheSameLockAgain() throws InterruptedException {
        DistributedLock lock = service.mutex("r");
        int depth = lock.executeLocked(WAIT, outer -> lock.executeLocked(WAIT, inner -> lock.holdCount()));
        assertEquals(2, depth);
        assertFalse(lock.isHeldByCurrentThread());
        assertFree("r");
    }

    // ---- a release that fails: a lock whose lease's release throws -------------------------------------------

    @Test
    void theTasksExceptionWinsAndAFailedReleaseIsSuppressed() {
        LockConnectionException releaseFailure = new LockConnectionException("server unreachable on release");
        IOException thrown = new IOException("task failed");
        IOException e = assertThrows(IOException.class, () -> new FailingRelease(releaseFailure)
                .executeLocked(WAIT, lease -> {
                    throw thrown;
                }));
        assertSame(thrown, e);
        assertArrayEquals(new Throwable[] {releaseFailure}, e.getSuppressed());
    }

    @Test
    void aFailedReleaseAfterATaskThatReturnedIsThrown() {
        LockConnectionException releaseFailure = new LockConnectionException("server unreachable on release");
        AtomicInteger runs = new AtomicInteger();
        assertSame(releaseFailure, assertThrows(LockConnectionException.class,
                () -> new FailingRelease(releaseFailure).executeLocked(WAIT, lease -> runs.incrementAndGet())));
        assertEquals(1, runs.get(), "the task ran");
    }

    /** An Acquirable whose leases are held and whose release throws, to see what executeLocked does with it. */
    private static final class FailingRelease implements Acquirable {
        private final RuntimeException failure;

        FailingRelease(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public String name() {
            return "failing";
        }

        @Override
        public Acquirable withLeaseTime(Duration leaseTime) {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public Lease acquire() {
            return new Lease() {
                @Override
                public String lockName() {
                    return "failing";
                }

                @Override
                public long fencingToken() {
                    return 1;
                }

                @Override
                public LeaseState state() {
                    return LeaseState.HELD;
                }

                @Override
                public Duration validFor() {
                    return Duration.ofSeconds(1);
                }

                @Override
                public void addListener(LeaseListener listener) {
                }

                @Override
                public void removeListener(LeaseListener listener) {
                }

                @Override
                public void release() {
                    throw failure;
                }

                @Override
                public void close() {
                    release();
                }
            };
        }

        @Override
        public Lease acquire(Duration timeout) {
            return acquire();
        }

        @Override
        public Optional<Lease> tryAcquire() {
            return Optional.of(acquire());
        }

        @Override
        public Optional<Lease> tryAcquire(Duration timeout) {
            return tryAcquire();
        }

        @Override
        public Lock asJavaLock() {
            throw new UnsupportedOperationException("not needed here");
        }
    }
}
