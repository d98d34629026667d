package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.lockspi.tck.coverage.KindColumn.ASYNC;
import static org.lockspi.tck.coverage.KindColumn.MUTEX;
import static org.lockspi.tck.coverage.KindColumn.NON_REENTRANT_MUTEX;
import static org.lockspi.tck.coverage.KindColumn.READ;
import static org.lockspi.tck.coverage.KindColumn.SEMAPHORE;
import static org.lockspi.tck.coverage.KindColumn.THREAD_FREE;
import static org.lockspi.tck.coverage.KindColumn.WRITE;
import static org.lockspi.tck.coverage.QueueShape.MIXED_KINDS;
import static org.lockspi.tck.coverage.QueueShape.ONE_WAITER;
import static org.lockspi.tck.coverage.QueueShape.SEVERAL_WAITERS;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.ConnectionState;
import org.lockspi.Lease;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockPart;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Poll;

/**
 * §16.3 Fail fast while disconnected: with the server down, every form of acquisition fails with
 * {@link LockConnectionException} within the URI's {@code failFast} (here 250 ms) plus a slack of
 * {@link Checks#BOUND}, never waiting for the client library's connect or session timeout; once the server is back,
 * acquisitions work again. Prints {@code [§16 figures]}: the measured latency of each form.
 */
public interface FailFastContracts extends TckContext {
    /** The bound the kit sets in the client URI. */
    Duration FAIL_FAST = Duration.ofMillis(250);

    /** One form of acquisition: returns the lease, or null where the form answered "not acquired". */
    interface Form {
        Lease acquire(LockService service, String name) throws Exception;
    }

    /**
     * (RESTART) A client acquires once in every form it has (mutex {@code acquire()}, {@code acquire(30 s)},
     * {@code tryAcquire()}, {@code tryAcquire(30 s)}; a multi-lock of two mutexes; a non-reentrant mutex's
     * {@code acquireAsync(30 s)}; the halves of both read-write locks; a semaphore's {@code acquire(30 s)}), and
     * a second client waits for a mutex held by a third. The server is stopped: the waiter fails with
     * {@code LockConnectionException} within {@code failFast} plus {@link Checks#BOUND} of the stop; a mutex
     * {@code acquire(30 s)} started right after the stop does too; once the service has signalled the suspension
     * ({@code connectionState()} is not CONNECTED, within {@link #crashReleaseBound()}) every form does, each within
     * the same bound. After the server is started again the client is CONNECTED within the crash-release bound and
     * every form acquires.
     */
    @Test
    @Timeout(180)
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @Diagnosis("An acquisition waited for the client library's own timeout: report BackendEvents.connectionSuspended "
            + "as soon as the connection drops (and when an acquisition itself fails on a dead connection), and let "
            + "LockBackend.acquire return on an interrupt: the engine cuts acquisitions failFast after the suspension.")
    @DisplayName("§16.3 every form: with the server down an acquisition fails with LockConnectionException within "
            + "failFast (250 ms) plus 2 s, never waits for the client's timeouts, and works again once the server "
            + "is back")
    default void acquisitionsFailFastWhileTheServerIsDown() throws Exception {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.RESTART);
        String uri = Checks.withParameter(clientUri(), Locks.FAIL_FAST_PARAMETER + "=" + FAIL_FAST.toMillis() + "ms");
        Map<String, Form> forms = forms();
        LockService client = openClient(uri);
        String base = uniqueName("failfast");
        for (Map.Entry<String, Form> form : forms.entrySet()) { // every form works while the server is up
            Lease lease = form.getValue().acquire(client, base);
            assertNotNull(lease, form.getKey() + " acquires while the server is up");
            lease.release();
        }
        String held = uniqueName("failfast-held");
        Lease holder = openClient(uri).mutex(held).acquire(Duration.ofSeconds(10));
        LockService waiting = openClient(uri);
        AtomicLong waiterEnded = new AtomicLong();
        Async<Lease> waiter = Async.startWaiter("failfast-waiter", backend(), held, () -> {
            try {
                return waiting.mutex(held).acquire(Duration.ofSeconds(60));
            } finally {
                waiterEnded.set(System.nanoTime());
            }
        });
        Duration bound = FAIL_FAST.plus(Checks.BOUND);
        List<String> figures = new ArrayList<>();

