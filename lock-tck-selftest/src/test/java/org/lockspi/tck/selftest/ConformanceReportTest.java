package org.lockspi.tck.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.selftest.TckRun.Outcome;
import org.lockspi.tck.selftest.TckRun.Status;

/**
 * The kit cannot be fooled by its own configuration: a backend that does not declare a capability turns the
 * rules that need it into <em>not verified</em>, and the run fails with one unmistakable line unless the test
 * class allows each of them by name; the report shows every rule run, with its outcome and reason.
 */
class ConformanceReportTest {
    private static final String UNVERIFIED = "lockspi TCK: NOT CONFORMANT: 2 rules required by the declared "
            + "features were not verified: §13.3, §16.1 (backend lacks RESTART)";

    private static Predicate<String> rules(String... rules) {
        return name -> Arrays.stream(rules).anyMatch(r -> name.startsWith(r + " "));
    }

    private static List<String> lines(TckRun run) {
        return run.output().lines().collect(Collectors.toList());
    }

    /** @return the one line of the report that shows this rule's test, trimmed */
    private static String line(TckRun run, String rule) {
        List<String> found = lines(run).stream().map(String::strip)
                .filter(l -> l.matches("[A-Z, ]+ " + rule + " .*")).collect(Collectors.toList());
        assertEquals(1, found.size(), "one report line for " + rule + ":\n" + run.output());
        return found.get(0);
    }

    private static Outcome classOutcome(TckRun run, String simpleName) {
        return run.outcomes().get(simpleName);
    }

    @Test
    void aBackendWithoutRestartFailsTheRunWithOneLine() {
        TckRun run = TckRun.run(TckRuns.NoRestart.class, rules("§3.1", "§13.3", "§16.1"));
        assertEquals(Status.SUCCESSFUL, run.rule("§3.1 ").values().iterator().next().status, run.toString());
        assertEquals(Status.ABORTED, run.rule("§13.3 ").values().iterator().next().status, run.toString());
        Outcome verdict = classOutcome(run, "TckRuns$NoRestart");
        assertTrue(verdict != null && verdict.status == Status.FAILED, "the class fails:\n" + run);
        assertTrue(verdict.throwable instanceof AssertionError
                && verdict.throwable.getMessage().startsWith(UNVERIFIED + "\n"), "failure: " + verdict.throwable);
        assertTrue(lines(run).contains(UNVERIFIED), "the report has the line:\n" + run.output());
        assertTrue(line(run, "§13.3").startsWith("NOT VERIFIED ") && line(run, "§13.3").contains("lacks capability "
                + "RESTART"), line(run, "§13.3"));
        assertTrue(line(run, "§3.1").startsWith("PASSED "), line(run, "§3.1"));
    }

    @Test
    void rulesAllowedByNameLetAFullRunPassAndAreListed() {
        TckRun run = TckRun.run(TckRuns.NoRestartAllowed.class, name -> true);
        assertTrue(run.with(Status.FAILED).isEmpty(), "nothing fails:\n" + run.with(Status.FAILED));
        String last = lines(run).get(lines(run).size() - 1);
        assertTrue(last.startsWith("lockspi TCK: CONFORMANT: ") && last.endsWith(
                "rules not verified as unverifiedRulesAllowed() allows: §10.1, §10.2, §13.3, §16.1, §16.2, §17.3, "
                + "§17.5, §18.1, §18.2, §18.3, §18.4, §18.5, §20.4, §24.1, §24.2, §24.3, §24.4, §24.5"), last);
        assertTrue(line(run, "§16.1").startsWith("NOT VERIFIED, ALLOWED "), line(run, "§16.1"));
        assertTrue(run.output().contains("§13.3 (" + TckRuns.NoRestartAllowed.REASON + ")"),
                "the report names each allowed rule with its reason:\n" + run.output());
        assertTrue(run.output().contains("lacks               RESTART, WAKEUP_REGISTRATIONS, OTHER_PROCESSES, PARTITION, "
                + "RESTART_WITHOUT_DATA"),
                "the report names the missing capabilities:\n" + run.output());
    }

