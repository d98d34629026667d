package org.lockspi.spring.boot4;

import org.lockspi.LockService;
import org.lockspi.spring.internal.LockHealth;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The Actuator health of a {@link LockService} on Spring Boot 4 ({@code org.springframework.boot.health}), as
 * {@link org.lockspi.spring.LockServiceHealthIndicator} is on Spring Boot 3: {@code UP} while connected, {@code DOWN}
 * once closed, and while suspended {@link #SUSPENDED} (not counted in the overall status) or, when
 * {@code suspendedAffectsStatus}, {@code OUT_OF_SERVICE}. Details: {@code provider} and {@code connection}. Reads
 * {@link LockService#connectionState()} only (no I/O). The starter contributes it as {@code lockspi} when Spring
 * Boot 4's health support ({@code spring-boot-health}, part of {@code spring-boot-starter-actuator}) is on the class
 * path ({@link org.lockspi.spring.LockspiHealthAutoConfiguration}).
 */
public class LockServiceHealthIndicator implements HealthIndicator {
    /**
     * The status of a suspended connection that does not count in the overall status: {@code SUSPENDED}, outside
     * Spring Boot's status order ({@code management.endpoint.health.status.order}); HTTP status 200.
     */
    public static final Status SUSPENDED = new Status(LockHealth.SUSPENDED, LockHealth.SUSPENDED_DESCRIPTION);

    private final LockHealth health;

    /**
     * @param service                the service to report on
     * @param suspendedAffectsStatus whether a suspended connection is {@code OUT_OF_SERVICE} (counted in the
     *                               overall status) rather than {@link #SUSPENDED} (not counted)
     * @throws NullPointerException if {@code service} is null
     */
    public LockServiceHealthIndicator(LockService service, boolean suspendedAffectsStatus) {
        this.health = new LockHealth(service, suspendedAffectsStatus);
    }

    @Override
    public Health health() {
        LockHealth.Reading reading = health.read();
        return Health.status(reading.status(SUSPENDED, Status::new)).withDetails(reading.details()).build();
    }
}
