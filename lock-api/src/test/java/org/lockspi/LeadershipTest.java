package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockspi.fixture.MemoryBackend;
import org.lockspi.fixture.MemoryBackend.MemoryLease;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.leader.LeaderListener;
import org.lockspi.leader.Leadership;
import org.lockspi.leader.NotLeaderException;
import org.lockspi.leader.Participant;
import org.lockspi.leader.StopReason;
import org.lockspi.leader.Term;

/**
 * Leader election on the engine and the in-memory backend: one leader, terms that end at UNCERTAIN and never come
 * back, step-down, close, the callbacks' thread, argument and feature checks, and the participants probe.
 */
class LeadershipTest extends EngineTestBase {
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    private static final String ELECTION = "jobs/scheduler";
    private final List<Participant> participants = new ArrayList<>();

    /** What a listener was told, in order, with the thread that told it. */
    static class Calls implements LeaderListener {
        record Call(String what, Term term, StopReason reason, String thread) {
        }

        final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
        final AtomicInteger inside = new AtomicInteger();
        volatile boolean overlapped;

        @Override
        public void elected(Term term) {
            record("elected", term, null);
        }

        @Override
        public void stopLeading(Term term, StopReason reason) {
            record("stop", term, reason);
        }

        private void record(String what, Term term, StopReason reason) {
            if (inside.incrementAndGet() != 1) {
                overlapped = true;
            }
            calls.add(new Call(what, term, reason, Thread.currentThread().getName()));
            inside.decrementAndGet();
        }

        Call take(String what) throws InterruptedException {
            Call c = calls.poll(5, TimeUnit.SECONDS);
            if (c == null) {
                throw new AssertionError("no " + what + " call within 5 s");
            }
            assertEquals(what, c.what, c.toString());
            return c;
        }

        Term elected() throws InterruptedException {
            return take("elected").term;
        }

        void expectStop(Term term, StopReason reason) throws InterruptedException {
            Call c = take("stop");
            assertSame(term, c.term);
            assertEquals(reason, c.reason);
        }

        void expectNothing(long ms) throws InterruptedException {
            Call c = calls.poll(ms, TimeUnit.MILLISECONDS);
            assertNull(c, () -> "unexpected call " + c);
        }
    }

    @AfterEach
    void closeParticipants() {
        participants.forEach(Participant::close);
    }

    private Participant join(LockService s, String id, LeaderListener l) {
        Participant p = Leadership.builder(s, ELECTION, id).listener(l).rejoinDelay(Duration.ofMillis(100)).join();
        participants.add(p);
        return p;
    }

    private static MemoryLease leaderLease(MemoryBackend b) {
        List<MemoryLease> granted = b.granted();
        for (int i = granted.size() - 1; i >= 0; i--) {
            if (granted.get(i).request.name().equals(Leadership.leaderLockName(ELECTION))) {
                return granted.get(i);
            }
        }
        throw new AssertionError("no leader lease granted");
    }

