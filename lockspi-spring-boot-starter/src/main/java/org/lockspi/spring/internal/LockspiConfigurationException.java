package org.lockspi.spring.internal;

import java.util.Objects;

/**
 * A {@code lockspi.*} property that cannot open a {@link org.lockspi.LockService}: which property, what is wrong
 * with it and how to fix it. {@link LockspiFailureAnalyzer} turns it into Spring Boot's start-up report.
 */
public final class LockspiConfigurationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final String property;
    private final String action;

    /**
     * @param property    the property at fault, e.g. {@code lockspi.parameters.leaseTime}
     * @param description what is wrong, with the value where it is no secret
     * @param action      how to fix it
     * @param cause       the failure of the library, or null
     */
    public LockspiConfigurationException(String property, String description, String action, Throwable cause) {
        super(property + ": " + description, cause);
        this.property = Objects.requireNonNull(property, "property");
        this.action = Objects.requireNonNull(action, "action");
    }

    /** @return the property at fault */
    public String property() {
        return property;
    }

    /** @return how to fix it */
    public String action() {
        return action;
    }
}
