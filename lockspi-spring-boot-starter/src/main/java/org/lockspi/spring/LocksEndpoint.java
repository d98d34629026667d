package org.lockspi.spring;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
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
 */
@Endpoint(id = "locks")
public class LocksEndpoint {
    private final LockService service;

    /**
     * @param service the service whose server is read
     * @throws NullPointerException if {@code service} is null
     */
    public LocksEndpoint(LockService service) {
        this.service = Objects.requireNonNull(service, "service is null");
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
