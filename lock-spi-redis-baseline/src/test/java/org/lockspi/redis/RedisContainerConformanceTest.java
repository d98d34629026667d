package org.lockspi.redis;

import java.time.Duration;
import java.util.HashMap;
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
class RedisContainerConformanceTest extends LockProviderTck {
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

    /** The lease time of {@link #clientParameters()}. */
    @Override
    public Duration leaseSpan() {
        return Duration.ofSeconds(3);
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(6);
    }

    /** The container cannot be restarted by the kit (same port, same data), nor give the §24 faults. */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        String restart = "the kit cannot restart a server in a container on the same port";
        Map<String, String> allowed = new HashMap<>(RedisTckTest.UNVERIFIABLE);
        for (String rule : new String[] {"§13.3", "§16.1", "§16.2", "§17.3", "§18.4", "§18.5"}) {
            allowed.put(rule, restart);
        }
        String messages = "the container backend offers neither the wire framing nor the session list (the server in "
                + "a container sees Docker's gateway, not the proxy's address); RedisTckTest runs §24 on one instance";
        for (String rule : new String[] {"§24.1", "§24.2", "§24.3", "§24.4", "§24.5"}) {
            allowed.put(rule, messages);
        }
        return allowed;
    }
}
