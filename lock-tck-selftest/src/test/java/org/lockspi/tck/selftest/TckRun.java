package org.lockspi.tck.selftest;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs a TCK class through the JUnit Platform launcher, as a build would, and records the outcome of each test by
 * its display name (which starts with the rule, {@code §3.1 ...}). Public, and shipped in lock-tck's test jar
 * (with nothing else of its tests), so that other modules' self-tests (lock-tck-mutants) run the kit the same way.
 */
public final class TckRun {
    /** How one test ended. */
    public enum Status { SUCCESSFUL, FAILED, ABORTED, SKIPPED }

    /** One test's outcome. */
    public static final class Outcome {
        /** how it ended */
        public final Status status;
        /** the failure, for FAILED (null otherwise) */
        public final Throwable throwable;
        /** the skip or abort reason, for SKIPPED and ABORTED (null otherwise) */
        public final String reason;

        Outcome(Status status, Throwable throwable, String reason) {
            this.status = status;
            this.throwable = throwable;
            this.reason = reason;
        }

        @Override
        public String toString() {
            return status + (throwable != null ? " (" + throwable + ")" : "") + (reason != null ? " (" + reason + ")" : "");
        }
    }

    private final Map<String, Outcome> outcomes = new TreeMap<>();
    private String output = "";

    private TckRun() {
    }

    /**
     * @param tckClass the class extending LockProviderTck
     * @param select   which tests to run, by display name
     * @return the outcomes by display name
     */
    public static TckRun run(Class<?> tckClass, Predicate<String> select) {
        TckRun run = new TckRun();
        PostDiscoveryFilter filter = descriptor -> FilterResult.includedIf(
                descriptor.isContainer() || select.test(descriptor.getDisplayName()));
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(tckClass)).filters(filter).build();
        Launcher launcher = LauncherFactory.create();
        // the run's standard output (its conformance report) is kept for the assertions, not printed
        PrintStream console = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            execute(launcher, request, run);
        } finally {
            System.setOut(console);
        }
        run.output = captured.toString(StandardCharsets.UTF_8);
        return run;
    }

    private static void execute(Launcher launcher, LauncherDiscoveryRequest request, TckRun run) {
        launcher.execute(request, new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier test, String reason) {
                if (test.isTest()) {
                    run.record(test, new Outcome(Status.SKIPPED, null, reason));
                }
            }

            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    Status status = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL ? Status.SUCCESSFUL
                            : result.getStatus() == TestExecutionResult.Status.ABORTED ? Status.ABORTED
                            : Status.FAILED;
                    Throwable t = result.getThrowable().orElse(null);
                    run.record(test, new Outcome(status, status == Status.ABORTED ? null : t,
                            status == Status.ABORTED && t != null ? t.getMessage() : null));
                } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                    // A failing container (the backend did not start) must not look like "no tests".
                    run.record(test, new Outcome(Status.FAILED, result.getThrowable().orElse(null), null));
                }
            }
        });
    }

    /** @return what the run printed to standard output: its conformance report */
    public String output() {
        return output;
    }

    private synchronized void record(TestIdentifier test, Outcome outcome) {
        outcomes.put(test.getDisplayName(), outcome);
    }

    /** @return outcomes by display name */
    public Map<String, Outcome> outcomes() {
        return outcomes;
    }

    /**
     * @param rule a rule prefix such as {@code "§3.1 "}
     * @return the outcomes of the tests of that rule
     */
    public Map<String, Outcome> rule(String rule) {
        return outcomes.entrySet().stream().filter(e -> e.getKey().startsWith(rule))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    }

    /** @return the outcomes with the given status */
    public Map<String, Outcome> with(Status status) {
        return outcomes.entrySet().stream().filter(e -> e.getValue().status == status)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    }

    @Override
    public String toString() {
        return outcomes.entrySet().stream().map(e -> "  " + e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining("\n"));
    }
}
