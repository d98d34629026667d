package org.lockspi.tck.mutants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.selftest.TckRun;
import org.lockspi.tck.selftest.TckRun.Outcome;
import org.lockspi.tck.selftest.TckRun.Status;

/**
 * The kit checks itself against broken variants of the real providers ({@link Mutant}): each runs only the rules
 * that must kill it, and each of them must fail by a contract assertion (not by an accident such as a server
 * that did not start); a mutant that names older rules it survives must pass those, in the same run.
 */
class MutantsTest {
    private static final Map<Mutant, String> KILLED = new EnumMap<>(Mutant.class); // guarded by itself

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mutant.class)
    void diesByTheRuleThatNamesItsDefect(Mutant mutant) {
        String name = mutant.provider().name();
        TckRun run = TckRun.run(mutant.run, test -> mutant.rules.stream().anyMatch(r -> test.startsWith(r + " "))
                || mutant.survives.stream().anyMatch(r -> test.startsWith(r + " ")));
        Map<String, Outcome> accidents = new TreeMap<>(run.outcomes());
        accidents.keySet().removeIf(test -> test.startsWith("§"));
        assertTrue(accidents.isEmpty(), name + ": the run itself failed:\n" + run);
        for (String rule : mutant.rules) {
            Map<String, Outcome> outcomes = run.rule(rule + " ");
            assertFalse(outcomes.isEmpty(), name + ": no test of rule " + rule + " ran:\n" + run);
            outcomes.forEach((test, outcome) -> {
                assertEquals(Status.FAILED, outcome.status, name + " survived " + test + ":\n" + run);
                Throwable failure = byContract(outcome.throwable);
                assertTrue(failure instanceof AssertionError, name + ": " + test
                        + " must fail by a contract assertion, not by " + failure);
            });
        }
        for (String rule : mutant.survives) {
            Map<String, Outcome> outcomes = run.rule(rule + " ");
            assertFalse(outcomes.isEmpty(), name + ": no test of rule " + rule + " ran:\n" + run);
            outcomes.forEach((test, outcome) -> assertEquals(Status.SUCCESSFUL, outcome.status, name
                    + " should pass the older rule " + test + ", to show what the newer one adds:\n" + run));
        }
        String killedBy = String.join(", ", mutant.rules);
        synchronized (KILLED) {
            KILLED.put(mutant, killedBy);
        }
        System.out.println("mutant " + name + " (" + mutant.realProvider + "): killed by " + killedBy
                + (mutant.survives.isEmpty() ? "" : "; passes " + String.join(", ", mutant.survives)));
        for (String rule : mutant.rules) {
            run.rule(rule + " ").values().forEach(o -> System.out.println("  " + firstLine(o.throwable)));
        }
    }

    /**
     * @return the failure itself, or, where a rule's helper thread failed ({@code Async.get}: "thread '...' failed"),
     *         what that thread threw: an exception there is an accident of the rule's set-up, not its verdict
     */
    private static Throwable byContract(Throwable failure) {
        Throwable t = failure;
        while (t instanceof AssertionError && String.valueOf(t.getMessage()).contains("' failed: ")
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** @return the first telling line of a failure's message, cut to 300 characters */
    private static String firstLine(Throwable failure) {
        List<String> lines = String.valueOf(failure.getMessage()).lines().map(String::strip)
                .filter(line -> !line.isEmpty()).collect(Collectors.toList());
        String message = lines.isEmpty() ? "" : lines.get(0);
        if (message.endsWith(" failure)") || message.endsWith(" failures)")) {
            // a rule that judges all its checks together says "Multiple Failures (n failures)" first
            message += " " + (lines.size() > 1 ? lines.get(1) : "");
        }
        return message.length() <= 300 ? message : message.substring(0, 300) + "...";
    }

    /**
     * §4 (reentrancy, and another thread of the holding service excluded like another client) is the engine's alone:
     * nested acquisitions never reach the backend, and the local queue lets one acquisition of a service's mutex or
     * write half ask the backend at a time, so no provider defect can break it through the API (the client-reentrant
     * mutant that §4.2 used to kill shows on the semaphore now, §7.3).
     */
    private static final int ENGINE_ONLY = 4;

    @Test
    void theCatalogueCoversEveryRuleGroupAndProvider() {
        List<Mutant> all = List.of(Mutant.values());
        assertTrue(all.size() >= 20, "at least 20 mutants: " + all.size());
        for (int group : IntStream.rangeClosed(2, 18).toArray()) {
            if (group == ENGINE_ONLY) {
                continue;
            }
            String prefix = "§" + group + ".";
            assertTrue(all.stream().anyMatch(m -> m.rules.stream().anyMatch(r -> r.startsWith(prefix))),
                    "no mutant is killed by a rule of §" + group);
        }
        assertEquals(Set.of("zookeeper-raw", "zkclient", "curator", "redis-baseline", "redis-fair"),
                all.stream().map(m -> m.realProvider).collect(Collectors.toSet()), "the real providers");
        Set<String> names = new HashSet<>();
        Set<String> registered = ServiceLoader.load(LockProvider.class).stream().map(p -> p.get().name())
                .collect(Collectors.toSet());
        for (Mutant mutant : all) {
            LockProvider provider = mutant.provider();
            assertTrue(names.add(provider.name()), "two mutants are named " + provider.name());
            assertTrue(provider.name().startsWith("mutant-"
                    + mutant.realProvider.replace("zookeeper-", "").replace("-baseline", "") + "-"),
                    provider.name() + " names its real provider " + mutant.realProvider);
            // child JVMs (§10, §11, §18.3) find a mutant by name through ServiceLoader
            assertTrue(registered.contains(provider.name()), provider.name() + " is not registered");
            assertTrue(provider.priority() < 0, provider.name() + " must rank below every real provider");
        }
    }

    @AfterAll
    static void summary() {
        try {
            synchronized (KILLED) {
                System.out.println("mutants: " + Mutant.values().length + ", killed: " + KILLED.size());
            }
        } finally {
            SharedBackends.closeAll();
        }
    }
}