    @Test
    void oneOfThreeLeadsAndClosingTheLeaderElectsAnotherWithAGreaterToken() throws Exception {
        Calls a = new Calls();
        Calls b = new Calls();
        Calls c = new Calls();
        Participant pa = join(service, "a", a);
        Term first = a.elected();
        Participant pb = join(otherClient(), "b", b);
        Participant pc = join(otherClient(), "c", c);
        backend.server().awaitWaiting(2); // b and c wait for the leader lock

        assertTrue(pa.isLeader());
        assertFalse(pb.isLeader());
        assertFalse(pc.isLeader());
        assertEquals(Optional.empty(), pb.currentTerm());
        assertEquals(Optional.of(first), pa.currentTerm());
        assertEquals("a", first.participantId());
        assertEquals(ELECTION, first.election());
        assertEquals(leaderLease(backend).fencingToken(), first.fencingToken());
        assertTrue(first.isActive());
        first.checkValid();
        assertEquals(ChronoUnit.FOREVER.getDuration(), first.validFor());
        assertEquals(Optional.empty(), first.stopReason());
        assertEquals(1, backend.server().holderCount(Leadership.leaderLockName(ELECTION)));

        pa.close();
        assertFalse(first.isActive(), "closing ends the term before close returns");
        a.expectStop(first, StopReason.CLOSED);
        assertEquals(Optional.of(StopReason.CLOSED), first.stopReason());
        NotLeaderException e = assertThrows(NotLeaderException.class, first::checkValid);
        assertEquals(StopReason.CLOSED, e.reason());
        assertEquals("participant 'a' of election 'jobs/scheduler' no longer leads (term with token "
                + first.fencingToken() + "): CLOSED", e.getMessage());
        assertEquals(Duration.ZERO, first.validFor());
        assertEquals(0, backend.server().holderCount(Leadership.participantLockName(ELECTION, "a")),
                "close releases the registration");

        Calls next = waitForElected(b, c);
        Term second = next.elected();
        assertTrue(second.fencingToken() > first.fencingToken(), first + " then " + second);
        Participant leader = second.participantId().equals("b") ? pb : pc;
        Participant standby = leader == pb ? pc : pb;
        assertTrue(leader.isLeader());
        assertFalse(standby.isLeader());
        assertFalse(a.overlapped || b.overlapped || c.overlapped);
        a.expectNothing(50);
    }

