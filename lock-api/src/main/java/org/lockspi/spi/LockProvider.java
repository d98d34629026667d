package org.lockspi.spi;

import java.util.Set;
import org.lockspi.LockFeature;

/**
 * A lock provider: the SPI a backend implements, found by {@link java.util.ServiceLoader} and chosen by
 * {@code org.lockspi.Locks}, as a JCA {@code Provider} is.
 *
 * <p>Register an implementation in {@code META-INF/services/org.lockspi.spi.LockProvider}. It needs a public
 * no-argument constructor, must be cheap to construct (no connection until {@link #open}), and thread-safe.
 *
 * <p>A provider implements primitives only; the engine gives every provider the same semantics, and the
 * conformance kit ({@code lock-tck}) checks the rest.
 */
public interface LockProvider {

    /** @return the unique name by which applications pin this provider, e.g. {@code "curator"} */
    String name();

    /** @return the provider's version */
    String version();

    /** @return the URI schemes it serves, lower case, e.g. {@code "zookeeper"} */
    Set<String> schemes();

    /** @return the features it implements; the engine refuses the others with UnsupportedOperationException */
    Set<LockFeature> features();

    /**
     * The URI query parameters it accepts (besides {@code provider}, which the engine consumes). The engine
     * refuses any other parameter before {@link #open} is called.
     *
     * @return the accepted parameter names
     */
    Set<String> parameters();

    /**
     * The preference among providers of one scheme: the highest wins; a tie at the top is an ambiguous choice,
     * which fails unless the application pins a provider.
     *
     * @return the preference, 0 by default
     */
    default int priority() {
        return 0;
    }

    /**
     * Opens a connection, waiting for it with the provider's connect timeout.
     *
     * @param uri    the parsed URI; its parameters are among {@link #parameters()}
     * @param events where to report connection and lease events
     * @return the open backend
     * @throws IllegalArgumentException            if a parameter value is malformed or out of range
     * @throws org.lockspi.LockConnectionException if the server cannot be reached within the connect timeout
     */
    LockBackend open(LockUri uri, BackendEvents events);
}
