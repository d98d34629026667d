package org.lockspi.spring;

import java.util.Locale;
import java.util.Objects;
import org.lockspi.ConnectionState;
import org.lockspi.LockService;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The Actuator health of a {@link LockService}, from its {@link LockService#connectionState()} (no I/O): the
 * starter contributes it as {@code lockspi} when Actuator is on the class path.
 * <ul>
 *   <li>{@code CONNECTED}: {@code UP};</li>
 *   <li>{@code SUSPENDED}: {@code OUT_OF_SERVICE} (leases are uncertain; the session or lease may still survive,
 *       so the application is not necessarily broken, but it must not do locked work);</li>
 *   <li>{@code CLOSED}: {@code DOWN}.</li>
 * </ul>
 * Details: {@code provider} and {@code connection} (the state in lower case).
 */
public class LockServiceHealthIndicator implements HealthIndicator {
    private final LockService service;

    /**
     * @param service the service to report on
     * @throws NullPointerException if {@code service} is null
     */
    public LockServiceHealthIndicator(LockService service) {
        this.service = Objects.requireNonNull(service, "service is null");
    }

    @Override
    public Health health() {
        ConnectionState state = service.connectionState();
        Health.Builder health = switch (state) {
            case CONNECTED -> Health.up();
            case SUSPENDED -> Health.outOfService();
            case CLOSED -> Health.down();
        };
        return health.withDetail("provider", service.providerName())
                .withDetail("connection", state.name().toLowerCase(Locale.ROOT)).build();
    }
}
