package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Figures;
import org.lockspi.tck.internal.HoldWatch;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Retrying;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.internal.Traffic;
import org.lockspi.tck.report.NotApplicable;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.support.WireFault;
import org.lockspi.tck.support.WireMessage;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §24 Faults finer than a connection: one request or one answer lost on the wire, a late answer just before a cut,
 * a session the server replaces under a live service. One client reaches the server through a {@link TcpProxy} that
 * reads the backend's {@link org.lockspi.tck.support.WireProtocol}; each rule first records a clean run of the step
 * it strikes, to learn which operation the provider uses for it (the kit knows operations only by the protocol's
 * names and traits), then strikes one message of that operation ({@link WireFault}) and judges what the provider
 * does. A rule whose clean run shows no such operation is skipped and says so. Each rule prints one line
 * {@code [§24 figures] ...}. The rules are in {@code docs/spec.md} §24.
 *
 * <p>(Over 500 lines: five rules, each with its clean run, its fault and every check it judges together.)
 */
@Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = "one message of a mutex's exchange "
        + "is struck: a provider recovers a lost create, delete, renewal or wake-up in the code its kinds share (the "
        + "ZooKeeper recipe's node operations and watches, the Redis recipe's script calls and subscriptions, the "
        + "JDBC provider's statements), so the mutex stands for them, as for §18's faults")
@Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
public interface RequestFaultContracts extends TckContext {

    /**
     * How long after a release a waiter whose wake-up registration was lost may take to acquire (§24.4): the cap
     * of the provider's polling fallback, or the time it takes to register again once its connection is back,
     * whichever it relies on.
     *
     * @return the bound; {@link Checks#BOUND} (2 s) unless overridden
     */
    default Duration wakeupFallbackBound() {
        return Checks.BOUND;
    }