    /** @return the listener of the two that was told first, its call left in its queue */
    private static Calls waitForElected(Calls x, Calls y) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() - deadline < 0) {
            if (!x.calls.isEmpty()) {
                return x;
            }
            if (!y.calls.isEmpty()) {
                return y;
            }
            Thread.sleep(5); // two queues, no common event: look at both until one has a call
        }
        throw new AssertionError("neither participant was elected within 5 s");
    }

    private static String threadOf(Participant p) {
        return "lockspi-leader-" + p.election() + "-" + p.id();
    }

    @Test
    void anUncertainLeaseEndsTheTermAtOnceAndTheTermDoesNotComeBackWhenTheLeaseIsHeldAgain() throws Exception {
        CountDownLatch electedMayReturn = new CountDownLatch(1);
        Calls calls = new Calls() {
            @Override
            public void elected(Term term) {
                super.elected(term);
                try {
                    electedMayReturn.await(); // a slow callback: the term must end without its help
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        Participant p = join(service, "a", calls);
        Term first = calls.elected();
        MemoryLease lease = leaderLease(backend);

        backend.events().connectionSuspended();
        assertFalse(first.isActive(), "UNCERTAIN ends the term at once");
        assertFalse(p.isLeader());
        NotLeaderException e = assertThrows(NotLeaderException.class, first::checkValid);
        assertEquals(StopReason.UNCERTAIN, e.reason());
        backend.events().connectionRestored(); // the lease is HELD again ...
        assertFalse(first.isActive(), "... but its term stays ended");
        assertEquals(Optional.of(StopReason.UNCERTAIN), first.stopReason());

        electedMayReturn.countDown();
        calls.expectStop(first, StopReason.UNCERTAIN);
        Term second = calls.elected(); // a new acquisition, a new term
        assertTrue(lease.releases.get() > 0, "the old lease was released before the new acquisition");
        assertTrue(second.fencingToken() > first.fencingToken());
        assertTrue(p.isLeader());
        assertSame(second, p.currentTerm().orElseThrow());
    }

    @Test
    void anOverdueConfirmationEndsTheTermWithoutAnyEvent() throws Exception {
        Calls calls = new Calls();
        Participant p = join(service, "a", calls);
        Term first = calls.elected();
        long now = System.nanoTime();
        backend.deadlines(leaderLease(backend), now - 1, now + HOUR); // only the clock says so

        assertFalse(first.isActive());
        assertFalse(p.currentTerm().equals(Optional.of(first)), "the term is no longer current");
        calls.expectStop(first, StopReason.UNCERTAIN);
        Term second = calls.elected();
        assertTrue(second.fencingToken() > first.fencingToken());
    }

    @Test
    void aLostLeaseEndsTheTermAndAnotherParticipantIsElected() throws Exception {
        // a asks again as soon as its stopLeading returns; the memory server is not FIFO, so a holds that call open
        // until b is elected (else a's new request could beat b's wake-up on a busy machine)
        CountDownLatch bElected = new CountDownLatch(1);
        Calls a = new Calls() {
            @Override
            public void stopLeading(Term term, StopReason reason) {
                super.stopLeading(term, reason);
                try {
                    bElected.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        Calls b = new Calls();
        join(service, "a", a);
        Term first = a.elected();
        LockService other = otherClient();
        MemoryBackend otherBackend = provider.lastBackend();
        Participant pb = join(other, "b", b);
        otherBackend.awaitRequests(2); // its registration and its leader request

        backend.lose(leaderLease(backend));
        a.expectStop(first, StopReason.LOST);
        Term second = b.elected();
        bElected.countDown();
        assertTrue(pb.isLeader());
        assertTrue(second.fencingToken() > first.fencingToken());
        assertFalse(a.overlapped || b.overlapped);
    }

    @Test
    void stepDownHandsOverAndTheSteppedDownParticipantRejoins() throws Exception {
        Calls a = new Calls();
        Calls b = new Calls();
        Participant pa = join(service, "a", a);
        Term first = a.elected();
        Participant pb = join(otherClient(), "b", b);
        backend.server().awaitWaiting(1);
        assertFalse(pb.stepDown(), "a participant that does not lead has nothing to step down from");

        assertTrue(pa.stepDown());
        assertFalse(first.isActive(), "stepDown ends the term before it returns");
        assertFalse(pa.isLeader());
        assertFalse(pa.stepDown(), "twice is nothing");
        a.expectStop(first, StopReason.STEPPED_DOWN);
        Term second = b.elected();
        assertTrue(second.fencingToken() > first.fencingToken());

        pb.close(); // the stepped-down participant asked again: it is elected
        b.expectStop(second, StopReason.CLOSED);
        Term third = a.elected();
        assertTrue(third.fencingToken() > second.fencingToken());
        assertFalse(pa.isClosed());
        assertTrue(pb.isClosed());
    }

    @Test
    void callbacksRunOneAtATimeOnTheParticipantsThreadAndCloseFromACallbackWorks() throws Exception {
        CompletableFuture<Participant> joined = new CompletableFuture<>();
        Calls calls = new Calls() {
            @Override
            public void elected(Term term) {
                super.elected(term);
                joined.join().close(); // from the callback: returns at once, the term ends
            }
        };
        Participant p = join(service, "a", calls);
        joined.complete(p);
        Calls.Call elected = calls.calls.poll(5, TimeUnit.SECONDS);
        assertEquals("elected", elected.what());
        Calls.Call stop = calls.calls.poll(5, TimeUnit.SECONDS);
        assertEquals(StopReason.CLOSED, stop.reason());
        assertEquals(threadOf(p), elected.thread());
        assertEquals(threadOf(p), stop.thread());
        assertTrue(p.isClosed());
        p.close(); // idempotent
        awaitHolders(Leadership.leaderLockName(ELECTION), 0);
        awaitHolders(Leadership.participantLockName(ELECTION, "a"), 0);
        assertFalse(calls.overlapped);
    }

    @Test
    void closingTheServiceEndsTheTermAndTheParticipant() throws Exception {
        Calls calls = new Calls();
        LockService s = otherClient();
        Participant p = join(s, "a", calls);
        Term term = calls.elected();
        s.close();
        assertFalse(term.isActive());
        calls.expectStop(term, StopReason.CLOSED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!p.isClosed() && System.nanoTime() - deadline < 0) {
            Thread.sleep(5); // the participant notices on its next look at the service: no event for it
        }
        assertTrue(p.isClosed());
    }

    @Test
    void aSecondParticipantWithTheSameIdWaitsUntilTheFirstLeaves() throws Exception {
        Calls first = new Calls();
        Calls twin = new Calls();
        Participant p1 = join(service, "a", first);
        Term term = first.elected();
        LockService other = otherClient();
        join(other, "a", twin);
        backend.server().awaitWaiting(1); // the twin waits for the registration, not the leader lock
        assertEquals(Set.of("a"), Leadership.participants(otherClient(), ELECTION, List.of("a", "b")));

        p1.close();
        first.expectStop(term, StopReason.CLOSED);
        Term twinTerm = twin.elected();
        assertTrue(twinTerm.fencingToken() > term.fencingToken());
    }

    @Test
    void participantsTellsWhichOfTheGivenIdsAreJoined() throws Exception {
        Calls a = new Calls();
        Participant pa = join(service, "a", a);
        a.elected();
        join(otherClient(), "b", new Calls());
        backend.server().awaitWaiting(1);
        LockService asker = otherClient();

        assertEquals(List.of("b", "a"), new ArrayList<>(Leadership.participants(asker, ELECTION,
                List.of("b", "x", "a"))));
        pa.close();
        assertEquals(Set.of("b"), Leadership.participants(asker, ELECTION, List.of("a", "b", "x")));
        assertEquals(Set.of(), Leadership.participants(asker, ELECTION, List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> Leadership.participants(asker, ELECTION, List.of("")));
    }

    @Test
    void anyElectionAndIdWorkAndDerivedNamesStayApart() throws Exception {
        String election = "tenant:acme/jobs#1";
        Calls a = new Calls();
        Calls b = new Calls();
        Participant pa = Leadership.builder(service, election, "node 1/a").listener(a).join();
        participants.add(pa);
        Term first = a.elected();
        assertEquals(election, first.election());
        assertEquals("node 1/a", first.participantId());
        Participant pb = Leadership.builder(otherClient(), election, "node 1").listener(b).join();
        participants.add(pb);
        backend.server().awaitWaiting(1); // "node 1" is another id: it registers and waits for the leader lock
        assertEquals(Set.of("node 1/a", "node 1"), Leadership.participants(otherClient(), election,
                List.of("node 1/a", "node 1", "node 1/b")));

        assertEquals("tenant:acme/jobs#1/leader", Leadership.leaderLockName(election));
        assertEquals("tenant:acme/jobs#1/participants/~bm9kZSAxL2E", Leadership.participantLockName(election,
                "node 1/a"));
        assertEquals("jobs/scheduler/participants/node-1", Leadership.participantLockName(ELECTION, "node-1"),
                "readable ids are not encoded");
        // an id with '/' cannot reach into another election's names
        assertEquals("a/participants/~Yi9wYXJ0aWNpcGFudHMvYw", Leadership.participantLockName("a",
                "b/participants/c"));
        assertEquals(1, backend.server().holderCount(
                org.lockspi.spi.LockKeys.key(Leadership.leaderLockName(election))));

        pa.close();
        a.expectStop(first, StopReason.CLOSED);
        assertTrue(b.elected().fencingToken() > first.fencingToken());
    }

    @Test
    void aParticipantThatSteppedDownAsksAgainOnlyAfterItsRejoinDelay() throws Exception {
        Calls calls = new Calls();
        Participant p = Leadership.builder(service, ELECTION, "a").listener(calls)
                .rejoinDelay(Duration.ofMillis(300)).join();
        participants.add(p);
        Term first = calls.elected();
        long steppedDown = System.nanoTime();
        assertTrue(p.stepDown());
        calls.expectStop(first, StopReason.STEPPED_DOWN);
        Term second = calls.elected(); // nobody else: it leads again, after the delay
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - steppedDown);
        assertTrue(waited >= 300, "asked again after " + waited + " ms, before the rejoin delay of 300 ms");
        assertTrue(second.fencingToken() > first.fencingToken());
    }

    @Test
    void aListenerThatThrowsIsLoggedAndTheParticipantGoesOn() throws Exception {
        Calls calls = new Calls() {
            @Override
            public void elected(Term term) {
                super.elected(term);
                throw new IllegalStateException("the leader's work failed to start");
            }
        };
        Participant p = join(service, "a", calls);
        Term term = calls.elected();
        assertTrue(p.isLeader(), "a failing callback does not end the term");
        assertTrue(p.stepDown());
        calls.expectStop(term, StopReason.STEPPED_DOWN);
    }

    @Test
    void participantsFromTheParticipantsOwnCallbackFindsItself() throws Exception {
        CompletableFuture<Set<String>> seen = new CompletableFuture<>();
        Calls calls = new Calls() {
            @Override
            public void elected(Term term) {
                super.elected(term);
                seen.complete(Leadership.participants(service, ELECTION, List.of("a", "b")));
            }
        };
        join(service, "a", calls);
        calls.elected();
        assertEquals(Set.of("a"), seen.get(5, TimeUnit.SECONDS));
        assertEquals(1, backend.server().holderCount(Leadership.participantLockName(ELECTION, "a")),
                "the probe left the registration held");
    }

    @Test
    void badArgumentsAndMissingFeaturesFailAtOnce() {
        LeaderListener l = new Calls();
        assertThrows(NullPointerException.class, () -> Leadership.join(null, ELECTION, "a", l));
        assertThrows(NullPointerException.class, () -> Leadership.join(service, null, "a", l));
        assertThrows(NullPointerException.class, () -> Leadership.join(service, ELECTION, null, l));
        assertThrows(NullPointerException.class, () -> Leadership.join(service, ELECTION, "a", null));
        IllegalArgumentException id = assertThrows(IllegalArgumentException.class,
                () -> Leadership.join(service, ELECTION, "", l));
        assertEquals("participant id is no valid lock name: lock name is empty", id.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Leadership.join(service, ELECTION, "a\ud800", l));
        assertEquals("election name is empty", assertThrows(IllegalArgumentException.class,
                () -> Leadership.join(service, "", "x", l)).getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> Leadership.join(service, "e".repeat(4090), "x", l));
        assertTrue(name.getMessage().startsWith("election 'eee") && name.getMessage().contains(
                "' with participant 'x' gives no valid lock name: lock name longer than 4096 UTF-8 bytes"),
                name.getMessage());
        IllegalArgumentException delay = assertThrows(IllegalArgumentException.class,
                () -> Leadership.builder(service, ELECTION, "a").rejoinDelay(Duration.ofMillis(-1)));
        assertTrue(delay.getMessage().endsWith(": PT-0.001S"), delay.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Leadership.builder(service, ELECTION, "a").rejoinDelay(Duration.ofHours(2)));

        EnumSet<LockFeature> some = EnumSet.allOf(LockFeature.class);
        some.remove(LockFeature.FENCING_TOKENS);
        LockService noTokens = Locks.open("mem://engine/test", new MemoryProvider("no-tokens", Set.of("mem"), 0,
                some));
        try {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> Leadership.join(noTokens, ELECTION, "a", l));
            assertTrue(e.getMessage().contains("provider 'no-tokens' lacks [FENCING_TOKENS]"), e.getMessage());
        } finally {
            noTokens.close();
        }
        LockService closed = otherClient();
        closed.close();
        assertThrows(IllegalStateException.class, () -> Leadership.join(closed, ELECTION, "a", l));
    }

    private void awaitHolders(String name, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (backend.server().holderCount(name) != n && System.nanoTime() - deadline < 0) {
            Thread.sleep(5); // the release runs on the participant's thread after the callback returned
        }
        assertEquals(n, backend.server().holderCount(name), name);
    }
}
