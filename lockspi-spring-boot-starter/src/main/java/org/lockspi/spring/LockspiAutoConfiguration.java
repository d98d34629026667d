package org.lockspi.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.micrometer.LockMetrics;
import org.lockspi.micrometer.LockObservations;
import org.lockspi.spring.internal.LockspiAdvisingPostProcessor;
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
 *       {@link Locks#open(String, String)} from {@code lockspi.uri}, {@code lockspi.parameters.*} and
 *       {@code lockspi.provider}, observed with {@link LockObservations} through the application's
 *       {@link ObservationRegistry} if there is one (unless {@code lockspi.observations.enabled=false}), bound with
 *       {@link LockMetrics} to the application's {@link MeterRegistry} if there is one (unless
 *       {@code lockspi.metrics.enabled=false}), closed with the context;</li>
 *   <li>(in {@link LockspiJdbcAutoConfiguration}) {@link LockService} on the application's own
 *       {@code DataSource}, when {@code lockspi.provider=jdbc} and no {@code lockspi.uri} is set;</li>
 *   <li>{@link LockTemplate}, when there is a LockService and no template;</li>
 *   <li>the interception of {@link Locked} and {@link ScheduledLock} methods;</li>
 *   <li>(in {@link LockspiHealthAutoConfiguration}) {@link LockServiceHealthIndicator} as {@code lockspi}, when
 *       Actuator is on the class path.</li>
 * </ul>
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
        String provider = properties.getProvider();
        LockService service = Locks.open(properties.effectiveUri(),
                provider == null || provider.isBlank() ? null : provider.strip());
        return instrumented(service, properties, registry, observationRegistry, environment);
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
