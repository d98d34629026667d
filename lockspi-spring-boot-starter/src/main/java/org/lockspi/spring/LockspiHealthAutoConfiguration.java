package org.lockspi.spring;

import org.lockspi.LockService;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Contributes {@link LockServiceHealthIndicator} as the health component {@code lockspi}, when Actuator is on the
 * class path and there is a {@link LockService} (the starter's or the application's own).
 */
@AutoConfiguration(after = LockspiAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
@ConditionalOnBean(LockService.class)
public class LockspiHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "lockspiHealthIndicator")
    LockServiceHealthIndicator lockspiHealthIndicator(LockService service) {
        return new LockServiceHealthIndicator(service);
    }
}
