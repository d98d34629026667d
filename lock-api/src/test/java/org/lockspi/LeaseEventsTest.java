package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryBackend;

/** Lease state from backend events, and listener dispatch on the event thread. */
class LeaseEventsTest extends EngineTestBase {

    /** One listener call, with the thread it ran on. */
    static final class Call {
        final Lease lease;
        final LeaseState previous;
        final LeaseState current;
        final String thread;

        Call(Lease lease, LeaseState previous, LeaseState current) {
            this.lease = lease;
            this.previous = previous;
            this.current = current;
            this.thread = Thread.currentThread().getName();
        }

        @Override
        public String toString() {
            return previous + "->" + current + " on " + thread;
        }
    }

    /** Records calls; take() waits for the next one. */
    static final class Recorder implements LeaseListener {
        final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();

        @Override
        public void stateChanged(Lease lease, LeaseState previous, LeaseState current) {
            calls.add(new Call(lease, previous, current));
        }

        Call take() throws InterruptedException {
            Call c = calls.poll(5, TimeUnit.SECONDS);
            if (c == null) {
                throw new AssertionError("no listener call within 5 s");
            }
            return c;
        }

        void expect(Lease lease, LeaseState previous, LeaseState current) throws InterruptedException {
            Call c = take();
            assertEquals(previous + "->" + current, c.previous + "->" + c.current, c.toString());
            assertTrue(c.lease == lease, "the listener gets its own lease");
            assertTrue(c.thread.startsWith("lockspi-events-engine-"), c.thread);
        }
    }

    /** Waits until every call queued on the event thread before now has run. */
    private void drain(Lease lease) throws InterruptedException {
        // A listener added to an UNCERTAIN or LOST lease is called at once, after everything queued before it.
        CountDownLatch done = new CountDownLatch(1);
        if (lease.state() == LeaseState.UNCERTAIN || lease.state() == LeaseState.LOST) {
            LeaseListener marker = (l, p, c) -> done.countDown();
            lease.addListener(marker);
            assertTrue(done.await(5, TimeUnit.SECONDS));
            lease.removeListener(marker);
        }
    }

    @Test
    void suspendedRestoredAndLost() throws Exception {
        Lease lease = service.mutex("m").acquire();
        Recorder r = new Recorder();
        lease.addListener(r);
        assertTrue(r.calls.isEmpty(), "no call for a HELD lease");

        backend.events().connectionSuspended();
        assertEquals(LeaseState.UNCERTAIN, lease.state());
        assertFalse(lease.isHeld());
        r.expect(lease, LeaseState.HELD, LeaseState.UNCERTAIN);

        backend.events().connectionSuspended();
        backend.events().connectionRestored();
        assertEquals(LeaseState.HELD, lease.state());
        r.expect(lease, LeaseState.UNCERTAIN, LeaseState.HELD);

        backend.events().connectionRestored();
        backend.lose(backend.lastGranted());
        assertEquals(LeaseState.LOST, lease.state());
        r.expect(lease, LeaseState.HELD, LeaseState.LOST);

        backend.events().connectionSuspended();
        backend.events().connectionRestored();
        backend.events().leaseLost(backend.lastGranted());
        assertEquals(LeaseState.LOST, lease.state(), "LOST is final");
        drain(lease);
        assertTrue(r.calls.isEmpty(), () -> "no calls after LOST: " + r.calls);
        lease.release();
        assertEquals(LeaseState.RELEASED, lease.state());
    }

    @Test
    void listenerAddedAfterTheLossIsCalledOnce() throws Exception {
        Lease lease = service.semaphore("s", 1).acquire();
        backend.lose(backend.lastGranted());
        Recorder r = new Recorder();
        lease.addListener(r);
        r.expect(lease, LeaseState.HELD, LeaseState.LOST);
        backend.events().connectionSuspended();
        drain(lease);
        assertTrue(r.calls.isEmpty(), () -> "called once only: " + r.calls);
        lease.release();
    }

