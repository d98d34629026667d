package org.lockspi.tck;

import java.time.Duration;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.spi.LockProvider;

/**
 * What every contract of the TCK gets from the provider's test class. Contracts are interfaces extending this
 * one, with {@code default} JUnit test methods; {@link LockProviderTck} implements them all.
 */
public interface TckContext {

    /** @return the provider under test */
    LockProvider provider();

    /** @return the started backend */
    TckBackend backend();

    /** @return the URI clients open, the backend's URI plus the provider's parameters */
    String clientUri();

    /**
     * Opens a new client (a separate {@link LockService}, hence a separate session) with the provider under test;
     * the TCK closes it after the test.
     *
     * @return the open service
     */
    LockService openClient();

    /**
     * Opens a new client like {@link #openClient()}, at another URI (the client URI rewritten to a proxy, say);
     * the TCK closes it after the test.
     *
     * @param uri the URI to open, with the provider's parameters
     * @return the open service
     */
    LockService openClient(String uri);

    /**
     * @param base a readable stem
     * @return a lock name unique to this test run, of the readable form (its own backend key)
     */
    String uniqueName(String base);

    /**
     * @return the lease span {@code T}: how long the server keeps a silent client's locks (the session timeout
     *         or lease time of {@link #clientUri()}), as the provider's test class declares it
     */
    Duration leaseSpan();

    /** @return how long after a holder dies the lock must be free: session timeout or lease time plus a margin */
    Duration crashReleaseBound();

    /**
     * The provider's documented bound on {@code release()} and {@code close()} when the server cannot be told (the
     * ZooKeeper providers: {@code min(connectTimeout, sessionTimeout / 2)}). §17.3 and §17.5 allow it plus 2 s
     * during an outage; §24.2 and §24.5 bound by it too.
     *
     * @return the bound; by default half the crash-release bound
     */
    default Duration releaseBound() {
        return crashReleaseBound().dividedBy(2);
    }

    /**
     * Skips the calling test, with a reason naming the feature, unless the provider declares it.
     *
     * @param feature the feature the test needs
     */
    void requireFeature(LockFeature feature);

    /**
     * Skips the calling test, with a reason naming the capability, unless the backend offers it. Such a test is
     * <em>not verified</em> (not merely skipped): the conformance report counts it, and the run fails unless the
     * provider's class allows the rule by name. Call it after every {@link #requireFeature} of the test, so that
     * a rule about a feature the provider does not declare is skipped for the feature.
     *
     * @param capability the capability the test needs
     * @throws org.lockspi.tck.report.CapabilityMissing if the backend lacks it
     */
    void requireCapability(TckBackend.Capability capability);
}