        long stopping = System.nanoTime();
        backend().stopServer();
        try {
            long stopped = System.nanoTime();
            Duration early = failsWithin(bound, "mutex acquire(30 s) right after the stop",
                    () -> client.mutex(base + "-early").acquire(Duration.ofSeconds(30)));
            figures.add("right after the stop " + early.toMillis() + " ms");
            waiter.join(bound.plus(Checks.BOUND)); // a hang fails here, with the thread's stack
            try {
                waiter.get(Duration.ZERO);
                fail("a waiter acquired while the server was down");
            } catch (AssertionError e) {
                assertTrue(e.getCause() instanceof LockConnectionException,
                        "the waiter fails with LockConnectionException: " + e.getCause());
            }
            Duration waiterTook = Duration.ofNanos(waiterEnded.get() - stopped);
            assertTrue(waiterTook.compareTo(bound) <= 0, "the waiter failed " + waiterTook.toMillis()
                    + " ms after the stop, bound " + bound.toMillis() + " ms");
            // negative where the waiter failed while the fixture was still stopping the server
            figures.add("waiter under way " + waiterTook.toMillis() + " ms (the stop took "
                    + (stopped - stopping) / 1_000_000 + " ms)");
            Poll.settle(client::connectionState, s -> s != ConnectionState.CONNECTED, crashReleaseBound());
            long noticed = System.nanoTime();
            assertTrue(client.connectionState() != ConnectionState.CONNECTED,
                    "the service signals the suspension within " + crashReleaseBound() + " of the stop");
            figures.add("suspension signalled " + (noticed - stopped) / 1_000_000 + " ms after the stop");
            for (Map.Entry<String, Form> form : forms.entrySet()) {
                Form f = form.getValue();
                Duration took = failsWithin(bound, form.getKey() + " while suspended", () -> f.acquire(client, base));
                figures.add(form.getKey() + " " + took.toMillis() + " ms");
            }
        } finally {
            backend().startServer();
        }
        Poll.until("connection state after the restart", ConnectionState.CONNECTED, client::connectionState,
                crashReleaseBound());
        for (Map.Entry<String, Form> form : forms.entrySet()) {
            Lease lease = form.getValue().acquire(client, base);
            assertNotNull(lease, form.getKey() + " acquires once the server is back");
            lease.release();
        }
        System.out.printf("[§16 figures] §16.3 provider '%s', failFast=%d ms: %s%n", provider().name(),
                FAIL_FAST.toMillis(), String.join(", ", figures));
        try {
            holder.release();
        } catch (LockConnectionException e) {
            // the holder's session may have ended in the outage: its lease is gone with it
        }
    }

    /** Runs one acquisition that must fail with LockConnectionException within the bound; returns how long it took. */
    private static Duration failsWithin(Duration bound, String what, java.util.concurrent.Callable<Lease> body)
            throws InterruptedException {
        long start = System.nanoTime();
        Async<Lease> call = Async.start("failfast " + what, body);
        call.join(bound.plus(Checks.BOUND)); // a hang fails here, with the thread's stack
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        Lease lease;
        try {
            lease = call.get(Duration.ZERO);
        } catch (AssertionError e) {
            Throwable cause = e.getCause() instanceof ExecutionException ? e.getCause().getCause() : e.getCause();
            assertTrue(cause instanceof LockConnectionException, what + ": expected LockConnectionException, got "
                    + cause);
            assertTrue(took.compareTo(bound) <= 0, what + ": LockConnectionException after " + took.toMillis()
                    + " ms, bound " + bound.toMillis() + " ms");
            return took;
        }
        fail(what + ": " + (lease == null ? "answered 'not acquired'" : "acquired") + " while the server was down, "
                + "instead of LockConnectionException");
        return took;
    }

    /** The forms of acquisition the provider has, by label. */
    private Map<String, Form> forms() {
        Map<String, Form> forms = new LinkedHashMap<>();
        Duration wait = Duration.ofSeconds(30);
        forms.put("mutex acquire()", (s, n) -> s.mutex(n + "-m").acquire());
        forms.put("mutex acquire(30 s)", (s, n) -> s.mutex(n + "-m").acquire(wait));
        forms.put("mutex tryAcquire()", (s, n) -> s.mutex(n + "-m").tryAcquire().orElse(null));
        forms.put("mutex tryAcquire(30 s)", (s, n) -> s.mutex(n + "-m").tryAcquire(wait).orElse(null));
        forms.put("multiLock acquire(30 s)", (s, n) -> s.multiLock(List.of(LockPart.mutex(n + "-a"),
                LockPart.mutex(n + "-b"))).acquire(wait));
        if (provider().features().contains(LockFeature.NON_REENTRANT_MUTEX)) {
            forms.put("non-reentrant acquireAsync(30 s)", (s, n) -> s.nonReentrantMutex(n + "-n")
                    .acquireAsync(wait).get());
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            forms.put("read acquire(30 s)", (s, n) -> s.readWriteLock(n + "-o").readLock().acquire(wait));
            forms.put("write tryAcquire(30 s)", (s, n) -> s.readWriteLock(n + "-o").writeLock().tryAcquire(wait)
                    .orElse(null));
            forms.put("thread-free write acquire(30 s)", (s, n) -> s.threadFreeReadWriteLock(n + "-w")
                    .writeLock().acquire(wait));
            forms.put("thread-free read tryAcquireAsync(30 s)", (s, n) -> {
                Optional<Lease> lease = s.threadFreeReadWriteLock(n + "-r").readLock().tryAcquireAsync(wait).get();
                return lease.orElse(null);
            });
        }
        if (provider().features().contains(LockFeature.SEMAPHORE)) {
            forms.put("semaphore acquire(30 s)", (s, n) -> s.semaphore(n + "-s", 2).acquire(wait));
        }
        return forms;
    }
}
