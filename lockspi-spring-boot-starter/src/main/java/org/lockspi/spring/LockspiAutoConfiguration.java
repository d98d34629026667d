package org.lockspi.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.ProviderSelectionException;
import org.lockspi.micrometer.LockMetrics;
import org.lockspi.micrometer.LockObservations;
import org.lockspi.spring.internal.LockspiAdvisingPostProcessor;
import org.lockspi.spring.internal.LockspiConfigurationException;
import org.lockspi.spring.internal.ProviderParameters;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The starter's auto-configuration.
 * <ul>
 *   <li>{@link LockService}, when {@code lockspi.uri} is set and the application defines none: opened with
 *       {@link Locks#open(String, String)} from {@code lockspi.uri}, the {@code lockspi.parameters.*}
 *       that apply to the provider chosen ({@link ProviderParameters}) and {@code lockspi.provider}, observed with {@link LockObservations} through the application's
 *       {@link ObservationRegistry} if there is one (unless {@code lockspi.observations.enabled=false}), bound with
 *       {@link LockMetrics} to the application's {@link MeterRegistry} if there is one (unless
 *       {@code lockspi.metrics.enabled=false}), closed with the context;</li>
 *   <li>(in {@link LockspiJdbcAutoConfiguration}) {@link LockService} on the application's own
 *       {@code DataSource}, when {@code lockspi.provider=jdbc} and no {@code lockspi.uri} is set;</li>
 *   <li>{@link LockTemplate}, when there is a LockService and no template;</li>
 *   <li>the interception of {@link Locked} and {@link ScheduledLock} methods;</li>
 *   <li>(in {@link LockspiHealthAutoConfiguration}) {@link LockServiceHealthIndicator} as {@code lockspi}, when
 *       Actuator is on the class path; on Spring Boot 4, whose health API moved,
 *       {@link org.lockspi.spring.boot4.LockServiceHealthIndicator}.</li>
 * </ul>
 *
 * <p>The starter is one jar for Spring Boot 3.5 and 4.0: everything but the health indicator names classes both
 * lines have, and each line's health indicator applies only where that line's health API is on the class path.
 */
@AutoConfiguration
@ConditionalOnClass(LockService.class)
@EnableConfigurationProperties(LockspiProperties.class)
public class LockspiAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "lockspi", name = "uri")
    LockService lockService(LockspiProperties properties, ObjectProvider<MeterRegistry> registry,
                            ObjectProvider<ObservationRegistry> observationRegistry, Environment environment) {
        return instrumented(open(properties), properties, registry, observationRegistry, environment);
    }

    /**
     * Opens {@code lockspi.uri} with the parameters of the provider it chooses; a configuration the library
     * refuses fails with {@link LockspiConfigurationException}, naming the property and the fix.
     */
    private static LockService open(LockspiProperties properties) {
        String pinned = properties.pinnedProvider();
        String uri = properties.effectiveUri();
        try {
            return Locks.open(uri, pinned);
        } catch (ProviderSelectionException e) {
            throw new LockspiConfigurationException(pinned != null ? "lockspi.provider" : "lockspi.uri",
                    e.getMessage(), pinned != null
                    ? "Set lockspi.provider to one of the installed providers above that serves the URI's scheme, "
                            + "or remove it to choose by the scheme."
                    : "Put a provider for the URI's scheme on the class path (lock-spi-curator for zookeeper://, "
                            + "lock-spi-redis-baseline for redis://, lock-spi-jdbc for jdbc+postgresql://), or "
                            + "pin one of those installed with lockspi.provider.", e);
        } catch (IllegalArgumentException e) {
            throw ProviderParameters.refused(properties.getParameters(), e, "lockspi.uri");
        }
    }

    /**
     * Observes a service the starter opened through the application's {@link ObservationRegistry} and binds it to
     * its {@link MeterRegistry}, each if there is one and it is enabled; closes the service if that fails.
     */
    static LockService instrumented(LockService service, LockspiProperties properties,
                                    ObjectProvider<MeterRegistry> registry,
                                    ObjectProvider<ObservationRegistry> observationRegistry, Environment environment) {
        MeterRegistry meters = properties.getMetrics().isEnabled() ? registry.getIfAvailable() : null;
        ObservationRegistry observations = properties.getObservations().isEnabled()
                ? observationRegistry.getIfAvailable() : null;
        String name = properties.getMetrics().getServiceName();
        if (name == null || name.isBlank()) {
            name = environment.getProperty("spring.application.name", LockMetrics.DEFAULT_SERVICE);
        }
        try {
            LockService bound = service;
            if (observations != null) {
                bound = LockObservations.builder(observations).service(name).bind(bound);
            }
            if (meters != null) {
                bound = LockMetrics.builder(meters).service(name)
                        .maxLockNames(properties.getMetrics().getMaxLockNames()).bind(bound);
            }
            return bound;
        } catch (RuntimeException e) {
            service.close();
            throw e;
        }
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(LockService.class)
    LockTemplate lockTemplate(LockService service, LockspiProperties properties) {
        return new LockTemplate(service, properties.getLocked().getWaitFor());
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static LockspiAdvisingPostProcessor lockspiAdvisingPostProcessor() {
        return new LockspiAdvisingPostProcessor();
    }
}
