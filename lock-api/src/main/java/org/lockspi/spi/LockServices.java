package org.lockspi.spi;

import java.util.function.Function;
import org.lockspi.LockService;
import org.lockspi.internal.Engine;

/**
 * For providers that build a {@link org.lockspi.LockService} on something other than a URI, such as a client
 * object the application already has (a Curator {@code CuratorFramework}). The service gets the engine's full
 * semantics, exactly as one opened by {@code Locks.open}.
 */
public final class LockServices {
    private LockServices() {
    }

    /**
     * Creates a service on a backend made by {@code opener}.
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
}
