package org.lockspi.tck;

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

/** §7.7-§7.10 Non-reentrant mutex: one holder, not even the holding thread twice; any thread may release. */
public interface NonReentrantMutexContracts extends TckContext {

    @Test
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

    @Test
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

    @Test
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

    @Test
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
