package org.lockspi.spring;

import org.lockspi.LockService;
import org.lockspi.spring.internal.LockHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * The Actuator health of a {@link LockService}, from its {@link LockService#connectionState()} (no I/O): the
 * starter contributes it as {@code lockspi} when Actuator is on the class path.
 * <ul>
 *   <li>{@code CONNECTED}: {@code UP};</li>
 *   <li>{@code SUSPENDED} (leases are uncertain; the session or lease may still survive, so the application is not
 *       necessarily broken, but it must not do locked work): {@link #SUSPENDED}, a status that the overall status
 *       ignores (Spring Boot's aggregation only counts the statuses of its order), so an outage of the lock
 *       server does not take every node out of a load balancer at once; or, when {@code suspendedAffectsStatus}
 *       ({@code lockspi.health.suspended-affects-status=true}), {@code OUT_OF_SERVICE}, which turns the overall
 *       status to 503;</li>
 *   <li>{@code CLOSED} (the service is gone for good; only a restart gets it back): {@code DOWN}.</li>
 * </ul>
 * Details: {@code provider} and {@code connection} (the state in lower case).
 *
 * <p>This is the indicator of Spring Boot 3 ({@code org.springframework.boot.actuate.health}); on Spring Boot 4 the
 * starter contributes {@link org.lockspi.spring.boot4.LockServiceHealthIndicator} in its place, which says the same
 * ({@link LockspiHealthAutoConfiguration}).
 */
public class LockServiceHealthIndicator implements HealthIndicator {
    /**
     * The status of a suspended connection that does not count in the overall status: {@code SUSPENDED}. It is
     * not in Spring Boot's status order ({@code management.endpoint.health.status.order}), which the aggregation
     * of a health endpoint or group filters by; HTTP status 200.
     */
    public static final Status SUSPENDED = new Status(LockHealth.SUSPENDED, LockHealth.SUSPENDED_DESCRIPTION);

    private final LockHealth health;

    /**
     * A health whose suspended connection does not count in the overall status.
     *
     * @param service the service to report on
     * @throws NullPointerException if {@code service} is null
     */
    public LockServiceHealthIndicator(LockService service) {
        this(service, false);
    }

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
