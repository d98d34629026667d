package org.lockspi.spring;

import org.lockspi.LockService;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Contributes a health indicator as the health component {@code lockspi}, when Actuator is on the class path and
 * there is a {@link LockService} (the starter's or the application's own);
 * {@code lockspi.health.suspended-affects-status} says whether a suspended connection counts in the overall status.
 * Spring Boot 4 moved the health API out of {@code spring-boot-actuator}, so there is one indicator per line, each
 * in a configuration of its own that applies only where its line's API is on the class path (and is not loaded
 * elsewhere): {@link LockServiceHealthIndicator} on Spring Boot 3, {@link org.lockspi.spring.boot4.LockServiceHealthIndicator}
 * on Spring Boot 4. An application's own bean named {@code lockspiHealthIndicator} replaces it on either.
 */
@AutoConfiguration(after = LockspiAutoConfiguration.class)
@ConditionalOnBean(LockService.class)
@EnableConfigurationProperties(LockspiProperties.class)
public class LockspiHealthAutoConfiguration {

    /** Spring Boot 3: {@code org.springframework.boot.actuate.health}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class Boot3 {
        @Bean
        @ConditionalOnMissingBean(name = "lockspiHealthIndicator")
        LockServiceHealthIndicator lockspiHealthIndicator(LockService service, LockspiProperties properties) {
            return new LockServiceHealthIndicator(service, properties.getHealth().isSuspendedAffectsStatus());
        }
    }

    /** Spring Boot 4: {@code org.springframework.boot.health.contributor} (spring-boot-health). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Boot4 {
        @Bean
        @ConditionalOnMissingBean(name = "lockspiHealthIndicator")
        org.lockspi.spring.boot4.LockServiceHealthIndicator lockspiHealthIndicator(LockService service,
                                                                                   LockspiProperties properties) {
            return new org.lockspi.spring.boot4.LockServiceHealthIndicator(service,
                    properties.getHealth().isSuspendedAffectsStatus());
        }
    }
}
