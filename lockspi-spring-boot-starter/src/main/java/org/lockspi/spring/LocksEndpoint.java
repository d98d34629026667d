package org.lockspi.spring;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.lang.Nullable;

/**
 * The Actuator endpoint {@code locks}: read-only views of the locks on the server, as {@code lock-cli}'s
 * {@code list} and {@code holders} show them. {@code GET /actuator/locks?prefix=jobs/} lists the names of the
 * locks with a holder or a waiter; {@code GET /actuator/locks/jobs/nightly-report} shows one lock's holders
 * (fencing token, since when, whether this node holds it) and waiters. Nothing is acquired or changed.
 *
 * <p>Like every endpoint it is reachable only once exposed ({@code management.endpoints.web.exposure.include=locks});
 * the names of locks are data ({@code orders/42}), so expose it where the health details would be. Each call reads
 * the server ({@link LockService#list(String)}, {@link LockService#inspect(String)}): for operators, not for a hot
 * path. A provider without {@link LockFeature#INSPECTION} answers with {@code inspection: false} and no names.
 *
 * <p>{@code DELETE /actuator/locks/jobs/nightly-report?token=42} revokes the holder with that fencing token
 * ({@link LockService#revoke(String, long, java.time.Duration, String)}, spec §27), but only where the application
 * switched it on ({@code lockspi.endpoint.revoke-enabled=true}, off by default: it answers 400 otherwise) and the
 * holder's own service opted in ({@code revocable=true}). The caller's principal, if any, is the requester named in
 * the audit line and the holder's log; restrict the operation with Actuator's access control
 * ({@code management.endpoint.locks.access=read-only} keeps it off whatever the property says).
 */
@Endpoint(id = "locks")
public class LocksEndpoint {
    private final LockService service;
    private final boolean revokeEnabled;
    private final java.time.Duration revokeTimeout;

    /**
     * A read-only endpoint: its DELETE operation answers 400.
     *
     * @param service the service whose server is read
     * @throws NullPointerException if {@code service} is null
     */
    public LocksEndpoint(LockService service) {
        this(service, false, java.time.Duration.ofSeconds(10));
    }

    /**
     * @param service       the service whose server is read
     * @param revokeEnabled whether the DELETE operation revokes
     * @param revokeTimeout how long a revocation waits for the holder to let go
     * @throws NullPointerException if an argument is null
     */
    public LocksEndpoint(LockService service, boolean revokeEnabled, java.time.Duration revokeTimeout) {
        this.service = Objects.requireNonNull(service, "service is null");
        this.revokeEnabled = revokeEnabled;
        this.revokeTimeout = Objects.requireNonNull(revokeTimeout, "revokeTimeout is null");
    }

    /**
     * @param prefix the start of the names to list; none: all
     * @return the provider and the names of the locks with a holder or a waiter, sorted
     * @throws org.lockspi.LockConnectionException if the server cannot be read
     */
    @ReadOperation
    public Names locks(@Nullable String prefix) {
        String start = prefix == null ? "" : prefix;
        boolean inspection = service.features().contains(LockFeature.INSPECTION);
        return new Names(service.providerName(), inspection, start, inspection ? service.list(start) : List.of());
    }

    /**
     * @param name the lock's name, its {@code /}-separated parts as the path gives them
     * @return the lock as the server shows it now
     * @throws InvalidEndpointRequestException if the name is not a lock name (HTTP 400)
     * @throws org.lockspi.LockConnectionException if the server cannot be read
     */
    @ReadOperation
    public Lock lock(@Selector(match = Selector.Match.ALL_REMAINING) String[] name) {
        String joined = String.join("/", name);
        if (!service.features().contains(LockFeature.INSPECTION)) {
            throw new InvalidEndpointRequestException("provider '" + service.providerName()
                    + "' cannot inspect locks", "no inspection");
        }
        LockInfo info;
        try {
            info = service.inspect(joined);
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
        }
        List<Holder> holders = info.holders().stream().map(h -> new Holder(h.mode().name(),
                h.fencingToken().isPresent() ? h.fencingToken().getAsLong() : null,
                h.since().map(Instant::toString).orElse(null), h.own())).toList();
        return new Lock(info.name(), service.providerName(), info.kind().name(), holders, info.waiters(),
                info.permitsInUse());
    }

    /**
     * Revokes the holder of a lock with a fencing token (spec §27).
     *
     * @param name      the lock's name, its {@code /}-separated parts as the path gives them
     * @param token     the holder's fencing token, as {@link #lock(String[])} shows it
     * @param principal the caller, if authenticated: the requester in the audit line
     * @return the outcome: {@code revoked}, {@code no-holder} (no holder has the token) or {@code still-held} (the
     *         holder did not let go within {@code lockspi.endpoint.revoke-timeout})
     * @throws InvalidEndpointRequestException if revocation is off here, the name is malformed, the token negative,
     *                                         or the holder's service did not opt in (HTTP 400)
     * @throws org.lockspi.LockConnectionException if the server cannot be reached
     */
    @DeleteOperation
    public Revocation revoke(@Selector(match = Selector.Match.ALL_REMAINING) String[] name, long token,
                             @Nullable java.security.Principal principal) {
        String joined = String.join("/", name);
        if (!revokeEnabled) {
            throw new InvalidEndpointRequestException("revocation through the locks endpoint is off: set "
                    + "lockspi.endpoint.revoke-enabled=true", "revocation off");
        }
        String who = (principal == null ? "an unauthenticated caller" : principal.getName());
        String requestedBy = (who.length() > 120 ? who.substring(0, 120) : who).replaceAll("\\p{Cntrl}", "?")
                + " via the locks endpoint";
        try {
            boolean revoked = service.revoke(joined, token, revokeTimeout, requestedBy);
            return new Revocation(joined, token, revoked ? "revoked" : "no-holder", requestedBy);
        } catch (IllegalArgumentException | IllegalStateException | UnsupportedOperationException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
        } catch (org.lockspi.LockTimeoutException e) {
            return new Revocation(joined, token, "still-held", requestedBy);
        }
    }

    /**
     * What a revocation did.
     *
     * @param name        the lock's name
     * @param token       the token asked for
     * @param outcome     {@code revoked}, {@code no-holder} or {@code still-held}
     * @param requestedBy the requester, as the audit line names it
     */
    public record Revocation(String name, long token, String outcome, String requestedBy) {
    }

    /**
     * The names under a prefix.
     *
     * @param provider   the provider that read them
     * @param inspection whether the provider can list locks at all
     * @param prefix     the prefix asked for
     * @param names      the names, sorted
     */
    public record Names(String provider, boolean inspection, String prefix, List<String> names) {
    }

    /**
     * One lock.
     *
     * @param name         its name
     * @param provider     the provider that read it
     * @param kind         {@code NONE} (no state on the server), {@code MUTEX}, {@code READ_WRITE}, {@code SEMAPHORE}
     * @param holders      its holders
     * @param waiters      how many acquisitions wait
     * @param permitsInUse for a semaphore, the permits held
     */
    public record Lock(String name, String provider, String kind, List<Holder> holders, int waiters,
                       int permitsInUse) {
    }

    /**
     * One holder.
     *
     * @param mode         {@code EXCLUSIVE}, {@code READ}, {@code WRITE} or {@code PERMIT}
     * @param fencingToken its lease's fencing token, or null where the provider shows none
     * @param since        when it acquired by the server's clock (ISO-8601), or null where unknown
     * @param own          whether this node's service holds it
     */
    public record Holder(String mode, Long fencingToken, String since, boolean own) {
    }
}
