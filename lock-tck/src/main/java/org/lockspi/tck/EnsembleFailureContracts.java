package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.LockFeature;
import org.lockspi.tck.EnsembleContention.Pass;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.support.TempDir;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.process.HolderMain;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §19 Ensemble failover: when a member of a replicated backend dies ({@code SIGKILL}) while clients contend for
 * a mutex, the lock stays safe and comes back. {@value #CLIENTS} clients in this JVM (separate services) pass
 * through a critical section in turn, one of them holding across the kill (a killed follower is, where possible,
 * the one the holder is connected to); a client in another JVM ({@link HolderMain} {@code hold}) waits for the
 * lock across the kill. The contracts check safety and bounds, not a provider's timing: no two holders inside
 * the critical section (marker file); no lease reports {@link org.lockspi.LeaseState#HELD HELD} while another
 * client's lease does (the spans recorded by listeners); a lease leaves HELD only through {@code UNCERTAIN} or by
 * release; a holder whose connection the death cut sees UNCERTAIN within {@link #crashReleaseBound()}; the time
 * after the kill without a HELD lease is bounded by {@link #crashReleaseBound()} plus {@value #ELECTION_SECONDS}
 * s; the other JVM acquires, and then every client here again. Needs {@link TckBackend.Capability#ENSEMBLE}; each run prints its figures.
 */
@Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = Why.SESSION_WIDE)
@Inapplicable(shapes = MIXED_KINDS, reason = "one kind contends")
@Inapplicable(shapes = ONE_WAITER, reason = "three clients and a child JVM contend")
public interface EnsembleFailureContracts extends TckContext {

    /** Clients in this JVM. */
    int CLIENTS = 3;
    /** What the bound on the time without a holder allows for the election, over the crash-release bound. */
    int ELECTION_SECONDS = 5;

    /**
     * (ENSEMBLE, OTHER_PROCESSES) Three clients here pass through a critical section in turn; after six passes the next
     * holder stays inside while a child JVM waits too, and the ensemble's leader is killed with {@code SIGKILL}. No
     * pass finds another inside; no lease is {@code HELD} while another client's is; every change is
     * {@code HELD->UNCERTAIN}, {@code UNCERTAIN->HELD}, {@code UNCERTAIN->LOST} or to {@code RELEASED}; a holder whose
     * connection was cut sees {@code UNCERTAIN} within {@code C} ({@link #crashReleaseBound()}); after the kill no
     * lease is {@code HELD} for at most {@code C} + 5 s; the child, then every client here, acquires again; (INSPECT)
     * nothing is left within {@code C}.
     */
    @Test
    @Timeout(120)
    @Diagnosis("On a dropped connection report BackendEvents.connectionSuspended before anything else, and a session "
            + "expiry as leaseLost only after it: HELD->LOST skipped the suspension. Two HELD leases mean a "
            + "reconnection was taken for confirmation before the server answered.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @DisplayName("§19.1 mutex: killing the ensemble's leader during contention lets no two clients hold it at "
            + "once, no lease is HELD while another client's is, the time without a holder is bounded, and "
            + "work resumes")
    default void leaderKillDuringContention() throws InterruptedException {
        failOverDuringContention("§19.1", true);
    }

    /**
     * (ENSEMBLE, OTHER_PROCESSES) §19.1 with a follower killed instead: the one the holder is connected to where it can
     * be, else one a waiter is connected to. If the holder's connection was cut it sees {@code UNCERTAIN} within
     * {@code C}.
     */
    @Test
    @Timeout(120)
    @Diagnosis("A follower's death cuts only its clients: the backend must move to another member of the connect "
            + "string within the session timeout and report connectionRestored, and a waiter that reconnects must "
            + "check its place in the queue again.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @DisplayName("§19.2 mutex: killing a follower of the ensemble during contention lets no two clients hold it "
            + "at once, no lease is HELD while another client's is, the time without a holder is bounded, and "
            + "work resumes")
    default void followerKillDuringContention() throws InterruptedException {
        failOverDuringContention("§19.2", false);
    }

    private void failOverDuringContention(String rule, boolean leader) throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.ENSEMBLE);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        EnsembleBackend ensemble = (EnsembleBackend) backend();
        ensemble.restartKilled(); // an earlier contract may have left a member down
        String name = uniqueName(leader ? "leader-kill" : "follower-kill");
        Duration wait = crashReleaseBound().plus(ensemble.quorumBound());
        String uri = Checks.waitingOutOutages(clientUri()); // the waiters wait out the failover (§16.3 aside)
        try (TempDir dir = TempDir.create(); Workers workers = new Workers(CLIENTS);
                ChildJvm.Group jvms = new ChildJvm.Group()) {
            EnsembleContention run = new EnsembleContention(dir.path(), crashReleaseBound());
            long start = System.nanoTime();
            List<Future<Integer>> loops = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                Acquirable lock = openClient(uri).mutex(name);
                String client = "client-" + i;
                loops.add(workers.submit(() -> run.hammer(client, lock, wait)));
            }
            run.awaitPasses(2 * CLIENTS, false, start, wait, "before the kill");
            CountDownLatch inside = run.armKill();
            assertTrue(inside.await(wait.toMillis(), TimeUnit.MILLISECONDS),
                    "no client entered the critical section within " + wait);
            // a client here holds, the others wait; another JVM waits too, queued (INSPECT) before the kill
            ChildJvm child = jvms.start(HolderMain.class, "hold", uri, provider().name(), name, "mutex");
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                Poll.until("entries of '" + name + "' (the holder, " + (CLIENTS - 1) + " waiters here, the other "
                        + "JVM)", CLIENTS + 1, () -> backend().residue(name).size(), wait);
            }

            EnsembleBackend.Killed killed = leader ? ensemble.killLeader() : ensemble.killFollower(name);
            long kill = killed.nanoTime();
            ensemble.awaitQuorum();
            long quorum = System.nanoTime();
            run.resume(killed.holderCut());

            String held = child.awaitLine(wait, "HELD", "ERROR");
            long childHeld = System.nanoTime();
            assertTrue(held.startsWith("HELD"), () -> "the other JVM could not acquire: " + held
                    + child.stderrTail());
            long childRelease = System.nanoTime();
            child.send("release");
            String releasing = child.awaitLine(Duration.ofSeconds(20), "RELEASING", "ERROR");
            assertEquals("RELEASED", child.awaitLine(Duration.ofSeconds(20), "RELEASED", "ERROR"),
                    child::stderrTail);
            assertEquals(0, child.awaitExit(Duration.ofSeconds(20)), child::stderrTail);

            run.awaitPasses(CLIENTS, true, childRelease, wait, "after the other JVM released");
            run.stop();
            int total = 0;
            for (Future<Integer> loop : loops) {
                total += join(loop, wait);
            }

            List<Pass> passes = run.passes();
            assertEquals(0, run.overlaps(), "times a holder found another one inside the critical section");
            assertNull(run.holderNotCut());
            checkTransitions(passes);
            List<long[]> spans = new ArrayList<>();
            List<String> owners = new ArrayList<>();
            for (Pass pass : passes) {
                for (long[] span : pass.heldSpans()) {
                    spans.add(span);
                    owners.add(pass.client);
                }
            }
            if (releasing.equals("RELEASING HELD")) { // held throughout: its session never ended
                spans.add(new long[] {childHeld, childRelease});
                owners.add("other JVM");
            }
            assertNull(EnsembleContention.twoHeld(spans, owners), "no lease HELD while another client's is");
            long gap = EnsembleContention.longestGap(spans, kill);
            Duration gapBound = crashReleaseBound().plusSeconds(ELECTION_SECONDS);
            assertTrue(gap <= gapBound.toNanos(), () -> "no lease was HELD for " + ms(gap) + " ms after the kill,"
                    + " more than " + gapBound + "; passes: " + passes);

            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                Poll.until("residue of '" + name + "'", List.of(), () -> backend().residue(name),
                        crashReleaseBound());
            }
            report(rule, leader, killed, passes, run, kill, quorum, gap, total, releasing);
        }
    }

    private static int join(Future<Integer> loop, Duration wait) throws InterruptedException {
        try {
            return loop.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("a client's loop failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("a client's loop did not end within " + wait, e);
        }
    }

    /**
     * A lease leaves HELD only through UNCERTAIN or by its release. {@code LOST->LOST} and
     * {@code UNCERTAIN->UNCERTAIN} are no changes: a listener added to a lease that came back from its acquisition
     * in that state is told the state it found.
     */
    private static void checkTransitions(List<Pass> passes) {
        Set<String> allowed = Set.of("HELD->UNCERTAIN", "UNCERTAIN->HELD", "UNCERTAIN->LOST", "HELD->RELEASED",
                "UNCERTAIN->RELEASED", "LOST->LOST", "UNCERTAIN->UNCERTAIN");
        for (Pass pass : passes) {
            for (String change : pass.changes()) {
                assertTrue(allowed.contains(change), () -> "a lease changed " + change + " (allowed: " + allowed
                        + "): " + pass);
            }
        }
    }

    private void report(String rule, boolean leader, EnsembleBackend.Killed killed, List<Pass> passes,
            EnsembleContention run, long kill, long quorum, long gap, int total, String releasing) {
        long firstUncertain = -1;
        int uncertain = 0;
        int backToHeld = 0;
        int lost = 0;
        for (Pass pass : passes) {
            List<String> changes = pass.changes();
            List<Long> at = pass.changedAt();
            boolean counted = false;
            for (int i = 0; i < changes.size(); i++) {
                if (changes.get(i).endsWith("->UNCERTAIN") && at.get(i) - kill >= 0) {
                    long after = at.get(i) - kill;
                    firstUncertain = firstUncertain < 0 ? after : Math.min(firstUncertain, after);
                    uncertain += counted ? 0 : 1;
                    counted = true;
                }
                backToHeld += changes.get(i).equals("UNCERTAIN->HELD") ? 1 : 0;
                lost += changes.get(i).endsWith("->LOST") ? 1 : 0;
            }
        }
        Pass across = run.heldAcross();
        System.out.printf("%s %s, %s killed (%s, holder's connection cut: %s): quorum back %d ms after the "
                        + "kill; %d leases UNCERTAIN (first %s after the kill), %d back to HELD, %d LOST; longest "
                        + "time without a HELD lease after the kill %d ms; overlaps %d; %d passes in this JVM, "
                        + "other JVM %s; lease held across the kill: %s; retried failures %s%n",
                rule, provider().name(), leader ? "leader" : "follower", killed.address(),
                killed.holderCut() ? "yes" : "no", ms(quorum - kill), uncertain,
                firstUncertain < 0 ? "none" : ms(firstUncertain) + " ms", backToHeld, lost, ms(gap), run.overlaps(),
                total, releasing, across, run.failures());
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
