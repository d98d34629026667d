package org.lockspi.spring;

import org.lockspi.LockService;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Contributes the Actuator endpoint {@link LocksEndpoint} ({@code locks}) when Actuator is on the class path, there
 * is a {@link LockService}, and the endpoint is available: exposed ({@code management.endpoints.web.exposure.include}
 * names it, or {@code management.endpoints.jmx.exposure.include} with {@code spring.jmx.enabled=true}) and its
 * access not switched off ({@code management.endpoint.locks.access=none}).
 */
@AutoConfiguration(after = LockspiAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
        "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
@ConditionalOnBean(LockService.class)
@ConditionalOnAvailableEndpoint(endpoint = LocksEndpoint.class)
public class LockspiEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LocksEndpoint locksEndpoint(LockService service, LockspiProperties properties) {
        LockspiProperties.Endpoint endpoint = properties.getEndpoint();
        return new LocksEndpoint(service, endpoint.isRevokeEnabled(), endpoint.getRevokeTimeout());
    }
}