    @Test
    void listenerAddedWhileUncertainIsCalledAtOnce() throws Exception {
        Lease lease = service.mutex("m").acquire();
        backend.events().connectionSuspended();
        Recorder r = new Recorder();
        lease.addListener(r);
        r.expect(lease, LeaseState.HELD, LeaseState.UNCERTAIN);
        backend.events().connectionRestored();
        r.expect(lease, LeaseState.UNCERTAIN, LeaseState.HELD);
        lease.release();
    }

    @Test
    void lostThreadOwnedHoldIsForgotten() throws Exception {
        DistributedLock lock = service.mutex("m");
        Lease outer = lock.acquire();
        Lease inner = lock.acquire();
        Recorder r = new Recorder();
        outer.addListener(r);
        inner.addListener(r);
        MemoryBackend.MemoryLease first = backend.lastGranted();
        backend.lose(first);
        Call a = r.take();
        Call b = r.take();
        assertEquals(LeaseState.LOST, a.current);
        assertEquals(LeaseState.LOST, b.current);
        assertNotSame(a.lease, b.lease, "each nested lease hears of the loss");
        assertEquals(LeaseState.LOST, inner.state());
        assertFalse(lock.isHeldByCurrentThread());
        assertEquals(0, lock.holdCount());

        Lease fresh = lock.acquire();
        assertEquals(2, backend.requests().size(), "the next acquire goes to the backend again");
        assertEquals(LeaseState.HELD, fresh.state());
        assertEquals(1, lock.holdCount());
        inner.release();
        outer.release();
        assertEquals(LeaseState.HELD, fresh.state(), "releasing the lost leases leaves the new hold alone");
        assertEquals(1, backend.server().holderCount("m"));
        assertEquals(1, lock.holdCount());
        fresh.release();
        assertEquals(0, backend.server().holderCount("m"));
    }

    @Test
    void leaseLostBeforeRegistrationComesBackLost() throws Exception {
        backend.grantLost(true);
        DistributedLock lock = service.mutex("m");
        Lease lease = lock.acquire();
        assertEquals(LeaseState.LOST, lease.state());
        assertFalse(lock.isHeldByCurrentThread());
        Recorder r = new Recorder();
        lease.addListener(r);
        Call c = r.take();
        assertEquals(LeaseState.LOST, c.current);
        Lease sem = service.semaphore("s", 1).acquire();
        assertEquals(LeaseState.LOST, sem.state());
        backend.grantLost(false);
        Lease again = lock.acquire();
        assertEquals(LeaseState.HELD, again.state());
        assertEquals(2 + 1, backend.requests().size());
        lease.release();
        sem.release();
        again.release();
    }

    /** Acquisitions under way when the connection is suspended, granted before failFast cuts them (§16.3). */
    @Test
    void leaseRegisteredWhileSuspendedStartsUncertain() throws Throwable {
        reopenWithoutFailFastCut();
        LockService other = otherClient();
        Lease otherMutex = other.nonReentrantMutex("m").acquire(); // released by this thread, granted to another
        Lease otherPermit = other.semaphore("s", 1).acquire();
        FutureTask<Lease> mutex = start("mutex", () -> service.nonReentrantMutex("m").acquire());
        FutureTask<Lease> semaphore = start("semaphore", () -> service.semaphore("s", 1).acquire());
        backend.server().awaitWaiting(2);
        backend.events().connectionSuspended();
        otherMutex.release();
        otherPermit.release();
        Lease lease = await(mutex);
        Lease permit = await(semaphore);
        assertEquals(LeaseState.UNCERTAIN, lease.state());
        assertEquals(LeaseState.UNCERTAIN, permit.state());
        Recorder r = new Recorder();
        lease.addListener(r);
        r.expect(lease, LeaseState.UNCERTAIN, LeaseState.UNCERTAIN);
        backend.events().connectionRestored();
        r.expect(lease, LeaseState.UNCERTAIN, LeaseState.HELD);
        assertEquals(LeaseState.HELD, permit.state());
        lease.release();
        permit.release();
    }

