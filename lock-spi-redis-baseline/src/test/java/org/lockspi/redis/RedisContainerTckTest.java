package org.lockspi.redis;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.containers.RedisContainerBackend;
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
}
