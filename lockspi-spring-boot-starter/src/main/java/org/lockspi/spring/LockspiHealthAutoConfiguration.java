package org.lockspi.spring;

import org.lockspi.LockService;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Contributes {@link LockServiceHealthIndicator} as the health component {@code lockspi}, when Actuator is on the
 * class path and there is a {@link LockService} (the starter's or the application's own);
 * {@code lockspi.health.suspended-affects-status} says whether a suspended connection counts in the overall status.
 */
@AutoConfiguration(after = LockspiAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(LockService.class)
@EnableConfigurationProperties(LockspiProperties.class)
public class LockspiHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "lockspiHealthIndicator")
    LockServiceHealthIndicator lockspiHealthIndicator(LockService service, LockspiProperties properties) {
        return new LockServiceHealthIndicator(service, properties.getHealth().isSuspendedAffectsStatus());
    }
}
