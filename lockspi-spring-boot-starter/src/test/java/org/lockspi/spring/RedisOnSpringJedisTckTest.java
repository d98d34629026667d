package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * The Redis provider's conformance kit on the Jedis that Spring Boot's dependency management picks (6.0.0 under
 * Spring Boot 3.5, 7.0.0 under 4.0; the rest of the build tests on 8.0.2), with the parameters of the provider's own
 * {@code RedisTckTest}. The build says which it expects ({@code lockspi.expectedJedis}); the extended profile runs it
 * on Spring Boot 3.5's, and the {@code redis-clients-boot40} profile the provider's own kit on Boot 4.0's.
 */
class RedisOnSpringJedisTckTest extends LockProviderTck {

    @Test
    @DisplayName("runs on the Jedis version Spring Boot manages")
    void jedisIsSpringBootsVersion() throws Exception {
        // the jar's pom.properties says which Jedis is on the class path
        java.util.Properties pom = new java.util.Properties();
        try (var in = redis.clients.jedis.Jedis.class.getResourceAsStream(
                "/META-INF/maven/redis.clients/jedis/pom.properties")) {
            pom.load(in);
        }
        assertEquals(System.getProperty("lockspi.expectedJedis", "6.0.0"), pom.getProperty("version"));
    }

    @Override
    public LockProvider provider() {
        return new RedisLockProvider();
    }

    @Override
    protected TckBackend startBackend() {
        return EmbeddedRedisBackend.start();
    }

    @Override
    protected String clientParameters() {
        return "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
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

    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return Map.of("§13.6", "Redis counters start at 0; the provider's tokens carry the server's TIME as a floor");
    }
}
