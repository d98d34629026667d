package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.leader.Leadership;
import org.lockspi.leader.NotLeaderException;
import org.lockspi.leader.Participant;
import org.lockspi.leader.StopReason;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.FencedRegister;
import org.lockspi.tck.internal.LeaderCalls;
import org.lockspi.tck.internal.LeaderCalls.Call;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.report.NotApplicable;
import org.lockspi.tck.support.TcpProxy;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.process.HolderMain;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §20 Leadership: leader election ({@link Leadership}) on the provider's fenced mutex. Participants are separate
 * clients (and a child JVM); each acts as a leader from its {@code elected} callback to its {@code stopLeading}
 * callback and reports those spans to a {@link FencedRegister}, whose overlaps are moments with two acting leaders.
 * Each rule that measures prints one line starting {@code [§20 figures]}, times as multiples of {@code T} (the
 * session timeout or lease time of {@link #clientUri()}).
 */
@Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = Why.ON_THE_MUTEX)
public interface LeadershipContracts extends TckContext {

    /**
     * Three participants (separate clients) join an election: exactly one is elected, and {@code participants()} names
     * the three. Closing the leader ends its term before {@code close()} returns ({@code checkValid()} throws
     * {@code NotLeaderException}), its listener is told {@code CLOSED} before anyone else is elected, and another
     * participant is elected with a greater token; three rounds. No two acting spans overlap, no stale write is
     * accepted, and closed participants are no longer listed.
     */
    @Test
    @Timeout(60)
    @Diagnosis("Leadership is the engine's, built on the mutex: the provider fails here where its mutex fails, by a "
            + "grant to a second participant (§3.1), tokens that do not grow (§13.1), or a close that does not free "
            + "the leader lock and the registration (LockBackend.close, §8.4).")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @Inapplicable(shapes = {ONE_WAITER, MIXED_KINDS}, reason = "the participants queue for the leader's mutex")
    @DisplayName("§20.1 one participant of three leads; closing the leader elects another, with a greater token, and "
            + "no two act at once")
    default void oneLeaderAmongParticipants() throws InterruptedException {
        requireLeadership();
        String election = uniqueName("election");
        try (FencedRegister register = new FencedRegister(); LeaderCalls calls = new LeaderCalls(register)) {
            List<Participant> ps = new ArrayList<>();
            for (String id : List.of("p1", "p2", "p3")) {
                ps.add(calls.join(openClient(), election, id));
            }
            LockService asker = openClient();
            Poll.until("participants of '" + election + "' joined", Set.of("p1", "p2", "p3"),
                    () -> Leadership.participants(asker, election, List.of("p1", "p2", "p3", "nobody")),
                    Checks.WAIT);
            long previous = Long.MIN_VALUE;
            for (int round = 0; round < 3; round++) {
                Call elected = calls.next(Checks.WAIT);
                assertTrue(elected.elected(), "an election comes first: " + calls.history());
                assertTrue(elected.term().fencingToken() > previous, "each term's token is greater: "
                        + calls.history());
                previous = elected.term().fencingToken();
                Participant leader = ps.stream().filter(p -> p.id().equals(elected.client())).findFirst()
                        .orElseThrow();
                for (Participant p : ps) {
                    assertEquals(p == leader, p.isLeader(), "exactly one leads: " + p.id() + "; "
                            + calls.history());
                }
                assertEquals(elected.term(), leader.currentTerm().orElseThrow());
                leader.close();
                assertFalse(elected.term().isActive(), "close ends the term before it returns");
                assertThrows(NotLeaderException.class, elected.term()::checkValid);
                Call stop = calls.next(Checks.WAIT);
                assertEquals(elected.client() + " stop #" + previous + " CLOSED", stop.toString(),
                        "the closed leader is told, before anyone else is elected: " + calls.history());
                ps.remove(leader);
            }
            assertAll(
                    () -> assertEquals(List.of(), register.overlaps(), "no two leaders acted at once"),
                    () -> assertEquals(List.of(), register.acceptedStaleWrites(), "no stale write accepted"),
                    () -> assertEquals(Set.of(), Leadership.participants(asker, election, List.of("p1", "p2", "p3")),
                            "closed participants are no longer joined"));
        }
    }

    /**
     * (CRASH_RELEASE, OTHER_PROCESSES) A child JVM leads and two participants here have joined (listed by
     * {@code participants()}); the child is killed with {@code SIGKILL}. A participant here is elected within {@code C}
     * ({@link #crashReleaseBound()}) of the kill with a greater token, and no two acting spans overlap.
     */
    @Test
    @Timeout(90)
    @Diagnosis("The dead leader's mutex must be freed within C (see §11.1: ephemeral nodes, keys with a TTL), and a "
            + "waiting participant must notice it: a watch, or a poll whose back-off stays well under the bound.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @Inapplicable(shapes = {ONE_WAITER, MIXED_KINDS}, reason = "the participants queue for the leader's mutex")
    @DisplayName("§20.2 a leader killed with SIGKILL is replaced within the crash-release bound, by a term with a "
            + "greater token")
    default void killedLeaderIsReplaced() throws InterruptedException {
        requireLeadership();
        requireFeature(LockFeature.CRASH_RELEASE);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        String election = uniqueName("election-kill");
        try (FencedRegister register = new FencedRegister(); LeaderCalls calls = new LeaderCalls(register);
             ChildJvm child = ChildJvm.start(HolderMain.class, "lead", clientUri(), provider().name(), election,
                     "child", Integer.toString(register.port()))) {
            String elected = child.awaitLine(Duration.ofSeconds(60), "ELECTED ", "ERROR");
            assertTrue(elected.startsWith("ELECTED "), () -> elected + child.stderrTail());
            long childToken = Long.parseLong(elected.substring("ELECTED ".length()));
            calls.join(openClient(), election, "p1");
            calls.join(openClient(), election, "p2");
            LockService asker = openClient();
            Poll.until("participants of '" + election + "' joined", Set.of("child", "p1", "p2"),
                    () -> Leadership.participants(asker, election, List.of("child", "p1", "p2")), Checks.WAIT);
            assertEquals(null, calls.poll(Duration.ZERO), "nobody here leads while the child does");

            child.kill();
            long killedAt = System.nanoTime();
            register.ended("child", childToken, "KILLED");
            Call next = calls.next(crashReleaseBound().plus(Checks.BOUND));
            figures("§20.2", "SIGKILL of the leader -> " + next.client() + " elected " + since(killedAt, next.at())
                    + "; tokens " + childToken + " -> " + next.term().fencingToken());
            assertAll(
                    () -> assertTrue(next.elected(), "a participant here is elected: " + calls.history()),
                    () -> assertTrue(next.term().fencingToken() > childToken, "a greater token: " + childToken
                            + " -> " + next.term().fencingToken()),
                    () -> assertTrue(next.at() - killedAt <= crashReleaseBound().toNanos(), "elected within the "
                            + "crash-release bound " + crashReleaseBound().toMillis() + " ms of the kill"),
                    () -> assertEquals(List.of(), register.overlaps(), "no two leaders acted at once"));
        }
    }

    /**
     * (FORCE_LOSS) A participant leads and another has joined; {@code forceLoss} of the leader lock ends the leader's
     * claim on the server. The leader is told {@code UNCERTAIN} or {@code LOST} and a new term begins, each callback
     * within {@code C} + 2 s, with a greater token; the old term stays ended and its late write is refused. Closing the
     * new leader elects the other participant with a greater token; no stale write is accepted.
     */
    @Test
    @Timeout(90)
    @Diagnosis("The client must learn of the loss at its next contact and report it (leaseLost, or "
            + "connectionSuspended first): ZooKeeper at session expiry, Redis when a renewal finds the key gone. Its "
            + "next LockBackend.acquire must then succeed (see §12.5).")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @Inapplicable(shapes = {ONE_WAITER, MIXED_KINDS}, reason = "the participants queue for the leader's mutex")
    @DisplayName("§20.3 a leader whose session the server ends stops leading, the next term has a greater token, "
            + "the old leader's late write is refused, and both participants keep taking part")
    default void leaderWithLostSessionStopsAndRejoins() throws InterruptedException {
        requireLeadership();
        requireCapability(TckBackend.Capability.FORCE_LOSS);
        String election = uniqueName("election-loss");
        Duration bound = crashReleaseBound().plus(Checks.BOUND);
        try (FencedRegister register = new FencedRegister(); LeaderCalls calls = new LeaderCalls(register)) {
            List<Participant> ps = new ArrayList<>();
            ps.add(calls.join(openClient(), election, "old"));
            Call first = calls.next(Checks.WAIT);
            assertEquals("old elected", first.client() + " " + first.what());
            ps.add(calls.join(openClient(), election, "other"));
            LockService asker = openClient();
            Poll.until("participants of '" + election + "' joined", Set.of("old", "other"),
                    () -> Leadership.participants(asker, election, List.of("old", "other")), Checks.WAIT);

            // ZooKeeper: the sessions of the holder and of the waiters end; Redis: the key goes
            backend().forceLoss(Leadership.leaderLockName(election));
            long lossAt = System.nanoTime();
            Call stop = null;
            Call next = null;
            while (stop == null || next == null) {
                Call c = calls.next(bound);
                if (c.term() == first.term() && !c.elected()) {
                    stop = c;
                } else if (c.elected() && next == null) {
                    next = c;
                } else {
                    throw new AssertionError("unexpected callback " + c + "; so far: " + calls.history());
                }
            }
            long oldToken = first.term().fencingToken();
            boolean lateWrite = register.write("old", oldToken);
            Call stopped = stop;
            Call nextTerm = next;
            figures("§20.3", "forceLoss -> old leader stops " + since(lossAt, stop.at()) + " (" + stop.reason()
                    + "), -> " + next.client() + " elected " + since(lossAt, next.at()) + "; tokens " + oldToken
                    + " -> " + next.term().fencingToken());

            Participant leader = ps.stream().filter(p -> p.id().equals(nextTerm.client())).findFirst().orElseThrow();
            leader.close(); // the other participant, whose session may have ended too, is elected next
            Call closed = calls.next(Checks.WAIT);
            Call again = calls.next(bound);
            String remaining = nextTerm.client().equals("old") ? "other" : "old";
            assertAll(
                    () -> assertTrue(Set.of(StopReason.UNCERTAIN, StopReason.LOST).contains(stopped.reason()),
                            "the old leader stops for UNCERTAIN or LOST: " + stopped),
                    () -> assertFalse(first.term().isActive(), "the old term stays ended"),
                    () -> assertNotEquals(first.term(), nextTerm.term(), "a new term"),
                    () -> assertTrue(nextTerm.term().fencingToken() > oldToken, "a greater token"),
                    () -> assertFalse(lateWrite, "the old leader's late write is refused: " + register.writes()),
                    () -> assertEquals(nextTerm.client() + " stop #" + nextTerm.term().fencingToken() + " CLOSED",
                            closed.toString()),
                    () -> assertEquals(remaining + " elected", again.client() + " " + again.what(),
                            "the remaining participant takes part still: " + calls.history()),
                    () -> assertTrue(again.term().fencingToken() > nextTerm.term().fencingToken(),
                            "its new term has a greater token"),
                    () -> assertEquals(List.of(), register.acceptedStaleWrites(), "no stale write accepted"));
        }
    }

    /**
     * (PARTITION, ENDS_SILENT_SESSIONS) The leader's client goes through the proxy, the other participant's directly;
     * the proxy black-holes. The first callback is the cut-off leader's stop for {@code UNCERTAIN}, within {@code C} +
     * 10 s, and the next the other's election, within {@code C} + 10 s after it, with a greater token; no two acting
     * spans overlap and no stale write is accepted. After the heal, closing the new leader elects the cut-off
     * participant again with a greater token.
     */
    @Test
    @Timeout(120)
    @Diagnosis("The cut-off leader must stop at UNCERTAIN, when BackendLease.confirmedUntilNanos() runs out (about "
            + "half the session or lease time), before validUntilNanos() lets the server free the lock; after the "
            + "heal it must reconnect and acquire anew (see §18.1).")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @Inapplicable(shapes = {ONE_WAITER, MIXED_KINDS}, reason = "the participants queue for the leader's mutex")
    @DisplayName("§20.4 a leader cut off from the server by a partition stops leading before another participant "
            + "is elected: never two acting leaders; after the heal it rejoins")
    default void partitionedLeaderStopsBeforeAnotherIsElected() throws InterruptedException {
        requireLeadership();
        requireCapability(TckBackend.Capability.PARTITION);
        requireCapability(TckBackend.Capability.ENDS_SILENT_SESSIONS);
        String election = uniqueName("election-cut");
        Duration bound = crashReleaseBound().plusSeconds(10);
        try (FencedRegister register = new FencedRegister(); LeaderCalls calls = new LeaderCalls(register);
             TcpProxy proxy = TcpProxy.inFrontOf(backend().uri())) {
            calls.join(openClient(proxy.rewrite(clientUri())), election, "cut-off");
            Call first = calls.next(Checks.WAIT);
            assertEquals("cut-off elected", first.client() + " " + first.what());
            Participant other = calls.join(openClient(), election, "other");
            LockService asker = openClient();
            Poll.until("participants of '" + election + "' joined", Set.of("cut-off", "other"),
                    () -> Leadership.participants(asker, election, List.of("cut-off", "other")), Checks.WAIT);

            proxy.blackHole(true);
            long cutAt = System.nanoTime();
            Call stop = calls.next(bound);
            Call elected = calls.next(bound);
            proxy.heal();
            figures("§20.4", "cut -> leader stops " + since(cutAt, stop.at()) + " (" + stop.reason()
                    + "), -> other elected " + since(cutAt, elected.at()) + "; tokens "
                    + first.term().fencingToken() + " -> " + elected.term().fencingToken());
            other.close();
            Call closed = calls.next(Checks.WAIT);
            Call again = calls.next(bound);
            assertAll(
                    () -> assertEquals("cut-off stop UNCERTAIN", stop.client() + " " + stop.what() + " "
                            + stop.reason(), "the cut-off leader stops at UNCERTAIN, first: " + calls.history()),
                    () -> assertEquals("other elected", elected.client() + " " + elected.what(), calls.history()
                            .toString()),
                    () -> assertTrue(elected.term().fencingToken() > first.term().fencingToken(), "a greater token"),
                    () -> assertEquals(List.of(), register.overlaps(), "no two leaders acted at once"),
                    () -> assertEquals(List.of(), register.acceptedStaleWrites(), "no stale write accepted"),
                    () -> assertEquals("other stop", closed.client() + " " + closed.what()),
                    () -> assertEquals("cut-off elected", again.client() + " " + again.what(),
                            "the cut-off participant rejoined after the heal: " + calls.history()),
                    () -> assertTrue(again.term().fencingToken() > elected.term().fencingToken(),
                            "its new term has a greater token"));
        }
    }

    /**
     * Participant a leads and b has joined; b's {@code stepDown()} returns false. a's {@code stepDown()} returns true
     * and ends its term before it returns; a is told {@code STEPPED_DOWN}, then b is elected with a greater token; when
     * b steps down, a leads again with a greater token still (a asks again 1 s after its step-down, b after 5 s). Each
     * callback comes within 11 s, and no two acting spans overlap.
     */
    @Test
    @Timeout(60)
    @Diagnosis("A step-down is the engine releasing the leader mutex: a BackendLease.release that does not free the "
            + "lock at once, or a waiter that the release does not wake (no watch or wake-up, a poll near 5 s), "
            + "delays the hand-over.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @Inapplicable(shapes = {ONE_WAITER, MIXED_KINDS}, reason = "the participants queue for the leader's mutex")
    @DisplayName("§20.5 a leader that steps down is told at once and another participant is elected; the one that "
            + "stepped down leads again when that one steps down")
    default void stepDownHandsOver() throws InterruptedException {
        requireLeadership();
        String election = uniqueName("election-step");
        try (FencedRegister register = new FencedRegister(); LeaderCalls calls = new LeaderCalls(register)) {
            // a asks again 1 s after its step-down (longer than a polling waiter's pause), b only after 5 s: so b
            // takes over from a, and a from b, on providers without FIFO waiting too
            Participant a = calls.join(openClient(), election, "a", Duration.ofSeconds(1));
            Call first = calls.next(Checks.WAIT);
            assertEquals("a elected", first.client() + " " + first.what());
            Participant b = calls.join(openClient(), election, "b", Duration.ofSeconds(5));
            LockService asker = openClient();
            Poll.until("participants of '" + election + "' joined", Set.of("a", "b"),
                    () -> Leadership.participants(asker, election, List.of("a", "b")), Checks.WAIT);
            assertFalse(b.stepDown(), "a participant that does not lead has nothing to step down from");

            long stepAt = System.nanoTime();
            assertTrue(a.stepDown());
            assertFalse(a.isLeader(), "stepDown ends the term before it returns");
            assertFalse(first.term().isActive());
            Duration wait = Duration.ofSeconds(1).plus(Checks.WAIT);
            Call stopA = calls.next(wait);
            Call electedB = calls.next(wait);
            assertTrue(b.stepDown());
            Call stopB = calls.next(wait);
            Call electedA = calls.next(wait);
            figures("§20.5", "step down -> b elected " + since(stepAt, electedB.at()));
            assertAll(
                    () -> assertEquals(List.of("a stop #" + first.term().fencingToken() + " STEPPED_DOWN",
                            "b elected", "b stop STEPPED_DOWN", "a elected"),
                            List.of(stopA.toString(), electedB.client() + " " + electedB.what(),
                                    stopB.client() + " " + stopB.what() + " " + stopB.reason(),
                                    electedA.client() + " " + electedA.what()), calls.history().toString()),
                    () -> assertTrue(electedB.term().fencingToken() > first.term().fencingToken()),
                    () -> assertTrue(electedA.term().fencingToken() > electedB.term().fencingToken()),
                    () -> assertEquals(List.of(), register.overlaps(), "no two leaders acted at once"));
        }
    }

    /**
     * For a provider that lacks REENTRANT_MUTEX, FENCING_TOKENS or LOST_NOTIFICATION, {@code Leadership.join} throws
     * {@code UnsupportedOperationException} whose message names the missing features. A provider that declares all
     * three has nothing to check here: the rule is not applicable.
     */
    @Test
    @Timeout(30)
    @Diagnosis("The refusal is the engine's (Leadership.join reads the service's features, taken from "
            + "LockProvider.features() at open); a failure means features() changes between calls, or the lock-api on "
            + "the class path is not the kit's.")
    @Covers(kinds = {})
    @Inapplicable(kinds = MUTEX, reason = "about the absence of the leader's features: Leadership refuses to join")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§20.6 without REENTRANT_MUTEX, FENCING_TOKENS or LOST_NOTIFICATION a join throws "
            + "UnsupportedOperationException naming what is missing")
    default void leadershipNeedsItsFeatures() {
        Set<LockFeature> missing = EnumSet.of(LockFeature.REENTRANT_MUTEX, LockFeature.FENCING_TOKENS,
                LockFeature.LOST_NOTIFICATION);
        missing.removeAll(provider().features());
        if (missing.isEmpty()) {
            throw new NotApplicable("provider '" + provider().name() + "' declares REENTRANT_MUTEX, FENCING_TOKENS and "
                    + "LOST_NOTIFICATION");
        }
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> Leadership.join(openClient(), uniqueName("election"), "p", new LeaderCalls(null)
                        .listener("p")));
        assertTrue(e.getMessage().contains(missing.toString()), "names " + missing + ": " + e.getMessage());
    }

    private void requireLeadership() {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.LOST_NOTIFICATION);
    }

    /** Prints one line of measured times. */
    private void figures(String rule, String text) {
        System.out.println("[§20 figures] " + rule + " provider '" + provider().name() + "', T="
                + leaseSpan().toMillis() + " ms: " + text);
    }

    private String since(long from, long at) {
        long ms = (at - from) / 1_000_000;
        return ms + " ms" + String.format(Locale.ROOT, " (%.2f T)", (double) ms / leaseSpan().toMillis());
    }
}
