package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.redis.lettuce.RedisLettuceFairLockProvider;
import org.lockspi.redis.lettuce.RedisLettuceLockProvider;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * With Spring's Redis support on Lettuce and no {@code lockspi.uri}, the LockService is {@code redis-lettuce} on the
 * application's {@code LettuceConnectionFactory} client, against a real (embedded) Redis: it excludes a Jedis client
 * on the same lock; {@code lockspi.provider} picks the fair variant; {@code lockspi.uri} still wins.
 */
class LettuceConnectionFactoryTest {
    private static EmbeddedRedisBackend redis;

    @BeforeAll
    static void start() {
        redis = EmbeddedRedisBackend.start();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    private static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SpringBootLine.REDIS_AUTO_CONFIGURATION,
                        LockspiLettuceAutoConfiguration.class, LockspiAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                        "lockspi.parameters.leaseTime=3s", "lockspi.parameters.socketTimeout=1s",
                        "lockspi.parameters.failFast=1s", // the engine's, passed with the provider's own
                        "lockspi.metrics.enabled=false");
    }

    @Test
    void theServiceUsesTheApplicationsLettuceClient() {
        runner().run(context -> {
            LockService locks = context.getBean(LockService.class);
            assertEquals(RedisLettuceLockProvider.NAME, locks.providerName());
            assertTrue(locks.toString().contains("application's Lettuce RedisClient"), locks.toString());
            try (LockService jedis = Locks.open(redis.uri() + "?leaseTime=3s&socketTimeout=1s",
                    new RedisLockProvider());
                 Lease lease = locks.mutex("spring-lettuce").acquire(Duration.ofSeconds(5))) {
                assertTrue(jedis.mutex("spring-lettuce").tryAcquire().isEmpty(), "a Jedis client got the lock");
                assertTrue(context.getBean(LockTemplate.class) != null);
            }
        });
        assertEquals(java.util.List.of(), redis.residue("spring-lettuce"), "keys left after the context closed");
    }

    @Test
    void theFairVariantAndAnExplicitUri() {
        runner().withPropertyValues("lockspi.provider=" + RedisLettuceFairLockProvider.NAME).run(context ->
                assertEquals(RedisLettuceFairLockProvider.NAME, context.getBean(LockService.class).providerName()));
        runner().withPropertyValues("lockspi.uri=" + redis.uri(), "lockspi.provider=" + RedisLockProvider.NAME)
                .run(context -> assertEquals(RedisLockProvider.NAME,
                        context.getBean(LockService.class).providerName()));
        runner().withPropertyValues("lockspi.provider=zookeeper-raw").run(context -> {
            assertTrue(context.getStartupFailure() != null, "a provider that cannot use the factory was accepted");
            assertTrue(String.valueOf(context.getStartupFailure()).contains("zookeeper-raw"),
                    String.valueOf(context.getStartupFailure()));
        });
    }

    /** Parameters scoped to the provider opened on the factory apply; those of other providers are left out. */
    @Test
    void scopedParametersOfTheLettuceProviderApplyAndOthersAreLeftOut() {
        runner().withPropertyValues("lockspi.parameters.redis-lettuce.keyPrefix=scoped:",
                        "lockspi.parameters.redis-lettuce-fair.keyPrefix=fair:",
                        "lockspi.parameters.zookeeper.sessionTimeout=10s", "lockspi.parameters.jdbc.tablePrefix=x_")
                .run(context -> {
                    LockService locks = context.getBean(LockService.class);
                    try (LockService scoped = Locks.open(redis.uri() + "?keyPrefix=scoped:&leaseTime=3s",
                            new RedisLockProvider());
                         LockService unscoped = Locks.open(redis.uri() + "?leaseTime=3s", new RedisLockProvider());
                         Lease lease = locks.mutex("spring-scoped").acquire(Duration.ofSeconds(5))) {
                        assertTrue(scoped.mutex("spring-scoped").tryAcquire().isEmpty(),
                                "the lock is under the redis-lettuce keyPrefix");
                        unscoped.mutex("spring-scoped").tryAcquire().orElseThrow(() -> new AssertionError(
                                "the lock is not under the default prefix")).release();
                    }
                });
    }
}
