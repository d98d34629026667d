package org.lockspi.tck.report;

import org.opentest4j.TestAbortedException;

/**
 * Skips a test because the rule it checks does not apply to what the provider declares: a rule about a feature
 * the provider does not declare (an honest absence, which §9 turns around), or a rule about the absence of a
 * feature the provider does declare. Such a rule is <em>skipped</em> in the {@link ConformanceReport}; it is the
 * only skip the report accepts as an answer. Any other abort (an assumption of a backend, a disabled test) leaves
 * its rule <em>not verified</em>.
 *
 * <p>Thrown by the kit's own checks ({@code TckContext.requireFeature}, {@code Checks.requireAbsent}, ...), never
 * by a backend or a provider's test class.
 */
public final class NotApplicable extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message the skip reason, naming the provider and the feature it declares or does not
     */
    public NotApplicable(String message) {
        super(message);
    }
}