    @Test
    void aPartialRunJudgesOnlyTheRulesItRan() {
        TckRun run = TckRun.run(TckRuns.NoRestart.class, rules("§3.1", "§13.1"));
        assertTrue(run.with(Status.FAILED).isEmpty(), "a selection without §13.3 and §16.1 passes:\n" + run);
        String last = lines(run).get(lines(run).size() - 1);
        assertTrue(last.startsWith("lockspi TCK: PARTIAL RUN: 2 of "), last);
        assertTrue(run.output().contains("not run (not selected): §1.1, §1.2"), run.output());
    }

    @Test
    void anAllowedRuleThatIsNoRuleFailsBeforeTheFirstTest() {
        TckRun run = TckRun.run(TckRuns.UnknownRuleAllowed.class, rules("§3.1"));
        Outcome verdict = classOutcome(run, "TckRuns$UnknownRuleAllowed");
        assertTrue(verdict != null && verdict.status == Status.FAILED, "the class fails:\n" + run);
        assertTrue(verdict.throwable instanceof IllegalArgumentException
                && verdict.throwable.getMessage().contains("'§99.1'"), "failure: " + verdict.throwable);
        assertTrue(run.rule("§3.1 ").isEmpty(), "no test ran:\n" + run);
    }

    @Test
    void theReportShowsFailedAndSkippedRulesWithTheirReasons() {
        TckRun broken = TckRun.run(TckRuns.GrantAll.class, rules("§3.1"));
        assertTrue(line(broken, "§3.1").startsWith("FAILED ") && line(broken, "§3.1").contains("client b got a "
                + "mutex client a holds"), line(broken, "§3.1"));
        assertTrue(broken.output().contains("lockspi TCK: NOT CONFORMANT: 1 rule failed: §3.1"), broken.output());
        Throwable failure = broken.rule("§3.1 ").values().iterator().next().throwable;
        assertTrue(failure.getMessage().startsWith("§3.1 a held mutex excludes every other client until it is "
                + "released: client b got a mutex client a holds"), "the console's message names the rule: "
                + failure.getMessage());
        TckRun mutexOnly = TckRun.run(TckRuns.MutexOnly.class, rules("§6.1", "§9.2"));
        assertTrue(line(mutexOnly, "§6.1").startsWith("SKIPPED ") && line(mutexOnly, "§6.1").endsWith(
                "provider 'mem-mutex-only' does not declare READ_WRITE"), line(mutexOnly, "§6.1"));
        assertTrue(line(mutexOnly, "§9.2").startsWith("PASSED "), line(mutexOnly, "§9.2"));
    }

    @Test
    void waitersBlockedInIoAreSeenWaiting() {
        List<String> waiting = List.of("§3.4", "§5.5", "§5.8", "§6.5", "§8.5");
        TckRun run = TckRun.run(TckRuns.IoWaitNoInspect.class, rules(waiting.toArray(new String[0])));
        for (String rule : waiting) {
            Map<String, Outcome> outcomes = run.rule(rule + " ");
            assertEquals(1, outcomes.size(), rule + " ran:\n" + run);
            assertEquals(Status.SUCCESSFUL, outcomes.values().iterator().next().status, rule + ":\n" + run);
        }
    }

    @Test
    void invocationsOfATemplateAreReportedUnderItsRule() {
        TckRun run = TckRun.run(TckRuns.WithTemplate.class, rules("§3.1"));
        List<String> invocations = lines(run).stream().map(String::strip)
                .filter(l -> l.startsWith("PASSED ") && l.contains("§3.1 a template's invocations"))
                .collect(Collectors.toList());
        String passed = "PASSED                §3.1 a template's invocations are reported under its rule ";
        assertEquals(List.of(passed + "[1] \"first\"", passed + "[2] \"second\""),
                invocations, run.output());
        assertTrue(!run.output().contains("not run (not selected): §3.1,") && run.output().contains(
                "not run (not selected): §1.1"), "the template ran:\n" + run.output());
    }
}