    /**
     * (REQUEST_FAULTS, INSPECT) The answer to the request that created the holder's entry in a clean acquisition
     * (the last request that may write and was answered without an error) is dropped and its connection closed,
     * once for {@code tryAcquire()} and once for {@code acquire(C)} of a free mutex. Each ends with a {@code HELD}
     * lease whose entry is the lock's only one within {@code B} (another client's {@code tryAcquire()} is empty; after
     * the release nothing is left within the release bound plus {@code B}), or with nothing of it left on the server
     * within the release bound plus {@code B} of its end (the proxy lets the client reconnect at once) and the lock
     * free for another client. The client has {@code failFast=1m}, so that its acquisition goes on after the
     * reconnection instead of failing fast (§16.3). The second acquisition is not tried once the first failed the rule.
     */
    @Test
    @Timeout(90)
    @Diagnosis("After a connection loss during the create of its entry the client cannot know whether the server made "
            + "it: look for it by a name only this attempt uses (Curator's protected _c_<uuid>- prefix, a Redis owner "
            + "token) before creating again, and delete it by that name when giving up; never walk away from an entry "
            + "whose answer was lost, nor create a second one behind it.")
    @Covers(kinds = MUTEX)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§24.1 mutex: the answer to the request that creates the holder's entry is lost: the acquisition "
            + "ends with a HELD lease or with nothing left on the server; never an orphan, never two holders")
    default void lostCreateAnswerLeavesNoOrphan() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.REQUEST_FAULTS);
        requireCapability(TckBackend.Capability.INSPECT);
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend().uri(), backend().wireProtocol())) {
            // failFast=1m: the acquisition waits out the reconnection and goes on, which is what the rule is about
            LockService client = openClient(Checks.waitingOutOutages(proxy.rewrite(clientUri())));
            LockService other = openClient();
            warmUp(client);
            String clean = uniqueName("lost-create-clean");
            long from = System.nanoTime();
            Lease recorded = client.mutex(clean).acquire(Checks.WAIT);
            long to = System.nanoTime();
            recorded.release();
            String sent = Traffic.requests(proxy.traffic(), from, to);
            Traffic.Choice create = Traffic.lastAppliedWrite(proxy.traffic(), from, to).orElseThrow(() ->
                    notApplicable("§24.1", "sent no request that may write and was answered without an error while "
                            + "it acquired a free mutex (it sent: " + sent + ")"));
            List<String> failures = new ArrayList<>();
            List<String> figures = new ArrayList<>();
            for (Duration wait : new Duration[] {Duration.ZERO, crashReleaseBound()}) {
                if (!failures.isEmpty()) {
                    figures.add("acquire(C) not tried: the first trial failed"); // it could wait out C behind it
                    break;
                }
                lostCreateTrial(proxy, client, other, create, wait, failures, figures);
            }
            figures("§24.1", "clean acquisition sent " + sent + "; struck the answer to " + create + "; "
                    + String.join("; ", figures));
            assertEquals(List.of(), failures, "the answer to " + create + " was lost");
        }
    }

    /**
     * (REQUEST_FAULTS, INSPECT) The request a clean release sent first that may write (the delete) is dropped and its
     * connection closed: {@code release()} returns, or throws {@code LockConnectionException}, within the release
     * bound plus {@code B}, the lease is {@code RELEASED}, and within the release bound plus {@code B} of the release
     * nothing of the lock is left and another client acquires it.
     */
    @Test
    @Timeout(60)
    @Diagnosis("A release whose request was lost with the connection must be sent again once the connection is back "
            + "(ZooKeeper: keep the node to delete and delete it on reconnection; Redis: run the owner-checked release "
            + "again on a fresh connection); a client library's 'connection loss' on a delete does not mean deleted.")
    @Covers(kinds = MUTEX)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§24.2 mutex: a release request that never reaches the server: release() returns within the release "
            + "bound, and the lock is free for another client within the release bound plus B")
    default void lostReleaseRequestIsSentAgain() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.REQUEST_FAULTS);
        requireCapability(TckBackend.Capability.INSPECT);
        Duration bound = releaseBound().plus(Checks.BOUND);
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend().uri(), backend().wireProtocol())) {
            LockService client = openClient(proxy.rewrite(clientUri()));
            LockService other = openClient();
            warmUp(client);
            String clean = uniqueName("lost-release-clean");
            Lease recorded = client.mutex(clean).acquire(Checks.WAIT);
            long from = System.nanoTime();
            recorded.release();
            Poll.settle(() -> backend().residue(clean), List::isEmpty, bound);
            long to = System.nanoTime();
            String sent = Traffic.requests(proxy.traffic(), from, to);
            Traffic.Choice release = Traffic.firstRequest(proxy.traffic(), from, to, m -> m.is(WireMessage.Trait.WRITE))
                    .orElseThrow(() -> notApplicable("§24.2", "sent no request that may write while it released a "
                            + "mutex (it sent: " + sent + ")"));

            String name = uniqueName("lost-release");
            Lease lease = client.mutex(name).acquire(Checks.WAIT);
            WireFault fault = proxy.arm(WireFault.dropRequest(release.operation(), release.nth()));
            long start = System.nanoTime();
            RuntimeException thrown = null;
            try {
                lease.release();
            } catch (RuntimeException e) {
                thrown = e;
            }
            long returned = System.nanoTime();
            boolean struck = fault.awaitStruck(bound);
            List<String> left = Poll.settle(() -> backend().residue(name), List::isEmpty,
                    Duration.ofNanos(Math.max(0, start + bound.toNanos() - System.nanoTime())));
            long cleanAt = System.nanoTime();
            Optional<Lease> next = other.mutex(name).tryAcquire();
            boolean free = next.isPresent();
            next.ifPresent(Lease::release);
            RuntimeException failure = thrown;
            figures("§24.2", "clean release sent " + sent + "; dropped " + release + "; release() "
                    + (failure == null ? "returned" : "threw " + failure.getClass().getSimpleName()) + " after "
                    + ms(returned - start) + "; the lock's entries " + (left.isEmpty() ? "gone after "
                    + ms(cleanAt - start) : "still " + left));
            assertAll(
                    () -> assertTrue(struck, "the release sent no " + release + " (it sent "
                            + Traffic.requests(proxy.traffic(), start, System.nanoTime()) + ")"),
                    () -> assertTrue(failure == null || failure instanceof LockConnectionException,
                            "release() returns or throws LockConnectionException, not " + failure),
                    () -> assertTrue(returned - start <= bound.toNanos(), "release() took " + ms(returned - start)
                            + ", more than the release bound plus B, " + bound.toMillis() + " ms"),
                    () -> assertEquals(LeaseState.RELEASED, lease.state(), "the lease is released locally"),
                    () -> assertEquals(List.of(), left, "the lock's entry is gone within the release bound plus B, "
                            + bound.toMillis() + " ms, of a release whose " + release + " never reached the server"),
                    () -> assertTrue(free, "another client acquires the lock once it is free"));
        }
    }

    /**
     * (LEASE_RENEWAL, REQUEST_FAULTS, ENDS_SILENT_SESSIONS) The request a client sends while it holds a lease and does
     * nothing (a renewal that may write first, else another request, else a keep-alive) is chosen; on its next
     * sending it reaches the server, the proxy then cuts the client off, and the request's answer alone comes
     * {@code T/5} late. {@code T} after the request passed, when the server may free the lock, the lease is
     * {@code LOST}; it stopped saying {@code HELD} before another client acquires (within {@code C} + 10 s) and is
     * {@code LOST} then; after the heal its late release leaves the new holder alone.
     */
    @Test
    @Timeout(120)
    @Diagnosis("A lease's validity counts from when the renewal or heartbeat that confirmed it was sent, never from "
            + "when its answer came: read System.nanoTime() before the request goes out and set "
            + "BackendLease.validUntilNanos() and confirmedUntilNanos() from it; the server counts its lease time or "
            + "session timeout from when it got the request.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "one client takes the lock over from the cut-off "
            + "holder")
    @DisplayName("§24.3 mutex: a renewal's answer comes late and the client is then cut off: the lease is LOST by T "
            + "after the renewal was sent, before another client acquires")
    default void lateRenewalAnswerDoesNotExtendTheLease() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireFeature(LockFeature.LEASE_RENEWAL);
        requireCapability(TckBackend.Capability.REQUEST_FAULTS);
        requireCapability(TckBackend.Capability.ENDS_SILENT_SESSIONS);
        Duration t = leaseSpan();
        Duration delay = t.dividedBy(5);
        boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
        String name = uniqueName("late-renewal");
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend().uri(), backend().wireProtocol());
             HoldWatch watch = new HoldWatch((client, token, state) -> { }, 60_000)) {
            LockService client = openClient(proxy.rewrite(clientUri()));
            LockService other = openClient();
            warmUp(client);
            Lease recorded = client.mutex(uniqueName("late-renewal-clean")).acquire(Checks.WAIT);
            long from = System.nanoTime();
            // until a renewal that may write shows, or another request twice (one whole period), or T passes
            Optional<Traffic.Choice> chosen = Poll.settle(() -> Traffic.renewal(proxy.traffic(), from, false),
                    Optional::isPresent, t).or(() -> Traffic.renewal(proxy.traffic(), from, true));
            long to = System.nanoTime();
            recorded.release();
            String sent = Traffic.requests(proxy.traffic(), from, to);
            Traffic.Choice renewal = chosen.orElseThrow(() -> notApplicable("§24.3", "sent nothing while it held a "
                    + "lease for " + ms(to - from) + ", although it declares LEASE_RENEWAL"));

            Lease lease = client.mutex(name).acquire(Checks.WAIT);
            HoldWatch.Seen seen = watch.watch("cut-off", lease.fencingToken(), lease);
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            WireFault fault = proxy.arm(WireFault.delayResponseThenCut(renewal.operation(), renewal.nth(), delay));
            assertTrue(fault.awaitStruck(t), "the holder sent no " + renewal + " within T, " + t.toMillis()
                    + " ms, of the fault's arming (while it held a lease it sent " + sent + ")");
            long struck = fault.struckAt();
            long serverMayFree = struck + t.toNanos();
            while (System.nanoTime() - serverMayFree < 0) {
                Thread.sleep(Math.max(1, (serverMayFree - System.nanoTime()) / 1_000_000)); // the scenario: T passes
            }
            LeaseState atT = lease.state();
            Lease fresh = other.mutex(name).acquire(crashReleaseBound().plusSeconds(10));
            long acquiredAt = System.nanoTime();
            LeaseState atAcquisition = lease.state();
            List<String> before = inspect ? backend().residue(name) : List.of();
            proxy.heal();
            boolean lost = recorder.changedTo(LeaseState.LOST, crashReleaseBound());
            RuntimeException late = null;
            try {
                lease.release();
            } catch (LockConnectionException e) {
                late = e; // the server could not be told: allowed
            }
            List<String> after = inspect ? backend().residue(name) : List.of();
            LeaseState freshState = fresh.state();
            fresh.release();
            figures("§24.3", "while holding it sent " + sent + "; " + renewal + " passed, then the cut; its answer "
                    + "held back " + delay.toMillis() + " ms, delivered " + since(struck, fault.deliveredAt())
                    + "; UNCERTAIN " + since(struck, seen.uncertainAt()) + ", LOST " + since(struck, seen.lostAt())
                    + ", other acquired " + since(struck, acquiredAt) + " after the request passed; state at T: "
                    + atT + (late == null ? "" : "; late release: " + late.getClass().getSimpleName()));
            assertAll(
                    () -> assertEquals(LeaseState.LOST, atT, "T after " + renewal + " reached the server, when the "
                            + "server may free the lock, the lease is LOST: its validity counts from the send, not "
                            + "from the answer that came " + delay.toMillis() + " ms late"),
                    () -> assertTrue(seen.notHeldAt() != 0 && seen.notHeldAt() - acquiredAt < 0, "the lease stopped "
                            + "saying HELD before another client acquired (seen not HELD "
                            + since(struck, seen.notHeldAt()) + ", other acquired " + since(struck, acquiredAt) + ")"),
                    () -> assertEquals(LeaseState.LOST, atAcquisition, "the lease is LOST when another client "
                            + "acquires"),
                    () -> assertTrue(lost, "the lease's listener was told LOST: " + recorder.changes()),
                    () -> assertEquals(LeaseState.HELD, freshState, "the new holder holds"),
                    () -> assertEquals(before, after, "(INSPECT) the late release left the new holder's entry"));
        }
    }

    /**
     * (REQUEST_FAULTS) A client holds a mutex and another waits for it through the proxy; the first request that
     * registers a wake-up in a clean wait (ZooKeeper: a read that sets a watch; Redis: {@code SUBSCRIBE}) is dropped
     * and its connection closed. The waiter still waits; the holder releases; the waiter acquires within
     * {@link #wakeupFallbackBound()} of the release.
     */
    @Test
    @Timeout(60)
    @Diagnosis("A wake-up registration that failed with the connection is not set: register it again once the "
            + "connection is back (ZooKeeper re-registers only the watches the server confirmed), or poll; never wait "
            + "for a watch or subscription the server never took.")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§24.4 mutex: a waiter's wake-up registration is lost: it still acquires within the provider's "
            + "fallback bound after the release")
    default void lostWakeupRegistrationStillWakes() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.REQUEST_FAULTS);
        Predicate<WireMessage> wakeup = m -> m.is(WireMessage.Trait.WAKEUP);
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend().uri(), backend().wireProtocol())) {
            // the waiter waits out a connection the fault may break (failFast=1m; §16.3 is checked on its own)
            LockService waiting = openClient(Checks.waitingOutOutages(proxy.rewrite(clientUri())));
            LockService holder = openClient();
            warmUp(waiting);
            String clean = uniqueName("lost-wakeup-clean");
            Lease held = holder.mutex(clean).acquire(Checks.WAIT);
            long from = System.nanoTime();
            Async<LeaseState> cleanWaiter = Async.startWaiter("wakeup-clean", backend(), clean, () -> {
                try (Lease lease = waiting.mutex(clean).acquire(Checks.WAIT)) {
                    return lease.state();
                }
            });
            Poll.settle(() -> Traffic.firstRequest(proxy.traffic(), from, System.nanoTime(), wakeup),
                    Optional::isPresent, Checks.BOUND);
            long to = System.nanoTime();
            held.release();
            cleanWaiter.get(Checks.WAIT);
            String sent = Traffic.requests(proxy.traffic(), from, to);
            Traffic.Choice registration = Traffic.firstRequest(proxy.traffic(), from, to, wakeup).orElseThrow(() ->
                    notApplicable("§24.4", "sent no request that registers a wake-up while it waited (it sent: "
                            + sent + "): it polls"));

            String name = uniqueName("lost-wakeup");
            Lease holding = holder.mutex(name).acquire(Checks.WAIT);
            WireFault fault = proxy.arm(WireFault.dropRequest(registration.operation(), registration.nth()));
            AtomicLong acquiredAt = new AtomicLong();
            Async<LeaseState> waiter = Async.start("lost-wakeup", () -> {
                try (Lease lease = waiting.mutex(name).acquire(Checks.WAIT)) {
                    acquiredAt.set(System.nanoTime());
                    return lease.state();
                }
            });
            boolean struck = fault.awaitStruck(Checks.BOUND);
            long struckAt = fault.struckAt();
            // after the loss the client registers again once its connection is back, or falls back on polling
            boolean again = struck && Poll.settle(() -> Traffic.sentSince(proxy.traffic(), struckAt, wakeup),
                    b -> b, Checks.BOUND);
            waiter.awaitBlocked(Checks.BOUND);
            long releasedAt = System.nanoTime();
            holding.release();
            Duration fallback = wakeupFallbackBound();
            waiter.thread().join(fallback.plus(Checks.BOUND).toMillis());
            long got = acquiredAt.get();
            figures("§24.4", "a clean wait sent " + sent + "; dropped " + registration + (again ? ", registered again "
                    + "after it" : ", not registered again within B") + "; the waiter acquired "
                    + (got == 0 ? "not within " + ms(fallback.plus(Checks.BOUND).toNanos()) : ms(got - releasedAt))
                    + " after the release");
            assertAll(
                    () -> assertTrue(struck, "the waiter sent no " + registration + " (it sent "
                            + Traffic.requests(proxy.traffic(), releasedAt - Checks.BOUND.toNanos(), releasedAt) + ")"),
                    () -> assertTrue(got != 0 && got - releasedAt <= fallback.toNanos(), "the waiter whose "
                            + registration + " was lost acquires within " + fallback.toMillis() + " ms of the "
                            + "release (wakeupFallbackBound()); it " + (got == 0 ? "had not " + ms(fallback.plus(
                            Checks.BOUND).toNanos()) + " after it, in:\n" + Async.stack(waiter.thread())
                            : "took " + ms(got - releasedAt))));
            waiter.get(Checks.WAIT);
        }
    }

    /**
     * (PARTITION, SESSIONS) A client reaches the server through a proxy and holds a mutex; the server ends every
     * session of the client (those whose connection comes from the proxy: ZooKeeper expires them, Redis closes the
     * connections). Once the client shows a new session (or {@code C} has passed, for a client that reconnects only
     * when used), the service keeps working: it acquires and releases another lock within {@code C} + {@code B}
     * (asking again after each {@code LockConnectionException}), and the lease held across is {@code HELD} with no
     * other client able to take the lock, or {@code LOST}. The server then shows new sessions of the client and none
     * of the ended ones; {@code close()} returns within the release bound plus {@code B}, and within as long the
     * server shows no session of the client, old or new.
     */
    @Test
    @Timeout(90)
    @Diagnosis("A service that replaces its session or connection must still own every one it opened: close() ends "
            + "them all (the client's pool, its subscriber, a handle kept after a reconnection), and a lease that "
            + "lived in an ended session says LOST.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = Why.SESSION_WIDE)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§24.5 a session the server ends under a live service is replaced: the service keeps working, and "
            + "close() ends every session it ever had")
    default void replacedSessionsEndWithTheService() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.PARTITION);
        requireCapability(TckBackend.Capability.SESSIONS);
        Duration bound = releaseBound().plus(Checks.BOUND);
        String held = uniqueName("replaced-held");
        try (TcpProxy proxy = TcpProxy.inFrontOf(backend().uri())) {
            LockService client = openClient(proxy.rewrite(clientUri()));
            LockService other = openClient();
            Lease across = client.mutex(held).acquire(Checks.WAIT);
            List<TckBackend.Session> first = sessionsOf(proxy);
            long endedAt = System.nanoTime();
            first.forEach(backend()::endSession);
            // a client that reconnects on its own shows a new session before it is used again (one that
            // reconnects only when used shows none, and the wait ends at C)
            List<TckBackend.Session> reopened = Poll.settle(() -> sessionsOf(proxy),
                    now -> now.stream().anyMatch(s -> !first.contains(s)), crashReleaseBound());
            long reopenedAt = System.nanoTime();
            AtomicInteger refused = new AtomicInteger();
            LeaseState laterState;
            long servesAt;
            try (Lease later = Retrying.acquire(client.mutex(uniqueName("replaced-later")),
                    crashReleaseBound().plus(Checks.BOUND), refused)) {
                servesAt = System.nanoTime();
                laterState = later.state();
            }
            LeaseState acrossState = Poll.settle(across::state, s -> s != LeaseState.UNCERTAIN, crashReleaseBound());
            boolean otherGot = other.mutex(held).tryAcquire().map(lease -> {
                lease.release();
                return true;
            }).orElse(false);
            List<TckBackend.Session> second = sessionsOf(proxy);
            try {
                across.release();
            } catch (LockConnectionException e) {
                // a lease whose session ended: the server could not be told, and need not be
            }
            long closing = System.nanoTime();
            try {
                client.close();
            } catch (LockConnectionException e) {
                // allowed: close() is bounded, not silent
            }
            long closed = System.nanoTime();
            List<TckBackend.Session> left = Poll.settle(() -> sessionsOf(proxy), List::isEmpty, bound);
            figures("§24.5", "sessions of the client " + ids(first) + " ended; new ones " + ids(reopened) + " after "
                    + ms(reopenedAt - endedAt) + "; it served again " + ms(servesAt - endedAt) + " after the end ("
                    + refused + " refused acquisitions), with " + ids(second)
                    + "; the lease held across: " + acrossState + "; close() took " + ms(closed - closing)
                    + "; left after it: " + ids(left));
            assertAll(
                    () -> assertFalse(first.isEmpty(), "the server shows the client's sessions (connections from "
                            + proxy.upstreamAddresses() + "): " + backend().openSessions()),
                    () -> assertEquals(LeaseState.HELD, laterState, "the service serves after its sessions ended"),
                    () -> assertTrue(acrossState == LeaseState.LOST || acrossState == LeaseState.HELD && !otherGot,
                            "the lease held across is HELD with the lock still its own, or LOST: " + acrossState
                                    + (otherGot ? ", and another client acquired the lock" : "")),
                    () -> assertFalse(second.isEmpty(), "the server shows the service's new sessions"),
                    () -> assertTrue(second.stream().noneMatch(first::contains), "the ended sessions are gone: "
                            + ids(first) + " -> " + ids(second)),
                    () -> assertTrue(closed - closing <= bound.toNanos(), "close() took " + ms(closed - closing)
                            + ", more than the release bound plus B, " + bound.toMillis() + " ms"),
                    () -> assertEquals(List.of(), left, "within the release bound plus B of close(), the server "
                            + "shows no session the service had, before or after the replacement"));
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    /** Takes and releases a mutex, so that connections are open and scripts loaded before a clean run. */
    private void warmUp(LockService client) throws InterruptedException {
        client.mutex(uniqueName("warm-up")).acquire(Checks.WAIT).release();
    }

    /** @return the server's sessions whose connection comes from the proxy: the client's */
    private List<TckBackend.Session> sessionsOf(TcpProxy proxy) {
        return backend().openSessions().stream().filter(s -> proxy.upstreamAddresses().contains(s.peer()))
                .collect(Collectors.toList());
    }

    private static String ids(List<TckBackend.Session> sessions) {
        return sessions.stream().map(TckBackend.Session::id).collect(Collectors.joining(", ", "[", "]"));
    }

    private void lostCreateTrial(TcpProxy proxy, LockService client, LockService other, Traffic.Choice create,
                                 Duration wait, List<String> failures, List<String> figures)
            throws InterruptedException {
        String name = uniqueName("lost-create");
        String how = wait.isZero() ? "tryAcquire()" : "acquire(" + wait.toMillis() + " ms)";
        WireFault fault = proxy.arm(WireFault.dropResponse(create.operation(), create.nth()));
        long start = System.nanoTime();
        Lease lease = null;
        RuntimeException thrown = null;
        try {
            lease = wait.isZero() ? client.mutex(name).tryAcquire().orElse(null) : client.mutex(name).acquire(wait);
        } catch (RuntimeException e) {
            thrown = e;
        }
        long ended = System.nanoTime();
        if (!fault.hasStruck()) {
            failures.add(how + ": no answer to " + create + " came (the acquisition sent "
                    + Traffic.requests(proxy.traffic(), start, ended) + "), so nothing was struck");
        }
        if (thrown != null && !(thrown instanceof LockConnectionException || thrown instanceof LockTimeoutException)) {
            failures.add(how + " threw " + thrown + ", neither LockConnectionException nor LockTimeoutException");
        }
        String outcome = lease != null ? "a " + lease.state() + " lease" : thrown != null
                ? thrown.getClass().getSimpleName() : "empty";
        if (lease != null) {
            LeaseState state = lease.state();
            List<String> entries = Poll.settle(() -> backend().residue(name), r -> r.size() == 1, Checks.BOUND);
            boolean otherGot = other.mutex(name).tryAcquire().map(l -> {
                l.release();
                return true;
            }).orElse(false);
            lease.release();
            Duration afterRelease = releaseBound().plus(Checks.BOUND);
            List<String> left = Poll.settle(() -> backend().residue(name), List::isEmpty, afterRelease);
            if (state != LeaseState.HELD) {
                failures.add(how + " returned a lease that is " + state + ", not HELD");
            }
            if (entries.size() != 1) {
                failures.add(how + " holds, but the server shows " + entries + ", not its one entry (an orphan?)");
            }
            if (otherGot) {
                failures.add(how + " holds, and another client acquired the lock too");
            }
            if (!left.isEmpty()) {
                failures.add(how + ": after the release " + left + " is still there, "
                        + afterRelease.toMillis() + " ms on");
            }
            figures.add(how + ": " + outcome + " after " + ms(ended - start));
            return;
        }
        Duration bound = releaseBound().plus(Checks.BOUND);
        List<String> left = Poll.settle(() -> backend().residue(name), List::isEmpty, bound);
        long cleanAt = System.nanoTime();
        Optional<Lease> next = other.mutex(name).tryAcquire();
        next.ifPresent(Lease::release);
        if (!left.isEmpty()) {
            failures.add(how + " ended " + outcome + ", but " + left + " is still on the server "
                    + bound.toMillis() + " ms later (the release bound plus B): an orphan, which only the end of the "
                    + "session or lease would remove");
        } else if (next.isEmpty()) {
            failures.add(how + " ended " + outcome + " and left nothing, but another client cannot acquire the lock");
        }
        figures.add(how + ": " + outcome + " after " + ms(ended - start) + (left.isEmpty() ? ", nothing left "
                + ms(cleanAt - ended) + " later" : ", left " + left));
    }

    /** @return a skip that says which operation the provider did not send, after printing it as the figures */
    private NotApplicable notApplicable(String rule, String what) {
        String text = "provider '" + provider().name() + "' " + what + "; nothing to strike";
        figures(rule, text);
        return new NotApplicable(text);
    }

    private void figures(String rule, String text) {
        Figures.print(rule, provider().name(), leaseSpan(), text);
    }

    private String since(long from, long at) {
        return Figures.since(from, at, leaseSpan());
    }

    private static String ms(long nanos) {
        return nanos / 1_000_000 + " ms";
    }
}
