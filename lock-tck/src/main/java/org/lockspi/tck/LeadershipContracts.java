package org.lockspi.tck;

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

/**
 * §20 Leadership: leader election ({@link Leadership}) on the provider's fenced mutex. Participants are separate
 * clients (and a child JVM); each acts as a leader from its {@code elected} callback to its {@code stopLeading}
 * callback and reports those spans to a {@link FencedRegister}, whose overlaps are moments with two acting leaders.
 * Each rule that measures prints one line starting {@code [§20 figures]}, times as multiples of {@code T} (the
 * session timeout or lease time of {@link #clientUri()}).
 */
public interface LeadershipContracts extends TckContext {

    @Test
    @Timeout(60)
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

    @Test
    @Timeout(90)
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

    @Test
    @Timeout(90)
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

    @Test
    @Timeout(120)
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

    @Test
    @Timeout(60)
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

    @Test
    @Timeout(30)
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
