package org.lockspi.tck.report;

import java.util.Objects;
import org.lockspi.tck.TckBackend;
import org.opentest4j.TestAbortedException;

/**
 * Skips a test because the backend lacks a {@link TckBackend.Capability capability} the test needs, while the
 * provider declares every feature the test is about. Unlike a skip for a feature the provider does not declare
 * (an honest absence), such a rule is <em>not verified</em>: the {@link ConformanceReport} counts it, and a run
 * that leaves such rules unverified fails unless the provider's test class allows each by name.
 *
 * <p>Thrown by {@code TckContext.requireCapability}; a test calls it after its {@code requireFeature} calls, so
 * that a rule about an undeclared feature is skipped for the feature, not for the capability.
 */
public final class CapabilityMissing extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    private final transient TckBackend.Capability capability;

    /**
     * @param capability the capability the backend lacks
     * @param message    the skip reason, naming the backend, the capability and the provider
     */
    public CapabilityMissing(TckBackend.Capability capability, String message) {
        super(message);
        this.capability = Objects.requireNonNull(capability, "capability");
    }

    /** @return the capability the backend lacks */
    public TckBackend.Capability capability() {
        return capability;
    }
}
