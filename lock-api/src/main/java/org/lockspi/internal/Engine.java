package org.lockspi.internal;

import org.lockspi.LockService;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/** Opens engine-backed services; the engine gives every provider the same semantics. */
public final class Engine {
    private Engine() {
    }

    /**
     * @param provider the chosen provider
     * @param uri      the parsed URI, possibly with a {@code provider} parameter
     * @return the open service
     */
    public static LockService open(LockProvider provider, LockUri uri) {
        throw new UnsupportedOperationException("engine: under construction");
    }
}
