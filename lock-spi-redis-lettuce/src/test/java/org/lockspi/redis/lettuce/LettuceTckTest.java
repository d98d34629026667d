package org.lockspi.redis.lettuce;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.ExternalBackend;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * The conformance kit for {@code redis-lettuce} against a real Redis: the embedded server, or the one named by
 * {@code -Dlockspi.tck.uri=redis://host:port/db}. A 3 s lease keeps the crash and loss contracts fast; the
 * parameters and allowances are the Jedis provider's ({@code RedisTckTest}).
 */
class LettuceTckTest extends LockProviderTck {
    static final String PARAMETERS = "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    static final String NO_PARENTS_REASON = "Redis keeps no parent nodes; the fencing counter expires by itself";
    static final Map<String, String> UNVERIFIABLE = Map.of("§13.4", NO_PARENTS_REASON, "§13.5", NO_PARENTS_REASON,
            "§13.6", "Redis counters start at 0 and the backend cannot raise those of locks it does not know yet; "
                    + "this provider's tokens carry the server's TIME in microseconds as a floor, above 2^32 from "
                    + "the first (LettuceProviderTest checks it)");

    @Override
    public LockProvider provider() {
        return new RedisLettuceLockProvider();
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

    /** The lease time, a renewal interval of slack and a few back-off pauses. */
    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return UNVERIFIABLE;
    }
}
