package org.lockspi.spring.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.lockspi.ConnectionState;
import org.lockspi.LockService;

/**
 * The health of a {@link LockService} in Actuator's terms, apart from either Spring Boot line's health API (Boot 3's
 * {@code org.springframework.boot.actuate.health}, Boot 4's {@code org.springframework.boot.health.contributor}): the
 * starter's two health indicators turn a {@link Reading} into their line's {@code Health}. Reads
 * {@link LockService#connectionState()} only (no I/O). Thread-safe.
 */
public final class LockHealth {
    /** The code of the status of a suspended connection that does not count in the overall status. */
    public static final String SUSPENDED = "SUSPENDED";
    /** The description of {@link #SUSPENDED}. */
    public static final String SUSPENDED_DESCRIPTION =
            "the lock server cannot be reached; leases are uncertain (not counted in the overall status)";

    private final LockService service;
    private final boolean suspendedAffectsStatus;

    /**
     * @param service                the service to report on
     * @param suspendedAffectsStatus whether a suspended connection is {@code OUT_OF_SERVICE} rather than
     *                               {@link #SUSPENDED}
     * @throws NullPointerException if {@code service} is null
     */
    public LockHealth(LockService service, boolean suspendedAffectsStatus) {
        this.service = Objects.requireNonNull(service, "service is null");
        this.suspendedAffectsStatus = suspendedAffectsStatus;
    }

    /**
     * One reading of the service's health.
     *
     * @param status  the status code: {@code UP}, {@link #SUSPENDED} or {@code OUT_OF_SERVICE}, {@code DOWN}
     * @param details {@code provider} and {@code connection} (the state in lower case), in that order
     */
    public record Reading(String status, Map<String, Object> details) {
        /**
         * @param suspended  the line's {@link #SUSPENDED} status
         * @param statusOf   the line's status of a code ({@code Status::new})
         * @param <S>        the line's status type
         * @return the status as the line's type: {@code suspended} for {@link #SUSPENDED}
         */
        public <S> S status(S suspended, Function<String, S> statusOf) {
            return status.equals(SUSPENDED) ? suspended : statusOf.apply(status);
        }
    }

    /** @return the health now: {@code CONNECTED} is up, {@code SUSPENDED} as configured, {@code CLOSED} down */
    public Reading read() {
        ConnectionState state = service.connectionState();
        String status = switch (state) {
            case CONNECTED -> "UP";
            case SUSPENDED -> suspendedAffectsStatus ? "OUT_OF_SERVICE" : SUSPENDED;
            case CLOSED -> "DOWN";
        };
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider", service.providerName());
        details.put("connection", state.name().toLowerCase(Locale.ROOT));
        return new Reading(status, details);
    }
}
