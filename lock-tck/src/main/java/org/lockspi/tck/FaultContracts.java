package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.FencedRegister;
import org.lockspi.tck.internal.Figures;
import org.lockspi.tck.internal.HoldWatch;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Retrying;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.process.HolderMain;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §18 Faults: a holder cut off by a network partition, paused, or whose server restarts, stops saying HELD before
 * anyone else can hold the lock, and a {@link FencedRegister fenced resource} never accepts its stale write. The
 * oracle is a fenced register that every holder reports to (HELD intervals, writes with fencing tokens); each
 * contract prints its measured times as one line starting {@code [§18 figures]}.
 *
 * <p>{@code T} below is the lease span the test class declares ({@link #leaseSpan()}), {@code C} the
 * {@link #crashReleaseBound()}. The rules are in
 * {@code docs/spec.md} §18.
 */
@Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = "the faults act on a client's session "
        + "or connection, shared by its leases of every kind; the oracle is a mutex holder, and every kind goes "
        + "through a restart in §16.2 and a loss in §12.1")
@Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
public interface FaultContracts extends TckContext {

    /**
     * (PARTITION, ENDS_SILENT_SESSIONS) A client that reaches the server through a proxy holds a mutex and writes to
     * the fenced register; the proxy black-holes, accepting new connections. Another client acquires within {@code C} +
     * 10 s; the cut-off lease must have left {@code HELD} before that ({@code UNCERTAIN}, or {@code LOST} at once) and
     * be {@code LOST} when it returns, no two {@code HELD} intervals overlap, and the new holder's write is accepted.
     * After the heal the old lease turns {@code LOST} within {@code C} if it had not, its client serves again, its late
     * release throws nothing and leaves the new holder's entry and lease alone, and its late write is refused; no stale
     * write is accepted.
     */
    @Test
    @Timeout(120)
    @Diagnosis("A cut-off client hears nothing, so its deadlines must say it: BackendLease.confirmedUntilNanos() runs "
            + "out first, then validUntilNanos() before the server can free the lock; both from the send time of the "
            + "last answered request, never the receive time.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "one client takes the lock over from the cut-off "
            + "holder")
    @DisplayName("§18.1 partition (new connections hang): the cut-off holder is UNCERTAIN and then LOST before "
            + "another client acquires; after the heal its late release and write harm no one")
    default void partitionedHolderStepsDown() throws InterruptedException {
        partition("§18.1", true);
    }

    /**
     * (PARTITION, ENDS_SILENT_SESSIONS) §18.1 with the proxy refusing new connections while it is cut.
     */
    @Test
    @Timeout(120)
    @Diagnosis("As §18.1; here reconnect attempts fail at once, so look also for a client that counts a refused "
            + "reconnect as contact (moving confirmedUntilNanos or reporting connectionRestored without an answer "
            + "from the server).")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "one client takes the lock over from the cut-off "
            + "holder")
    @DisplayName("§18.2 partition (new connections refused): the cut-off holder is UNCERTAIN and then LOST before "
            + "another client acquires; after the heal its late release and write harm no one")
    default void refusedHolderStepsDown() throws InterruptedException {
        partition("§18.2", false);
    }

    /**
     * (OTHER_PROCESSES, ENDS_SILENT_SESSIONS) A child JVM holds a mutex and writes (accepted), then is stopped with
     * {@code SIGSTOP}; another client acquires within {@code C} + 10 s and writes; the child is resumed. The first
     * state its watch thread reads after the pause is not {@code HELD}, its write with its token is refused, its late
     * release returns (or throws {@code LockConnectionException}), no stale write is accepted, and the new holder still
     * holds with (INSPECT) the only entry.
     */
    @Test
    @Timeout(120)
    @Diagnosis("After a pause no event has arrived, so state() must answer from the clock: "
            + "BackendLease.confirmedUntilNanos() and validUntilNanos() in System.nanoTime() from the last answered "
            + "send; a reply arriving after the pause still dates from before it.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "one client takes the lock over from the cut-off "
            + "holder")
    @DisplayName("§18.3 pause: a holder stopped with SIGSTOP past its session or lease, while another client "
            + "acquires, is not HELD at its first check after SIGCONT, and its write is refused")
    default void pausedHolderIsNotHeldOnResume() throws InterruptedException {
        requireFaultSetup();
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        requireCapability(TckBackend.Capability.ENDS_SILENT_SESSIONS);
        Assumptions.assumeFalse(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("win"),
                "SIGSTOP needs a POSIX kill command");
        String name = uniqueName("pause");
        Duration bound = crashReleaseBound();
        try (FencedRegister register = new FencedRegister();
             ChildJvm child = ChildJvm.start(HolderMain.class, "guard", clientUri(), provider().name(), name,
                     "mutex", Integer.toString(register.port()), "paused")) {
            String held = child.awaitLine(Duration.ofSeconds(60), "HELD", "ERROR");
            assertTrue(held.startsWith("HELD "), () -> held + child.stderrTail());
            long pausedToken = Long.parseLong(held.substring("HELD ".length()));
            child.send("write");
            assertEquals("WRITE OK", child.awaitLine(Duration.ofSeconds(10), "WRITE", "ERROR"));
            DistributedLock lock = openClient().mutex(name);
            assertTrue(lock.tryAcquire().isEmpty(), "the child holds '" + name + "'");

            child.pause();
            long pausedAt = System.nanoTime();
            Lease fresh;
            long acquiredAt;
            try {
                fresh = lock.acquire(bound.plusSeconds(10));
                acquiredAt = System.nanoTime();
            } finally {
                child.resume();
            }
            long resumedAt = System.nanoTime();
            long freshToken = fresh.fencingToken();
            register.acquired("other", freshToken);
            boolean freshWrote = register.write("other", freshToken);

            long pauseMs = (resumedAt - pausedAt) / 1_000_000;
            child.send("jump " + pauseMs / 2);
            String jump = child.awaitLine(Duration.ofSeconds(15), "JUMP", "ERROR");
            child.send("write");
            String write = child.awaitLine(Duration.ofSeconds(10), "WRITE", "ERROR");
            child.send("release");
            String released = child.awaitLine(Duration.ofSeconds(10), "RELEASED", "ERROR");
            figures("§18.3", "paused for " + ms(resumedAt - pausedAt) + "; other acquired "
                    + since(pausedAt, acquiredAt) + " after SIGSTOP; first check after SIGCONT: " + jump
                    + "; late write: " + write + "; tokens " + pausedToken + " -> " + freshToken);
            boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
            List<String> residue = inspect ? backend().residue(name) : List.of();
            LeaseState freshState = fresh.state();
            fresh.release();
            assertAll(
                    () -> assertTrue(jump.matches("JUMP \\d+ [A-Z]+"), "a first check after the pause: " + jump
                            + child.stderrTail()),
                    () -> assertFalse(jump.endsWith(" HELD"), "the first state check after SIGCONT must not say "
                            + "HELD: another client acquired '" + name + "' " + since(pausedAt, acquiredAt)
                            + " after SIGSTOP, before the SIGCONT (" + jump + ")"),
                    () -> assertEquals("WRITE STALE", write, "the paused holder's late write is refused"),
                    () -> assertTrue(freshWrote, "the new holder's write is accepted: " + register.writes()),
                    () -> assertEquals(List.of(), register.acceptedStaleWrites(), "no stale write accepted"),
                    () -> assertTrue(released.startsWith("RELEASED"), "the paused holder's late release returns "
                            + "(or throws LockConnectionException, the server not told): " + released),
                    () -> assertEquals(LeaseState.HELD, freshState, "the new holder still holds"),
                    () -> assertTrue(!inspect || residue.size() == 1,
                            "(INSPECT) one entry left, the new holder's: " + residue));
        }
    }

    /**
     * (RESTART) A client holds a mutex and writes; a second client waits ((INSPECT) until its entry shows); the server
     * restarts with its data. With SURVIVES_RESTART the first lease is {@code HELD} again within {@code C} and its
     * client keeps the lock for {@code T} while the waiter does not acquire; it writes while {@code HELD} and releases.
     * The second client acquires within {@code 2C} + 10 s, asking again after each {@code LockConnectionException}, and
     * writes. No two {@code HELD} intervals overlap, no stale write is accepted, and the second token is greater, its
     * write accepted.
     */
    @Test
    @Timeout(120)
    @Diagnosis("With SURVIVES_RESTART the session must outlive the restart (reconnect within the session timeout, "
            + "report connectionRestored) and the waiter keep its place; without it the lease must say LOST (isLost "
            + "or validUntilNanos) before a waiter can get in.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "one client waits across the restart")
    @DisplayName("§18.4 server restart keeping its data: no lease says HELD while another client holds the lock, "
            + "and no stale write is accepted")
    default void restartKeepsExclusion() throws InterruptedException, ExecutionException, TimeoutException {
        restart("§18.4", true);
    }

    /**
     * (RESTART_WITHOUT_DATA) §18.4 with a server that loses every key, fencing counters included, and stays down for
     * {@code T}: the first lease must stop saying {@code HELD} while the server is down, and the second client acquires
     * once it serves. No two {@code HELD} intervals overlap, no stale write is accepted (the first holder writes only
     * while {@code HELD}), and the second token is greater than the first, its write accepted.
     */
    @Test
    @Timeout(120)
    @Diagnosis("Tokens must not restart with a lost counter: floor them by the server clock (Redis: max(counter + 1, "
            + "TIME in microseconds)). The lease must turn UNCERTAIN at the first failed renewal and LOST at "
            + "validUntilNanos(): the server that returns knows nothing of it.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "one client waits across the restart")
    @DisplayName("§18.5 server restart without its data, down for T: no lease says HELD while another client "
            + "holds the lock, and no stale write is accepted")
    default void restartWithoutDataKeepsExclusion()
            throws InterruptedException, ExecutionException, TimeoutException {
        restart("§18.5", false);
    }

    private void requireFaultSetup() {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireFeature(LockFeature.FENCING_TOKENS);
    }

    private void partition(String rule, boolean acceptNew) throws InterruptedException {
        requireFaultSetup();
        requireCapability(TckBackend.Capability.PARTITION);
        requireCapability(TckBackend.Capability.ENDS_SILENT_SESSIONS);
        String name = uniqueName("partition");
        Duration bound = crashReleaseBound();
        boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
        try (FencedRegister register = new FencedRegister();
             TcpProxy proxy = TcpProxy.inFrontOf(backend().uri());
             HoldWatch watch = new HoldWatch(reporter(register), 60_000)) {
            LockService cutClient = openClient(proxy.rewrite(clientUri()));
            LockService other = openClient();
            Lease old = cutClient.mutex(name).acquire(Duration.ofSeconds(10));
            long oldToken = old.fencingToken();
            register.acquired("cut-off", oldToken);
            HoldWatch.Seen seen = watch.watch("cut-off", oldToken, old);
            AtomicLongArray heard = new AtomicLongArray(2);
            old.addListener(ending(register, "cut-off", oldToken, heard)); // first: it notes the times
            StateRecorder recorder = new StateRecorder();
            old.addListener(recorder);
            assertTrue(register.write("cut-off", oldToken), "the holder's first write is accepted");

            proxy.blackHole(acceptNew);
            long cutAt = System.nanoTime();
            Lease fresh = other.mutex(name).acquire(bound.plusSeconds(10));
            long acquiredAt = System.nanoTime();
            LeaseState oldAtAcquisition = old.state();
            long freshToken = fresh.fencingToken();
            register.acquired("other", freshToken);
            boolean freshWrote = register.write("other", freshToken);
            List<String> before = inspect ? backend().residue(name) : List.of();

            boolean lostWhileCut = recorder.changedTo(LeaseState.LOST, bound);
            proxy.heal();
            long healedAt = System.nanoTime();
            boolean lost = lostWhileCut || recorder.changedTo(LeaseState.LOST, bound);
            long lostAt = first(seen.lostAt(), heard.get(1));
            long uncertainAt = first(seen.uncertainAt(), heard.get(0));
            long notHeldAt = first(uncertainAt, lostAt);
            figures(rule, "cut->UNCERTAIN " + since(cutAt, uncertainAt) + "; cut->other acquires "
                    + since(cutAt, acquiredAt) + "; cut->LOST " + since(cutAt, lostAt)
                    + (lostWhileCut ? "" : " (after the heal at " + since(cutAt, healedAt) + ")")
                    + "; state when the other acquired: " + oldAtAcquisition + "; listener: " + recorder.changes());

            // the cut-off client serves again, then releases its old lease and writes late
            try (Lease probe = Retrying.acquire(cutClient.mutex(uniqueName("partition-probe")),
                    bound.plusSeconds(10), new AtomicInteger())) {
                assertEquals(LeaseState.HELD, probe.state(), "the cut-off client serves again after the heal");
            }
            assertDoesNotThrow(old::release, "releasing the cut-off lease is harmless");
            boolean lateWrote = register.write("cut-off", oldToken);
            List<String> after = inspect ? backend().residue(name) : List.of();
            LeaseState freshState = fresh.state();
            fresh.release();
            assertAll(
                    () -> assertTrue(notHeldAt != 0 && notHeldAt - acquiredAt < 0, "the cut-off lease stopped "
                            + "saying HELD (UNCERTAIN, or LOST at once) before another client acquired; seen "
                            + "UNCERTAIN " + since(cutAt, uncertainAt) + ", LOST " + since(cutAt, lostAt)
                            + ", other acquired " + since(cutAt, acquiredAt) + " after the cut"),
                    () -> assertEquals(LeaseState.LOST, oldAtAcquisition, "the cut-off lease is LOST by its "
                            + "validity deadline, which comes before the server lets another client in"),
                    () -> assertTrue(lost, "the cut-off lease turned LOST: " + recorder.changes()),
                    () -> assertEquals(List.of(), register.overlaps(), "no two leases said HELD at once"),
                    () -> assertTrue(freshWrote, "the new holder's write is accepted: " + register.writes()),
                    () -> assertFalse(lateWrote, "the cut-off holder's late write is refused"),
                    () -> assertEquals(List.of(), register.acceptedStaleWrites(), "no stale write accepted"),
                    () -> assertTrue(!inspect || before.size() == 1, "one entry, the new holder's: " + before),
                    () -> assertEquals(before, after, "(INSPECT) the late release left the new holder's entry"),
                    () -> assertEquals(LeaseState.HELD, freshState, "the new holder still holds"),
                    () -> assertTrue(old.state().isTerminal(), "the old lease stays ended: " + old.state()));
        }
    }

    private void restart(String rule, boolean keepData)
            throws InterruptedException, ExecutionException, TimeoutException {
        requireFaultSetup(); // features first: a rule about an undeclared feature is skipped for the feature
        requireCapability(keepData ? TckBackend.Capability.RESTART : TckBackend.Capability.RESTART_WITHOUT_DATA);
        String name = uniqueName("restart");
        Duration bound = crashReleaseBound();
        Duration t = leaseSpan();
        Duration wait = bound.multipliedBy(2).plusSeconds(10);
        try (FencedRegister register = new FencedRegister();
             HoldWatch watch = new HoldWatch(reporter(register), 60_000);
             Workers waiter = new Workers(1)) {
            LockService first = openClient();
            DistributedLock secondLock = openClient().mutex(name);
            Lease a = first.mutex(name).acquire(Duration.ofSeconds(10));
            long tokenA = a.fencingToken();
            register.acquired("first", tokenA);
            HoldWatch.Seen seenA = watch.watch("first", tokenA, a);
            AtomicLongArray heard = new AtomicLongArray(2);
            a.addListener(ending(register, "first", tokenA, heard)); // first: it notes the times
            StateRecorder recorder = new StateRecorder();
            a.addListener(recorder);
            assertTrue(register.write("first", tokenA), "the first holder's write is accepted");

            // the second client waits on a thread of its own, which also releases (a mutex lease is the thread's)
            CompletableFuture<Lease> secondAcquired = new CompletableFuture<>();
            CountDownLatch secondMayRelease = new CountDownLatch(1);
            AtomicInteger waiterFailures = new AtomicInteger();
            Future<LeaseState> b = waiter.submit(() -> {
                Lease lease = Retrying.acquire(secondLock, wait, waiterFailures);
                register.acquired("second", lease.fencingToken());
                watch.watch("second", lease.fencingToken(), lease);
                register.write("second", lease.fencingToken());
                secondAcquired.complete(lease);
                try (lease) {
                    assertTrue(secondMayRelease.await(60, TimeUnit.SECONDS), "the test let the second release");
                    return lease.state();
                }
            });
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                Poll.until("entries of holder and waiter of '" + name + "'", 2,
                        () -> backend().residue(name).size(), Duration.ofSeconds(10));
            }

            long restartAt = System.nanoTime();
            if (keepData) {
                backend().restart();
            } else {
                backend().restartWithoutData(t);
            }
            long servesAt = System.nanoTime();
            if (keepData) {
                // the first holder keeps the lock for one lease span after the restart: a provider whose leases
                // outlive a quick restart (SURVIVES_RESTART) holds it all that time; one whose sessions die with
                // the server may lose it instead, and then the waiter may take it, never while it says HELD
                boolean survives = provider().features().contains(LockFeature.SURVIVES_RESTART);
                if (survives) {
                    Poll.until("the first lease HELD again after the restart (SURVIVES_RESTART)", LeaseState.HELD,
                            a::state, bound);
                }
                long holdUntil = servesAt + t.toNanos();
                while (System.nanoTime() - holdUntil < 0 && !secondAcquired.isDone() && !a.state().isTerminal()) {
                    Thread.sleep(20); // the scenario: a holder that keeps its lock while the waiter waits
                }
                assertFalse(survives && secondAcquired.isDone(), "the waiter does not acquire while the first "
                        + "holder holds across the restart (SURVIVES_RESTART)");
                if (a.isHeld()) {
                    register.write("first", tokenA); // a guarded write, as a careful holder does
                }
                register.ended("first", tokenA, "RELEASING"); // it stops using the lock, then releases it
                a.release();
            }
            Lease second;
            try {
                second = secondAcquired.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                b.get(1, TimeUnit.SECONDS); // the waiter's own failure, if it failed
                throw e;
            }
            if (!keepData && a.isHeld()) {
                register.write("first", tokenA); // a guarded write: only if the lease says HELD
            }
            long secondToken = second.fencingToken();
            figures(rule, "server down " + ms(servesAt - restartAt) + "; restart->first UNCERTAIN "
                    + since(restartAt, first(seenA.uncertainAt(), heard.get(0))) + ", ->first LOST "
                    + since(restartAt, first(seenA.lostAt(), heard.get(1))) + ", ->second acquires "
                    + since(restartAt, seenSince(register, "second")) + "; tokens " + tokenA + " -> "
                    + secondToken + "; writes " + register.writes() + "; listener: " + recorder.changes()
                    + "; the waiter's acquisitions that failed while the server was down: " + waiterFailures);
            secondMayRelease.countDown();
            LeaseState secondState = b.get(10, TimeUnit.SECONDS);
            if (!keepData) {
                a.release();
            }
            assertAll(
                    () -> assertEquals(List.of(), register.overlaps(), "no two leases said HELD at once"),
                    () -> assertEquals(List.of(), register.acceptedStaleWrites(), "no stale write accepted"),
                    () -> assertEquals(LeaseState.HELD, secondState, "the second holder holds until it releases"),
                    () -> assertTrue(secondToken > tokenA, "the second holder's token is greater: " + tokenA
                            + " -> " + secondToken),
                    () -> assertTrue(register.writes().contains("second:" + secondToken + " OK"),
                            "the second holder's write is accepted: " + register.writes()));
        }
    }

    /** @return when the client's first interval began, 0 if it has none */
    private static long seenSince(FencedRegister register, String client) {
        return register.intervals().stream().filter(i -> i.client().equals(client))
                .mapToLong(FencedRegister.Interval::from).findFirst().orElse(0);
    }

    /** @return a watch callback that opens and closes the client's interval in the register */
    private static HoldWatch.Changed reporter(FencedRegister register) {
        return (client, token, state) -> {
            if (state == LeaseState.HELD) {
                register.acquired(client, token);
            } else {
                register.ended(client, token, state.name());
            }
        };
    }

    /**
     * @return a listener that closes the interval when told of a change away from HELD, and notes when it heard
     *         of UNCERTAIN ({@code heard[0]}) and LOST ({@code heard[1]}) first
     */
    private static LeaseListener ending(FencedRegister register, String client, long token, AtomicLongArray heard) {
        return (lease, previous, current) -> {
            if (current == LeaseState.UNCERTAIN) {
                heard.compareAndSet(0, 0, System.nanoTime());
            }
            if (current == LeaseState.LOST) {
                heard.compareAndSet(1, 0, System.nanoTime());
            }
            if (previous == LeaseState.HELD) {
                register.ended(client, token, current.name());
            }
        };
    }

    /** Prints one line of measured times, with each as a multiple of T. */
    private void figures(String rule, String text) {
        Figures.print(rule, provider().name(), leaseSpan(), text);
    }

    private String since(long from, long at) {
        return Figures.since(from, at, leaseSpan());
    }

    private String ms(long nanos) {
        return since(0, nanos);
    }

    private static long first(long a, long b) {
        return a == 0 ? b : b == 0 ? a : Math.min(a, b);
    }
}