    @Test
    void releasedLeaseHearsNothingAndUnknownLeasesAreIgnored() throws Exception {
        Lease kept = service.mutex("a").acquire();
        Lease gone = service.mutex("b").acquire();
        MemoryBackend.MemoryLease goneBackend = backend.lastGranted();
        Recorder r = new Recorder();
        gone.addListener(r);
        gone.release();
        backend.events().connectionSuspended();
        backend.lose(goneBackend);
        assertEquals(LeaseState.RELEASED, gone.state());
        drain(kept);
        assertTrue(r.calls.isEmpty(), () -> r.calls.toString());
        backend.events().connectionRestored();
        kept.release();
    }

    @Test
    void removedListenerAndFailingListener() throws Exception {
        Lease lease = service.mutex("m").acquire();
        // The engine logs the failure; keep the expected stack trace out of the build output.
        java.util.logging.Logger engineLog = java.util.logging.Logger.getLogger("org.lockspi.internal.EngineService");
        java.util.logging.Level saved = engineLog.getLevel();
        engineLog.setLevel(java.util.logging.Level.OFF);
        try {
            failingListenerDoesNotStopTheOthers(lease);
        } finally {
            engineLog.setLevel(saved);
        }
    }

    private void failingListenerDoesNotStopTheOthers(Lease lease) throws Exception {
        Recorder removed = new Recorder();
        Recorder kept = new Recorder();
        lease.addListener((l, p, c) -> {
            throw new IllegalStateException("listener failure for the test");
        });
        lease.addListener(removed);
        lease.addListener(kept);
        lease.removeListener(removed);
        backend.events().connectionSuspended();
        kept.expect(lease, LeaseState.HELD, LeaseState.UNCERTAIN);
        backend.events().connectionRestored();
        kept.expect(lease, LeaseState.UNCERTAIN, LeaseState.HELD);
        assertTrue(removed.calls.isEmpty());
        lease.release();
    }

    /**
     * A change that happens while addListener runs reaches the new listener once, not twice (once as a change and
     * once as "already UNCERTAIN"). White box: the service's guard (a ReentrantLock) guards lease state, so
     * holding it parks addListener inside, and the suspension is reported while it is parked.
     */
    @Test
    void changeDuringAddListenerIsToldOnce() throws Throwable {
        Lease lease = service.mutex("m").acquire();
        Recorder r = new Recorder();
        FutureTask<Void> adding;
        AtomicReference<Thread> adder = new AtomicReference<>();
        java.lang.reflect.Field field = service.getClass().getDeclaredField("guard");
        field.setAccessible(true);
        java.util.concurrent.locks.ReentrantLock guard = (java.util.concurrent.locks.ReentrantLock) field.get(service);
        guard.lock();
        try {
            adding = start("adder", () -> {
                adder.set(Thread.currentThread());
                lease.addListener(r);
                return null;
            });
            while ((adder.get() == null || !guard.hasQueuedThread(adder.get())) && !adding.isDone()) {
                Thread.onSpinWait();
            }
            backend.events().connectionSuspended();
        } finally {
            guard.unlock();
        }
        await(adding);
        r.expect(lease, LeaseState.HELD, LeaseState.UNCERTAIN);
        drain(lease);
        assertTrue(r.calls.isEmpty(), () -> "told twice: " + r.calls);
        lease.release();
    }

    @Test
    void listenersRunInOrderOnOneThread() throws Exception {
        List<Lease> leases = List.of(service.mutex("a").acquire(), service.semaphore("b", 2).acquire(),
                service.readWriteLock("c").readLock().acquire());
        Recorder r = new Recorder();
        leases.forEach(l -> l.addListener(r));
        for (int i = 0; i < 3; i++) {
            backend.events().connectionSuspended();
            backend.events().connectionRestored();
        }
        String thread = null;
        for (int i = 0; i < 3; i++) {
            for (LeaseState expected : List.of(LeaseState.UNCERTAIN, LeaseState.HELD)) {
                for (int j = 0; j < 3; j++) {
                    Call c = r.take();
                    assertEquals(expected, c.current, c.toString());
                    thread = thread == null ? c.thread : thread;
                    assertEquals(thread, c.thread);
                }
            }
        }
        leases.forEach(Lease::release);
    }
}
