package org.lockspi.internal;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/** Opens engine-backed services; the engine gives every provider the same semantics. */
public final class Engine {
    private Engine() {
    }

    /**
     * Checks the URI's parameters against the provider's, then opens the backend.
     *
     * @param provider the chosen provider
     * @param uri      the parsed URI, possibly with a {@code provider} parameter
     * @return the open service
     */
    public static LockService open(LockProvider provider, LockUri uri) {
        java.time.Duration failFast = failFast(uri);
        boolean revocable = revocable(uri);
        LockUri forProvider = uri.withoutParameter(Locks.PROVIDER_PARAMETER)
                .withoutParameter(Locks.FAIL_FAST_PARAMETER).withoutParameter(Locks.REVOCABLE_PARAMETER);
        Set<String> accepted = provider.parameters();
        for (String parameter : forProvider.parameters().keySet()) {
            if (!accepted.contains(parameter)) {
                throw new IllegalArgumentException("unknown parameter '" + parameter + "' for lock provider '"
                        + provider.name() + "' (it accepts " + new TreeSet<>(accepted) + ", "
                        + Locks.PROVIDER_PARAMETER + ", " + Locks.FAIL_FAST_PARAMETER + " and "
                        + Locks.REVOCABLE_PARAMETER + "): " + uri);
            }
        }
        return open(provider, forProvider.toString(), failFast, revocable,
                events -> provider.open(forProvider, events));
    }

    /**
     * The engine's opt-in to revocation, the same for every provider.
     *
     * @return the URI's {@code revocable}, or {@code false}
     * @throws IllegalArgumentException if it is not {@code true} or {@code false}
     */
    public static boolean revocable(LockUri uri) {
        return uri.bool(Locks.REVOCABLE_PARAMETER, false);
    }

    /**
     * The engine's own parameter, the same for every provider.
     *
     * @return the URI's {@code failFast}, or its default
     * @throws IllegalArgumentException if it is malformed or out of range
     */
    public static java.time.Duration failFast(LockUri uri) {
        return uri.duration(Locks.FAIL_FAST_PARAMETER, FailFast.DEFAULT, java.time.Duration.ZERO, FailFast.MAX);
    }

    /**
     * Opens a service on a backend made by {@code opener}.
     *
     * @param provider    the provider, for its name and features
     * @param description what the service is connected to, without credentials
     * @param opener      makes the backend, given the events it must report to
     * @return the open service
     */
    public static LockService open(LockProvider provider, String description,
                                   Function<BackendEvents, LockBackend> opener) {
        return open(provider, description, FailFast.DEFAULT, opener);
    }

    /**
     * Opens a service on a backend made by {@code opener}, with a fail-fast bound.
     *
     * @param provider    the provider, for its name and features
     * @param description what the service is connected to, without credentials
     * @param failFast    how long an acquisition waits for a suspended connection before it fails (spec §16.3)
     * @param opener      makes the backend, given the events it must report to
     * @return the open service
     */
    public static LockService open(LockProvider provider, String description, java.time.Duration failFast,
                                   Function<BackendEvents, LockBackend> opener) {
        return open(provider, description, failFast, false, opener);
    }

    /**
     * Opens a service on a backend made by {@code opener}, with a fail-fast bound and the revocation opt-in.
     *
     * @param provider    the provider, for its name and features
     * @param description what the service is connected to, without credentials
     * @param failFast    how long an acquisition waits for a suspended connection before it fails (spec §16.3)
     * @param revocable   whether the service's leases may be revoked (spec §27)
     * @param opener      makes the backend, given the events it must report to
     * @return the open service
     * @throws IllegalArgumentException if {@code revocable} but the provider lacks {@code REVOCATION}
     */
    public static LockService open(LockProvider provider, String description, java.time.Duration failFast,
                                   boolean revocable, Function<BackendEvents, LockBackend> opener) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(failFast, "failFast");
        Objects.requireNonNull(opener, "opener");
        if (failFast.isNegative() || failFast.compareTo(FailFast.MAX) > 0) {
            throw new IllegalArgumentException("failFast out of range [" + java.time.Duration.ZERO + ", "
                    + FailFast.MAX + "]: " + failFast);
        }
        if (revocable && !provider.features().contains(org.lockspi.LockFeature.REVOCATION)) {
            throw new IllegalArgumentException(Locks.REVOCABLE_PARAMETER + "=true, but lock provider '"
                    + provider.name() + "' lacks " + org.lockspi.LockFeature.REVOCATION + ": " + description);
        }
        EngineService service = new EngineService(provider, description, failFast, revocable);
        LockBackend backend = opener.apply(service.backendEvents());
        if (backend == null) {
            throw new IllegalStateException("provider '" + provider.name() + "' opened no backend for " + description);
        }
        service.attach(backend);
        return service;
    }
}
