package org.lockspi.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.platform.commons.support.AnnotationSupport;
import org.lockspi.tck.report.ConformanceReport;
import org.opentest4j.AssertionFailedError;

/**
 * Keeps the {@link ConformanceReport} of a {@link LockProviderTck} class: learns every test of the class before
 * the first runs, records how each ended, and after the last prints the report to standard output (so it shows
 * in the build's console and in Surefire's {@code -output.txt}) and fails the class when rules required by the
 * declared features went unverified without being allowed.
 *
 * <p>Surefire's console names a failed test by its method, never by its display name; so an assertion failure
 * of a test is rethrown with the test's display name, which starts with its rule, in front of its message
 * ({@code §3.1 a held mutex ...: client b got a mutex client a holds}). Its type, expected and actual values and
 * stack trace stay as they were; any other exception passes unchanged.
 */
final class ConformanceWatcher implements BeforeAllCallback, AfterAllCallback, TestWatcher,
        TestExecutionExceptionHandler {

    /** The system property naming a directory where each class's report is written, as text and JSON: {@value}. */
    static final String REPORT_DIR = "lockspi.tck.reportDir";
    /**
     * The system property that makes a run strict, {@value}: a kit test that did not run is not verified (the
     * conformance run sets it), where a build tool's selection otherwise makes the run partial.
     */
    static final String STRICT = "lockspi.tck.strict";

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        tck(context).openReport(KitRules.of(testClass), Boolean.getBoolean(STRICT));
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (!(thrown instanceof AssertionError) || String.valueOf(thrown.getMessage()).startsWith("§")) {
            throw thrown;
        }
        String diagnosis = context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, Diagnosis.class))
                .map(d -> "\n  what to look at: " + d.value()).orElse("");
        String message = name(context) + ": " + thrown.getMessage() + diagnosis;
        AssertionError named;
        if (thrown instanceof AssertionFailedError) {
            AssertionFailedError failed = (AssertionFailedError) thrown;
            named = failed.isExpectedDefined() && failed.isActualDefined()
                    ? new AssertionFailedError(message, failed.getExpected().getValue(), failed.getActual().getValue(),
                            failed.getCause())
                    : new AssertionFailedError(message, failed.getCause());
        } else {
            named = new AssertionError(message, thrown.getCause());
        }
        named.setStackTrace(thrown.getStackTrace());
        for (Throwable suppressed : thrown.getSuppressed()) {
            named.addSuppressed(suppressed);
        }
        throw named;
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        report(context).ifPresent(r -> r.passed(name(context)));
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        report(context).ifPresent(r -> r.failed(name(context), cause));
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        report(context).ifPresent(r -> r.skipped(name(context), cause));
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        boolean outOfScope = context.getTestMethod().map(m -> !KitRules.inScope(m, context.getRequiredTestClass()))
                .orElse(false);
        if (!outOfScope) { // a contract left to the other class (ContractScope) is not this class's to judge
            report(context).ifPresent(r -> r.disabled(name(context), reason.orElse("(no reason)")));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Optional<ConformanceReport> found = report(context);
        if (found.isEmpty()) {
            return; // the class failed before the report was opened, e.g. by a bad unverifiedRulesAllowed()
        }
        ConformanceReport report = found.get();
        String text = report.render();
        System.out.println(text);
        System.out.flush();
        write(context.getRequiredTestClass().getName(), text, report.toJson());
        List<String> failures = report.classFailures();
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures) + "\n  A rule not verified for a missing "
                    + "capability or an abort can be allowed by name, with a reason, in unverifiedRulesAllowed() of "
                    + context.getRequiredTestClass().getName() + "; a rule whose test the class replaces or "
                    + "that did not run cannot.");
        }
    }

    /** Writes the report into the directory of {@value #REPORT_DIR}, if set, as {@code <class>.txt} and {@code .json}. */
    private static void write(String testClass, String text, String json) {
        String dir = System.getProperty(REPORT_DIR);
        if (dir == null || dir.isBlank()) {
            return;
        }
        try {
            Path directory = Files.createDirectories(Path.of(dir));
            Files.writeString(directory.resolve(testClass + ".txt"), text + "\n", StandardCharsets.UTF_8);
            Files.writeString(directory.resolve(testClass + ".json"), json, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the conformance report of " + testClass + " to " + dir, e);
        }
    }

    /** @return the test's display name; an invocation of a test template is named after its template first */
    private static String name(ExtensionContext context) {
        String own = context.getDisplayName();
        return context.getParent().filter(p -> p.getTestMethod().isPresent()).map(p -> p.getDisplayName() + " " + own)
                .orElse(own);
    }

    private static Optional<ConformanceReport> report(ExtensionContext context) {
        return Optional.ofNullable(tck(context).report());
    }

    private static LockProviderTck tck(ExtensionContext context) {
        return (LockProviderTck) context.getRequiredTestInstance();
    }
}
