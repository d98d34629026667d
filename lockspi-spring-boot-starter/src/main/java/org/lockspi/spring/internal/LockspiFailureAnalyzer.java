package org.lockspi.spring.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The start-up report of a {@link LockspiConfigurationException}: the property, what is wrong, and the fix, in
 * place of the exception five causes deep. Registered in {@code META-INF/spring.factories}.
 */
public final class LockspiFailureAnalyzer extends AbstractFailureAnalyzer<LockspiConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LockspiConfigurationException cause) {
        return new FailureAnalysis("The lock service could not be configured from " + cause.getMessage(),
                cause.action(), cause);
    }
}
