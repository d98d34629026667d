package org.lockspi.tck;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
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

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        List<String> catalogue = ReflectionSupport.findMethods(testClass,
                m -> AnnotationSupport.isAnnotated(m, Testable.class), HierarchyTraversalMode.TOP_DOWN).stream()
                .map(ConformanceWatcher::displayName).distinct().collect(Collectors.toList());
        tck(context).openReport(catalogue);
    }

    private static String displayName(Method method) {
        return AnnotationSupport.findAnnotation(method, DisplayName.class).map(DisplayName::value)
                .orElse(method.getName() + "()");
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (!(thrown instanceof AssertionError) || String.valueOf(thrown.getMessage()).startsWith("§")) {
            throw thrown;
        }
        String message = name(context) + ": " + thrown.getMessage();
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
        report(context).ifPresent(r -> r.skipped(name(context), null));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Optional<ConformanceReport> report = report(context);
        if (report.isEmpty()) {
            return; // the class failed before the report was opened, e.g. by a bad unverifiedRulesAllowed()
        }
        System.out.println(report.get().render());
        System.out.flush();
        Optional<String> verdict = report.get().unverifiedVerdict();
        if (verdict.isPresent()) {
            throw new AssertionError(verdict.get() + "\n  Only a backend with the missing capabilities can verify "
                    + "them. If a run without them is intended, allow each rule by name, with a reason, in "
                    + "unverifiedRulesAllowed() of " + context.getRequiredTestClass().getName() + ".");
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
