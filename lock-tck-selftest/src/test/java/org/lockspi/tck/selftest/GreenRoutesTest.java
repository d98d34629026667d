package org.lockspi.tck.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.selftest.TckRun.Outcome;
import org.lockspi.tck.selftest.TckRun.Status;

/**
 * Every way to a green build without conformance that was seen in a provider's real build ends NOT CONFORMANT:
 * a replaced or hidden rule, a backend that aborts what it claims to do, an ensemble class on one server, a
 * provider that declares nothing or leaves out what it implements, and a narrowed run. (A build whose Surefire
 * runs no test, and a TCK class Surefire does not pick up by its name, are shown by lock-tck-it with the
 * conformance run of a real Maven build.)
 */
class GreenRoutesTest {

    private static Predicate<String> rules(String... rules) {
        return name -> Arrays.stream(rules).anyMatch(r -> name.startsWith(r + " "));
    }

    private static String verdict(TckRun run) {
        List<String> lines = run.output().lines().collect(Collectors.toList());
        return lines.isEmpty() ? "(no report)" : lines.get(lines.size() - 1);
    }

    /** Asserts that the class failed after its tests with a NOT CONFORMANT line containing {@code why}. */
    private static void assertNotConformant(TckRun run, String simpleName, String why) {
        Outcome verdict = run.outcomes().get(simpleName);
        assertTrue(verdict != null && verdict.status == Status.FAILED, simpleName + " must fail as a class:\n" + run);
        assertTrue(verdict.throwable.getMessage().startsWith("lockspi TCK: NOT CONFORMANT: ")
                && verdict.throwable.getMessage().contains(why), simpleName + ": " + verdict.throwable.getMessage());
        assertTrue(run.output().lines().anyMatch(l -> l.startsWith("lockspi TCK: NOT CONFORMANT: ") && l.contains(why)),
                simpleName + ": the report says why:\n" + run.output());
        assertTrue(run.output().lines().noneMatch(l -> l.startsWith("lockspi TCK: CONFORMANT")),
                simpleName + ": no CONFORMANT line:\n" + run.output());
    }

    @Test
    void anEmptyTestInPlaceOfARuleIsNotVerified() {
        TckRun run = TckRun.run(GreenRoutes.EmptyOverride.class, rules("§3.1", "§3.2"));
        assertEquals(Status.SUCCESSFUL, run.rule("§3.1 ").values().iterator().next().status, "the empty test passes");
        assertNotConformant(run, "GreenRoutes$EmptyOverride", "§3.1 (overridden: §3.1)");
        assertTrue(run.output().contains("NOT VERIFIED          §3.1 a held mutex excludes every other client until "
                + "it is released  -- the test class replaces the kit's test with "), run.output());
    }

    @Test
    void aRuleHiddenByAnOverrideWithoutTestIsNotVerified() {
        TckRun run = TckRun.run(GreenRoutes.HiddenOverride.class, rules("§3.1", "§4.1"));
        assertTrue(run.rule("§4.1 ").isEmpty(), "JUnit no longer runs §4.1: " + run);
        assertNotConformant(run, "GreenRoutes$HiddenOverride", "overridden: §4.1");
    }

    @Test
    void aBackendThatAbortsWhatItClaimsLeavesItsRulesNotVerified() {
        TckRun run = TckRun.run(GreenRoutes.AbortingRestart.class, rules("§3.1", "§13.3", "§16.1"));
        assertEquals(Status.ABORTED, run.rule("§13.3 ").values().iterator().next().status, run.toString());
        assertNotConformant(run, "GreenRoutes$AbortingRestart", "aborted: §13.3, §16.1");
    }

    @Test
    void anEnsembleClassOnOneServerFailsBeforeItsFirstTest() {
        TckRun run = TckRun.run(GreenRoutes.EnsembleOnOneServer.class, name -> true);
        assertTrue(run.with(Status.SUCCESSFUL).isEmpty(), "nothing passes:\n" + run);
        Outcome verdict = run.outcomes().get("GreenRoutes$EnsembleOnOneServer");
        assertTrue(verdict != null && verdict.status == Status.FAILED
                && verdict.throwable.getMessage().contains("must offer ENSEMBLE"), "fails for ENSEMBLE: " + run);
        assertTrue(verdict(run).startsWith("lockspi TCK: NOT CONFORMANT: the backend did not start"), verdict(run));
    }

    @Test
    void aProviderThatDeclaresNothingIsNotConformant() {
        TckRun run = TckRun.run(GreenRoutes.NoFeatures.class, name -> true);
        assertTrue(run.with(Status.FAILED).keySet().stream().allMatch(t -> t.equals("GreenRoutes$NoFeatures")
                || t.startsWith("§9.6 ")), "only §9.6 and the class fail:\n" + run.with(Status.FAILED));
        assertNotConformant(run, "GreenRoutes$NoFeatures", "does not declare the minimum profile CORE");
    }

    @Test
    void aFeatureImplementedButNotDeclaredIsCaught() {
        TckRun run = TckRun.run(GreenRoutes.UndeclaredNotification.class, rules("§3.1", "§9.6", "§12.1"));
        assertEquals(Status.FAILED, run.rule("§9.6 ").values().iterator().next().status, run.toString());
        assertEquals(Status.ABORTED, run.rule("§12.1 ").values().iterator().next().status, run.toString());
        assertNotConformant(run, "GreenRoutes$UndeclaredNotification", "leaves out LOST_NOTIFICATION");
    }

    @Test
    void aNarrowedRunIsPartialAndAStrictOneIsNotConformant() {
        TckRun partial = TckRun.run(TckRuns.Reference.class, rules("§3.1", "§4.1"));
        assertTrue(verdict(partial).startsWith("lockspi TCK: PARTIAL RUN: "), verdict(partial));
        String previous = System.setProperty("lockspi.tck.strict", "true");
        TckRun strict;
        try {
            strict = TckRun.run(TckRuns.Reference.class, rules("§3.1", "§4.1"));
        } finally {
            if (previous == null) {
                System.clearProperty("lockspi.tck.strict");
            } else {
                System.setProperty("lockspi.tck.strict", previous);
            }
        }
        assertNotConformant(strict, "TckRuns$Reference", "did not run: ");
    }
}
