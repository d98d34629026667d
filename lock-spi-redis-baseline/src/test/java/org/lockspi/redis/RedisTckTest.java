package org.lockspi.redis;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.ExternalBackend;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * The conformance kit against a real Redis: the embedded server, or the one named by
 * {@code -Dlockspi.tck.uri=redis://host:port/db}. A 3 s lease keeps the crash and loss contracts fast.
 */
class RedisTckTest extends LockProviderTck {
    static final String PARAMETERS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    static final Map<String, String> UNVERIFIABLE = Map.of("§13.6", "Redis counters start at 0 and the backend cannot raise those of locks it does not know yet; "
                    + "this provider's tokens carry the server's TIME in ms as a floor, above 2^32 from the first "
                    + "(RedisProviderTest checks it)");

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        String external = System.getProperty(ExternalBackend.URI_PROPERTY);
        return external == null || external.isBlank() ? EmbeddedRedisBackend.start() : ExternalBackend.of(external);
    }

    @Override
    protected String clientParameters() {
        return PARAMETERS;
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

    /**
     * Redis counters start at 0, and the backend cannot raise those of locks it does not know yet (the provider's
     * tokens carry the server's clock as a floor instead).
     */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return UNVERIFIABLE;
    }
}
