package org.lockspi.redis;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.RedisContainerBackend;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The conformance kit against another Redis version in a container ({@code redis:7.4-alpine} unless
 * {@code -Dlockspi.tck.redis.image=...}). Skipped, with that reason, where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class RedisContainerTckTest extends LockProviderTck {
    /** The system property naming the image: {@value}. */
    static final String IMAGE_PROPERTY = "lockspi.tck.redis.image";

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return RedisContainerBackend.start(System.getProperty(IMAGE_PROPERTY, "redis:7.4-alpine"));
    }

    @Override
    protected String clientParameters() {
        return RedisTckTest.PARAMETERS;
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    /** The container cannot be restarted by the kit (same port, same data), and Redis has no parent nodes. */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        String restart = "the kit cannot restart a server in a container on the same port";
        return Map.of("§13.3", restart, "§16.1", restart,
                "§13.4", RedisTckTest.NO_PARENTS_REASON, "§13.5", RedisTckTest.NO_PARENTS_REASON);
    }
}
