package org.lockspi.spring;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.lockspi.LockService;
import org.lockspi.redis.lettuce.RedisLettuceFairLockProvider;
import org.lockspi.redis.lettuce.RedisLettuceLockProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@link LockService} on the application's own Redis client: when Spring's Redis support made a
 * {@link LettuceConnectionFactory} (Spring Boot's Redis starter does), {@code lock-spi-redis-lettuce} is on the class
 * path, the application defines no LockService and sets no {@code lockspi.uri}, the service is
 * {@link RedisLettuceLockProvider#open(RedisClient, String) redis-lettuce} on the factory's Lettuce client (its
 * address, credentials, TLS and timeouts): no second Redis client, no second pool. {@code lockspi.provider=
 * redis-lettuce-fair} makes it first come first served; {@code lockspi.parameters.*} are the lock parameters
 * ({@code leaseTime}, {@code keyPrefix}, ...). With {@code lockspi.uri} set, {@link LockspiAutoConfiguration} opens
 * that URI instead. Meters and observations as there.
 */
@AutoConfiguration(before = LockspiAutoConfiguration.class, afterName = {
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration"})
@ConditionalOnClass({RedisLettuceLockProvider.class, LettuceConnectionFactory.class, LockService.class})
@ConditionalOnBean(LettuceConnectionFactory.class)
// only without lockspi.uri: a value no URI has, and a match when the property is missing
@ConditionalOnProperty(prefix = "lockspi", name = "uri", matchIfMissing = true, havingValue = "__never__")
@EnableConfigurationProperties(LockspiProperties.class)
public class LockspiLettuceAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockService lockService(LettuceConnectionFactory factory, LockspiProperties properties,
                            ObjectProvider<MeterRegistry> registry,
                            ObjectProvider<ObservationRegistry> observationRegistry, Environment environment) {
        String parameters = properties.parameterQuery();
        String provider = properties.getProvider() == null ? "" : properties.getProvider().strip();
        boolean fair = provider.equals(RedisLettuceFairLockProvider.NAME);
        if (!provider.isEmpty() && !fair && !provider.equals(RedisLettuceLockProvider.NAME)) {
            throw new IllegalStateException("lockspi.provider '" + provider + "' cannot use the application's "
                    + "LettuceConnectionFactory (" + RedisLettuceLockProvider.NAME + " and "
                    + RedisLettuceFairLockProvider.NAME + " can); set lockspi.uri to open it by URI");
        }
        AbstractRedisClient client = factory.getNativeClient();
        if (client == null) {
            throw new IllegalStateException("the LettuceConnectionFactory has no client yet (not started)");
        }
        LockService service;
        if (client instanceof RedisClusterClient cluster) {
            service = fair ? RedisLettuceLockProvider.openFair(cluster, parameters)
                    : RedisLettuceLockProvider.open(cluster, parameters);
        } else {
            service = fair ? RedisLettuceLockProvider.openFair((RedisClient) client, parameters)
                    : RedisLettuceLockProvider.open((RedisClient) client, parameters);
        }
        return LockspiAutoConfiguration.instrumented(service, properties, registry, observationRegistry, environment);
    }

}
