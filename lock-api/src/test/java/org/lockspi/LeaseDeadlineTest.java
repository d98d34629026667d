package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.lockspi.LeaseEventsTest.Recorder;
import org.lockspi.fixture.MemoryBackend.MemoryLease;

/**
 * Lease state from the backend's confirmation and validity instants: worked out whenever asked, told to listeners
 * by the service's timer, LOST final; {@link Lease#validFor()} and {@link Lease#checkValid()}.
 */
class LeaseDeadlineTest extends EngineTestBase {
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    @Test
    void anOverdueConfirmationIsUncertainOnTheFirstAskAndHeldOnceConfirmedAgain() throws Exception {
        Lease lease = service.mutex("m").acquire();
        Recorder r = new Recorder();
        lease.addListener(r);
        MemoryLease b = backend.lastGranted();
        long now = System.nanoTime();
        backend.deadlines(b, now - 1, now + HOUR); // no event: only the clock says so

        assertEquals(LeaseState.UNCERTAIN, lease.state());
        assertFalse(lease.isHeld());
        assertEquals(Duration.ZERO, lease.validFor());
        LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
        assertEquals(LeaseState.UNCERTAIN, e.state());
        assertEquals("m", e.lockName());
        assertEquals("lease of lock 'm' is not held: UNCERTAIN", e.getMessage());
        r.expect(lease, LeaseState.HELD, LeaseState.UNCERTAIN);

        now = System.nanoTime();
        backend.confirm(b, now + HOUR, now + 2 * HOUR);
        r.expect(lease, LeaseState.UNCERTAIN, LeaseState.HELD);
        assertEquals(LeaseState.HELD, lease.state());
        lease.checkValid();
        Duration left = lease.validFor();
        assertTrue(left.compareTo(Duration.ofMinutes(119)) > 0 && left.compareTo(Duration.ofHours(2)) <= 0,
                left::toString);
        lease.release();
        assertEquals(0, backend.server().holderCount("m"));
    }

    @Test
    void aConfirmationDoesNotMakeASuspendedLeaseHeld() throws Exception {
        Lease lease = service.mutex("m").acquire();
        MemoryLease b = backend.lastGranted();
        backend.events().connectionSuspended();
        long now = System.nanoTime();
        backend.confirm(b, now + HOUR, now + 2 * HOUR);
        assertEquals(LeaseState.UNCERTAIN, lease.state());
        backend.deadlines(b, now - 1, now + HOUR);
        backend.events().connectionRestored();
        assertEquals(LeaseState.UNCERTAIN, lease.state(), "restored, but the confirmation is overdue");
        backend.confirm(b, System.nanoTime() + HOUR, now + 2 * HOUR);
        assertEquals(LeaseState.HELD, lease.state());
        lease.release();
    }

    @Test
    void aPassedValidityDeadlineIsLostFinallyAndTheReleaseStillFreesTheServerState() throws Exception {
        DistributedLock mutex = service.mutex("m");
        Lease lease = mutex.acquire();
        Recorder r = new Recorder();
        lease.addListener(r);
        MemoryLease b = backend.lastGranted();
        long now = System.nanoTime();
        backend.deadlines(b, now - 2, now - 1);

        assertEquals(LeaseState.LOST, lease.state());
        assertFalse(mutex.isHeldByCurrentThread());
        assertEquals(0, mutex.holdCount());
        LeaseLostException e = assertThrows(LeaseLostException.class, lease::checkValid);
        assertEquals(LeaseState.LOST, e.state());
        assertEquals(Duration.ZERO, lease.validFor());
        r.expect(lease, LeaseState.HELD, LeaseState.LOST);

        backend.confirm(b, System.nanoTime() + HOUR, System.nanoTime() + HOUR);
        backend.events().connectionRestored();
        assertEquals(LeaseState.LOST, lease.state(), "LOST is final");
        assertTrue(b.onServer(), "only the client judged it lost; the server still has it");
        assertTrue(otherClient().mutex("m").tryAcquire().isEmpty());

        lease.release();
        assertEquals(1, b.releases.get(), "the release of a locally lost lease reaches the backend");
        assertFalse(b.onServer());
        assertEquals(LeaseState.RELEASED, lease.state());
        try (Lease other = otherClient().mutex("m").tryAcquire().orElseThrow()) {
            assertTrue(other.isHeld());
        }
        assertTrue(r.calls.isEmpty(), () -> "exactly one change to LOST: " + r.calls);
    }

    @Test
    void theTimerTellsListenersOfPassingDeadlinesWithoutAnyoneAsking() throws Exception {
        Lease lease = service.semaphore("s", 1).acquire();
        Recorder r = new Recorder();
        lease.addListener(r);
        MemoryLease b = backend.lastGranted();
        long now = System.nanoTime();
        long confirmedUntil = now + TimeUnit.MILLISECONDS.toNanos(100);
        long validUntil = now + TimeUnit.MILLISECONDS.toNanos(300);
        backend.confirm(b, confirmedUntil, validUntil);

        r.expect(lease, LeaseState.HELD, LeaseState.UNCERTAIN);
        assertTrue(System.nanoTime() - confirmedUntil >= 0, "told UNCERTAIN only once the confirmation ran out");
        r.expect(lease, LeaseState.UNCERTAIN, LeaseState.LOST);
        assertTrue(System.nanoTime() - validUntil >= 0, "told LOST only once the validity ran out");
        assertEquals(LeaseState.LOST, lease.state());
        lease.release();
        assertEquals(0, backend.server().holderCount("s"));
    }

    @Test
    void aBackendThatTracksNoDeadlineGivesAnUnknownValidity() throws Exception {
        try (Lease lease = service.mutex("m").acquire()) {
            assertEquals(ChronoUnit.FOREVER.getDuration(), lease.validFor());
            lease.checkValid();
        }
    }

    @Test
    void theTimerThreadEndsWithTheService() throws Exception {
        Lease lease = service.mutex("m").acquire();
        backend.confirm(backend.lastGranted(), System.nanoTime() + HOUR, System.nanoTime() + HOUR);
        assertTrue(timerAlive(), "a hold with a deadline has a timer");
        service.close();
        assertFalse(timerAlive(), "close() joins the timer");
        assertEquals(LeaseState.RELEASED, lease.state());
    }

    @Test
    void aLeaseLostExceptionIsNeverAboutAHeldLease() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseLostException("m", LeaseState.HELD));
        assertThrows(NullPointerException.class, () -> new LeaseLostException("m", null));
        assertEquals(LeaseState.RELEASED, new LeaseLostException("m", LeaseState.RELEASED).state());
    }

    private static boolean timerAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("lockspi-deadlines-engine") && t.isAlive());
    }
}
