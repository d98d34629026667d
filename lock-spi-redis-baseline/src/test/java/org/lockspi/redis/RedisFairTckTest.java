package org.lockspi.redis;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.ExternalBackend;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * The conformance kit for {@code redis-fair} (first-come first-served mutexes) against a real Redis: the embedded
 * server, or the one named by {@code -Dlockspi.tck.uri=redis://host:port/db}; the same parameters and allowances as
 * {@link RedisTckTest}, plus the fairness rules (§14.1) that {@code FAIR} turns on.
 */
class RedisFairTckTest extends LockProviderTck {

    @Override
    public LockProvider provider() {
        return new RedisFairLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        String external = System.getProperty(ExternalBackend.URI_PROPERTY);
        return external == null || external.isBlank() ? EmbeddedRedisBackend.start() : ExternalBackend.of(external);
    }

    @Override
    protected String clientParameters() {
        return RedisTckTest.PARAMETERS;
    }

    /** The lease time of {@link #clientParameters()}. */
    @Override
    public Duration leaseSpan() {
        return Duration.ofSeconds(3);
    }

    /** The lease time, a renewal interval of slack and a few back-off pauses. */
    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    /** As {@link RedisTckTest#unverifiedRulesAllowed()}. */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return RedisTckTest.UNVERIFIABLE;
    }
}
