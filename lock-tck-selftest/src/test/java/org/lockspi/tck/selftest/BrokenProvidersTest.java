package org.lockspi.tck.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.selftest.TckRun.Outcome;
import org.lockspi.tck.selftest.TckRun.Status;

/**
 * The TCK catches broken providers: each deliberately broken variant of the reference provider fails the
 * contracts that name its defect, where the correct provider passes them.
 */
class BrokenProvidersTest {

    private static Predicate<String> rules(List<String> rules) {
        return name -> rules.stream().anyMatch(r -> name.startsWith(r + " "));
    }

    /** Asserts that every listed rule ran and ended with the status, for an assertion (not an accident). */
    private static void assertRules(TckRun run, List<String> rules, Status expected, String provider) {
        for (String rule : rules) {
            Map<String, Outcome> outcomes = run.rule(rule + " ");
            assertFalse(outcomes.isEmpty(), provider + ": no test of rule " + rule + " ran:\n" + run);
            outcomes.forEach((test, outcome) -> {
                assertEquals(expected, outcome.status, provider + ": " + test + "\n" + run);
                if (expected == Status.FAILED) {
                    assertTrue(outcome.throwable instanceof AssertionError, provider + ": " + test
                            + " should fail by a contract assertion, not by " + outcome.throwable);
                }
            });
        }
    }

    @Test
    void grantAllBreaksMutualExclusion() {
        List<String> exclusion = List.of("§3.1", "§3.3", "§6.2", "§7.1", "§7.7");
        TckRun broken = TckRun.run(TckRuns.GrantAll.class, rules(exclusion));
        assertRules(broken, exclusion, Status.FAILED, "mem-grant-all");
        TckRun correct = TckRun.run(TckRuns.Reference.class, rules(exclusion));
        assertRules(correct, exclusion, Status.SUCCESSFUL, "mem");
    }

    @Test
    void leakOnTimeoutBreaksCleanTimeouts() {
        List<String> timeouts = List.of("§5.4");
        TckRun broken = TckRun.run(TckRuns.LeakOnTimeout.class, rules(List.of("§5.4", "§8.1")));
        assertRules(broken, timeouts, Status.FAILED, "mem-leak-on-timeout");
        // The leak is on timeout only: released leases leave nothing, so this contract still passes.
        assertRules(broken, List.of("§8.1"), Status.SUCCESSFUL, "mem-leak-on-timeout");
        TckRun correct = TckRun.run(TckRuns.Reference.class, rules(timeouts));
        assertRules(correct, timeouts, Status.SUCCESSFUL, "mem");
    }

    @Test
    void leakOnInterruptBreaksCleanInterrupts() {
        List<String> rules = List.of("§5.5");
        TckRun broken = TckRun.run(TckRuns.LeakOnInterrupt.class, rules(List.of("§5.4", "§5.5")));
        assertRules(broken, rules, Status.FAILED, "mem-leak-on-interrupt");
        assertRules(broken, List.of("§5.4"), Status.SUCCESSFUL, "mem-leak-on-interrupt");
        TckRun correct = TckRun.run(TckRuns.Reference.class, rules(rules));
        assertRules(correct, rules, Status.SUCCESSFUL, "mem");
    }

    @Test
    void leakedThreadIsCaught() {
        List<String> rules = List.of("§8.6");
        TckRun broken = TckRun.run(TckRuns.LeakThread.class, rules(rules));
        assertRules(broken, rules, Status.FAILED, "mem-leak-thread");
        assertTrue(broken.rule("§8.6 ").values().iterator().next().throwable.getMessage().contains("mem-keepalive"),
                "the failure names the leaked thread: " + broken);
        TckRun correct = TckRun.run(TckRuns.Reference.class, rules(rules));
        assertRules(correct, rules, Status.SUCCESSFUL, "mem");
    }

    @Test
    void lifoBreaksFairness() {
        // §14.1, §14.3, §14.4 are fairness (FairnessContracts, among the failure contracts): mutex, semaphore,
        // read-write.
        Predicate<String> fifo = rules(List.of("§14.1", "§14.3", "§14.4"));
        TckRun broken = TckRun.run(TckRuns.Lifo.class, fifo.or(rules(List.of("§3.3"))));
        // LIFO order still excludes: the core contracts do not notice it.
        assertRules(broken, List.of("§3.3"), Status.SUCCESSFUL, "mem-lifo");
        Map<String, Outcome> fairness = broken.outcomes();
        fairness.keySet().removeIf(fifo.negate());
        if (fairness.isEmpty()) {
            Assumptions.abort("no fairness contract (§14.1) in the TCK yet (it belongs to FailureContracts)");
        }
        assertEquals(3, fairness.size(), "mem-lifo: one test for each of §14.1, §14.3, §14.4: " + fairness.keySet());
        fairness.forEach((test, outcome) -> assertEquals(Status.FAILED, outcome.status, "mem-lifo: " + test));
        TckRun correct = TckRun.run(TckRuns.Reference.class, fifo);
        assertTrue(correct.with(Status.FAILED).isEmpty(), "mem fails a FIFO contract:\n" + correct);
    }

    /**
     * mem-mutex-only declares REENTRANT_MUTEX alone: the refusals of what it leaves out pass and the rules of those
     * features are skipped; but it is below the minimum profile, and the engine still signals its leases' losses,
     * which §9.6 catches as LOST_NOTIFICATION implemented without being declared.
     */
    @Test
    void aProviderBelowTheMinimumProfileIsNotConformantAndItsUndeclaredNotificationIsCaught() {
        TckRun run = TckRun.run(TckRuns.MutexOnly.class, name -> name.startsWith("§"));
        assertRules(run, List.of("§9.2", "§9.3", "§9.4", "§9.5", "§9.7"), Status.SUCCESSFUL, "mem-mutex-only");
        assertRules(run, List.of("§9.1", "§6.1", "§7.1", "§7.7"), Status.ABORTED, "mem-mutex-only");
        assertTrue(run.rule("§6.1 ").values().iterator().next().reason.contains("does not declare READ_WRITE"),
                "skip reason: " + run.rule("§6.1 "));
        assertTrue(run.rule("§9.1 ").values().iterator().next().reason.contains("declares REENTRANT_MUTEX"),
                "skip reason: " + run.rule("§9.1 "));
        assertRules(run, List.of("§3.1", "§3.3", "§4.1", "§5.5", "§8.6"), Status.SUCCESSFUL, "mem-mutex-only");
        assertRules(run, List.of("§9.6"), Status.FAILED, "mem-mutex-only");
        assertTrue(run.rule("§9.6 ").values().iterator().next().throwable.getMessage()
                .contains("without declaring LOST_NOTIFICATION"), "§9.6 names the undeclared feature: " + run);
        Outcome verdict = run.outcomes().get("TckRuns$MutexOnly");
        assertTrue(verdict != null && verdict.status == Status.FAILED && verdict.throwable.getMessage()
                .startsWith("lockspi TCK: NOT CONFORMANT: the provider does not declare the minimum profile CORE"),
                "the class fails for the profile: " + verdict);
    }

    @Test
    void aLeaseEndedByARestartIsHonestOnlyWithoutSurvivesRestart() {
        List<String> restart = List.of("§16.1");
        TckRun honest = TckRun.run(TckRuns.RestartEndsLeases.class, rules(restart));
        assertRules(honest, restart, Status.SUCCESSFUL, "mem-restart-ends-leases");
        TckRun claimed = TckRun.run(TckRuns.RestartEndsLeasesClaimed.class, rules(restart));
        assertRules(claimed, restart, Status.FAILED, "mem (claims SURVIVES_RESTART)");
    }
}
