package org.lockspi.spi;

import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.Function;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.internal.Engine;

/**
 * For providers that build a {@link org.lockspi.LockService} on something other than a URI, such as a client
 * object the application already has (a Curator {@code CuratorFramework}). The service gets the engine's full
 * semantics, exactly as one opened by {@code Locks.open}.
 *
 * <p>A provider whose application-client form takes parameters as a URI query ({@code "leaseTime=10s"}) accepts the
 * engine's parameters there as a URI does ({@link Locks#FAIL_FAST_PARAMETER}, {@link Locks#REVOCABLE_PARAMETER}): it parses its own from
 * {@link #providerParameters(String)} and passes the whole query to
 * {@link #create(LockProvider, String, String, Function)}.
 */
public final class LockServices {
    private LockServices() {
    }

    /**
     * Creates a service on a backend made by {@code opener}, with the engine's defaults.
     *
     * @param provider    the provider, for its name and features
     * @param description what the service is connected to, for messages; never credentials
     * @param opener      makes the backend, given the events it must report to; called once, at once
     * @return the open service
     * @throws NullPointerException if an argument is null
     */
    public static LockService create(LockProvider provider, String description,
                                     Function<BackendEvents, LockBackend> opener) {
        return Engine.open(provider, description, opener);
    }

    /**
     * Creates a service on a backend made by {@code opener}, with the engine's parameters read from
     * {@code parameters} (the provider's own there are left to the provider).
     *
     * @param provider    the provider, for its name and features
     * @param description what the service is connected to, for messages; never credentials
     * @param parameters  a URI query without or with its {@code ?}, {@code "failFast=1s&leaseTime=10s"}, or
     *                    {@code ""}
     * @param opener      makes the backend, given the events it must report to; called once, at once
     * @return the open service
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if an engine parameter is malformed or out of range
     */
    public static LockService create(LockProvider provider, String description, String parameters,
                                     Function<BackendEvents, LockBackend> opener) {
        Objects.requireNonNull(parameters, "parameters");
        String query = parameters.startsWith("?") ? parameters.substring(1) : parameters;
        LockUri engine = LockUri.parse("engine://parameters" + (query.isEmpty() ? "" : "?" + query));
        return Engine.open(provider, description, Engine.failFast(engine), Engine.revocable(engine), opener);
    }

    /**
     * @param parameters a URI query without or with its {@code ?}, or {@code ""}
     * @return the query without the engine's parameters and without {@code ?}: what the provider checks and reads
     * @throws NullPointerException if {@code parameters} is null
     */
    public static String providerParameters(String parameters) {
        Objects.requireNonNull(parameters, "parameters");
        String query = parameters.startsWith("?") ? parameters.substring(1) : parameters;
        StringJoiner rest = new StringJoiner("&");
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            if (!name.equals(Locks.FAIL_FAST_PARAMETER) && !name.equals(Locks.REVOCABLE_PARAMETER)) {
                rest.add(pair);
            }
        }
        return query.isEmpty() ? "" : rest.toString();
    }
}
