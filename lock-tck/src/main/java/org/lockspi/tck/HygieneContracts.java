package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/** §8 Hygiene and lifecycle: nothing left on the server, in the JVM or in a lease after release and close. */
public interface HygieneContracts extends TckContext {

    /**
     * (INSPECT) For every declared kind, a held lock shows state in {@link TckBackend#residue(String)} and none right
     * after its release; the same for the read half, and for a semaphore of 3 after two permits are taken and released.
     */
    @Test
    @Diagnosis("BackendLease.release must remove all its acquisition's state before it returns: look for a forgotten "
            + "delete (the node stays until the session ends), a semaphore's internal lock node or permit member "
            + "left, or a delete done after release() returns.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§8.1 nothing is left on the server once every lease is released, for every kind")
    default void noResidueAfterRelease() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        requireCapability(TckBackend.Capability.INSPECT);
        LockService client = openClient();
        for (Kind kind : kinds) {
            String name = uniqueName("clean-" + kind);
            Lease lease = kind.of(client, name).acquire(WAIT);
            assertFalse(backend().residue(name).isEmpty(), kind + ": a held lock shows no state in residue()");
            lease.release();
            assertEquals(List.of(), backend().residue(name), kind + ": state left after release");
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            String name = uniqueName("clean-read");
            client.readWriteLock(name).readLock().acquire(WAIT).release();
            assertEquals(List.of(), backend().residue(name), "read lock: state left after release");
        }
        if (provider().features().contains(LockFeature.SEMAPHORE)) {
            String name = uniqueName("clean-sem");
            Lease a = client.semaphore(name, 3).acquire(WAIT);
            Lease b = client.semaphore(name, 3).acquire(WAIT);
            a.release();
            b.release();
            assertEquals(List.of(), backend().residue(name), "semaphore of 3: state left after release");
        }
    }

    /**
     * A service closed twice reports {@code isClosed()} true after each close, and still answers {@code providerName()}
     * and {@code features()} with the provider's name and features.
     */
    @Test
    @Diagnosis("The engine closes the backend once and passes its exception on from LockService.close(): "
            + "LockBackend.close() must not throw on a healthy server (a client library closed twice, a pool closed "
            + "with a connection still borrowed, an executor's awaitTermination failing).")
    @Covers(kinds = {})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, shapes =
            {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = "about the service alone: no lock is taken")
    @DisplayName("§8.2 close() is idempotent; isClosed(), providerName() and features() still answer")
    default void closeIdempotent() {
        LockService client = openClient();
        assertFalse(client.isClosed());
        client.close();
        assertTrue(client.isClosed());
        client.close();
        assertTrue(client.isClosed());
        assertEquals(provider().name(), client.providerName());
        assertEquals(provider().features(), client.features());
    }

    /**
     * After close, the factory of every declared kind throws {@code IllegalStateException}, and so do
     * {@code acquire()}, {@code acquire(10 s)}, {@code tryAcquire()}, {@code tryAcquire(10 s)} and
     * {@code asJavaLock().tryLock()} of locks obtained before the close; each within 2 s.
     */
    @Test
    @Diagnosis("The engine refuses these before the backend is called (EngineService.checkOpen); a hang or another "
            + "exception means the lock-api on the class path is not the kit's, e.g. an older copy shaded into the "
            + "provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = "checked by the engine before a provider is asked, in "
            + "one piece of code for every kind; the kit checks it through the kinds tested here")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§8.3 after close every other method throws IllegalStateException, also on locks obtained before")
    default void closedServiceRefuses() {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        List<Acquirable> before = new ArrayList<>();
        for (Kind kind : kinds) {
            before.add(kind.of(client, uniqueName("closed-" + kind)));
        }
        client.close();
        for (Kind kind : kinds) {
            throwsWithin(IllegalStateException.class, BOUND, kind + " after close",
                    () -> kind.of(client, uniqueName("after-close")));
        }
        for (Acquirable lock : before) {
            throwsWithin(IllegalStateException.class, BOUND, lock + ".acquire() after close", lock::acquire);
            throwsWithin(IllegalStateException.class, BOUND, lock + ".acquire(timeout) after close",
                    () -> lock.acquire(WAIT));
            throwsWithin(IllegalStateException.class, BOUND, lock + ".tryAcquire() after close", lock::tryAcquire);
            throwsWithin(IllegalStateException.class, BOUND, lock + ".tryAcquire(timeout) after close",
                    () -> lock.tryAcquire(WAIT));
            throwsWithin(IllegalStateException.class, BOUND, lock + ".asJavaLock().tryLock() after close",
                    () -> lock.asJavaLock().tryLock());
        }
    }

    /**
     * A client holds one lock of every declared kind, and the read half of another, and its service is closed: each
     * lease is {@code RELEASED}, a
     * further {@code release()} does nothing, another client acquires each lock within 10 s, and (INSPECT) nothing is
     * left on the server.
     */
    @Test
    @Diagnosis("LockBackend.close must free every lease on the server before it returns: close the session (its "
            + "ephemeral nodes go with it) or delete each lease's keys; a close that forgets the client or leaves the "
            + "keys to expire keeps other clients out for up to the lease time.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @CoveredBy(value = "§23.5", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§8.4 closing a service turns its leases RELEASED and frees them on the server")
    default void closeReleasesLeases() throws InterruptedException {
        List<Contenders> kinds = Contenders.holding(provider());
        LockService client = openClient();
        LockService other = openClient();
        List<Lease> leases = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Contenders kind : kinds) {
            String name = uniqueName("close-" + kind);
            names.add(name);
            leases.add(kind.holder(client, name).acquire(WAIT));
        }
        client.close();
        for (int i = 0; i < kinds.size(); i++) {
            Contenders kind = kinds.get(i);
            Lease lease = leases.get(i);
            assertEquals(LeaseState.RELEASED, lease.state(), kind + ": lease of a closed service");
            lease.release(); // harmless after close
            Optional<Lease> next = kind.other(other, names.get(i)).tryAcquire(WAIT);
            assertTrue(next.isPresent(), kind + ": closing the holder's service did not free the lock");
            next.get().release();
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                assertEquals(List.of(), backend().residue(names.get(i)), kind + ": state left after close");
            }
        }
    }

    /**
     * For every declared kind, and for the read half while a writer holds, another client holds the lock and a
     * thread of a second service waits in
     * {@code acquire()}. Closing the second service makes the waiter fail with {@code IllegalStateException} within 4
     * s; (INSPECT) once the holder releases, nothing is left.
     */
    @Test
    @Diagnosis("LockBackend.close must wake every waiting acquire (signal its condition or watch object), which then "
            + "deletes its entry and throws IllegalStateException: look for a waiter that sleeps to its deadline or "
            + "next poll, or skips its clean-up once closed.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ}, shapes = ONE_WAITER)
    @CoveredBy(value = "§23.5", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§8.5 an acquisition waiting in another thread fails with IllegalStateException when its service closes")
    default void closeFailsWaiters() throws InterruptedException {
        for (Contenders kind : Contenders.waiting(provider())) {
            String name = uniqueName("close-waiter-" + kind);
            Lease held = kind.holder(openClient(), name).acquire(WAIT);
            LockService waiting = openClient();
            Acquirable lock = kind.other(waiting, name);
            Async<Lease> waiter = Async.startWaiter("closed-waiter-" + kind, backend(), name, lock::acquire);
            waiting.close();
            Throwable failure = waiter.failure(BOUND.multipliedBy(2));
            assertTrue(failure instanceof IllegalStateException, kind + ": a waiter of a closed service must fail "
                    + "with IllegalStateException, got " + failure);
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                held.release();
                assertEquals(List.of(), backend().residue(name), kind + ": the closed waiter left state behind");
            }
        }
    }

    /**
     * Opens a client, takes and releases every declared kind (adding a listener where LOST_NOTIFICATION is declared)
     * and closes it, twice. A thread alive 5 s after the second close that was not alive before it (JVM and test
     * framework threads aside) fails the rule, listed with its stack.
     */
    @Test
    @Diagnosis("LockBackend.close must stop and join every thread the backend started: renewal or heartbeat "
            + "scheduler, cleaner, pub/sub watch, the client library's event and I/O threads; look for an executor "
            + "shut down without awaitTermination or a client not closed.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = READ, reason = "the read half runs on the threads the write half starts: one service, one "
            + "backend")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "the engine's asynchronous threads are joined by close(): "
            + "§23.5")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§8.6 no thread started by a client outlives its close()")
    default void noThreadsAfterClose() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        // A first client lets the JVM and the server start whatever threads they keep for good.
        exercise(kinds, uniqueName("threads-warmup"));
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        exercise(kinds, uniqueName("threads"));
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<Thread> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(t) && !ignoredThread(t)) {
                t.join(Math.max(1, (end - System.nanoTime()) / 1_000_000));
                if (t.isAlive()) {
                    left.add(t);
                }
            }
        }
        // the names on the first line, which the conformance report shows; the stacks below it
        assertTrue(left.isEmpty(), () -> "threads still alive 5 s after close(): " + left.stream()
                .map(t -> t.getName() + (t.isDaemon() ? " (daemon)" : "") + " " + t.getState())
                .collect(Collectors.joining(", ")) + "\n" + left.stream().map(t -> t.getName() + ":\n"
                        + Async.stack(t)).collect(Collectors.joining("\n")));
    }

    /** Opens a client, takes and releases every kind, adds a listener where supported, and closes it. */
    private void exercise(List<Kind> kinds, String name) throws InterruptedException {
        try (LockService client = Locks.open(clientUri(), provider())) {
            for (Kind kind : kinds) {
                String own = name + "/" + kind;
                try (Lease lease = kind.of(client, own).acquire(WAIT)) {
                    if (client.features().contains(LockFeature.LOST_NOTIFICATION)) {
                        lease.addListener((l, previous, current) -> { });
                    }
                }
            }
        }
    }

    /** Threads of the JVM and the test framework, which come and go on their own. */
    private static boolean ignoredThread(Thread t) {
        String n = t.getName();
        return !t.isAlive() || n.startsWith("junit") || n.startsWith("ForkJoinPool") || n.startsWith("tck-")
                || n.equals("Common-Cleaner") || n.equals("process reaper") || n.equals("Attach Listener")
                || n.equals("Signal Dispatcher") || n.equals("Finalizer") || n.equals("Reference Handler")
                || n.equals("Notification Thread") || n.startsWith("surefire") || n.startsWith("JFR")
                || n.startsWith("InnocuousThread") || n.startsWith("process reaper");
    }

    /**
     * For every declared kind, the same name gives the same instance twice, {@code asJavaLock()} the same view twice,
     * and {@code name()} returns the name; {@code readWriteLock(name)} gives the same instance twice.
     */
    @Test
    @Diagnosis("The handle cache is the engine's (EngineService); a failure means the lock-api on the class path is "
            + "not the kit's, e.g. an older copy shaded into the provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @CoveredBy(value = "§23.6", kinds = THREAD_FREE)
    @Inapplicable(kinds = ASYNC, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§8.7 handles are cached per service: the same name gives the same instance, and so does asJavaLock()")
    default void handlesCached() {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        for (Kind kind : kinds) {
            String name = uniqueName("cached-" + kind);
            Acquirable lock = kind.of(client, name);
            assertTrue(lock == kind.of(client, name), kind + ": a second call for the same name gave a new instance");
            assertTrue(lock.asJavaLock() == lock.asJavaLock(), kind + ": asJavaLock() gave a new instance");
            assertEquals(name, lock.name());
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            String name = uniqueName("cached-rw");
            assertTrue(client.readWriteLock(name) == client.readWriteLock(name), "readWriteLock() gave a new instance");
        }
    }
}
