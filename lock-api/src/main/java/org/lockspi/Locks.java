package org.lockspi;

import java.util.List;
import java.util.Objects;
import org.lockspi.internal.Engine;
import org.lockspi.internal.ProviderRegistry;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/**
 * The entry point: opens a {@link LockService} from a URI with a provider found on the class path, as
 * {@code MessageDigest.getInstance} finds a JCA provider or {@code DriverManager} a JDBC driver.
 *
 * <pre>{@code
 * try (LockService locks = Locks.open("zookeeper://zk1:2181,zk2:2181/myapp")) {
 *     try (Lease lease = locks.mutex("nightly-report").acquire(Duration.ofSeconds(10))) {
 *         runReport(lease.fencingToken());
 *     }
 * }
 * }</pre>
 *
 * <h2>Choosing a provider</h2>
 * Providers are found with {@link java.util.ServiceLoader} (the thread's context class loader, then this
 * class's). The first rule that applies picks one:
 * <ol>
 *   <li>the {@code provider} argument of {@link #open(String, String)};</li>
 *   <li>the URI parameter {@code provider=NAME};</li>
 *   <li>the system property {@value #PROVIDER_PROPERTY};</li>
 *   <li>among the providers serving the URI's scheme, the one with the highest
 *       {@linkplain LockProvider#priority() priority}.</li>
 * </ol>
 * A pinned name that is not installed or does not serve the scheme, two pins that disagree, no provider for
 * the scheme, or a tie at the top fail with {@link ProviderSelectionException}, whose message lists what is
 * installed and how to pick; the class path order never decides silently.
 *
 * <p>Parameters a provider does not declare fail at once with {@link IllegalArgumentException}.
 */
public final class Locks {

    /** The system property that pins a provider by name for every {@link #open(String)}: {@value}. */
    public static final String PROVIDER_PROPERTY = "lockspi.provider";

    /** The URI parameter that pins a provider by name: {@value}. */
    public static final String PROVIDER_PARAMETER = "provider";

    /**
     * The URI parameter, understood by the engine for every provider, that bounds how long an acquisition waits
     * for a suspended connection before it fails with {@link LockConnectionException}: {@value}. A duration
     * ({@code 250ms}, {@code 2s}, {@code PT1S}) from {@code 0} (fail at once) to {@code 1h}; default {@code 250ms}.
     * An acquisition started while the service knows its connection is down waits at most this long for it to
     * return; one under way when the connection drops gives up this long after the drop, or at its own deadline
     * if that comes first (spec §16.3).
     */
    public static final String FAIL_FAST_PARAMETER = "failFast";

    /**
     * The URI parameter, understood by the engine for every provider, by which a service lets operators revoke its
     * leases ({@link LockService#revoke(String, long, java.time.Duration)}): {@value}. {@code true} or
     * {@code false}, default {@code false}. Every lease the service acquires while it is {@code true} is marked
     * revocable on the server and watched for a revocation request; a lease of a service without it is never
     * revoked (the request is refused at once). Where the provider lacks {@link LockFeature#REVOCATION},
     * {@code true} is refused when the service is opened.
     */
    public static final String REVOCABLE_PARAMETER = "revocable";

    private Locks() {
    }

    /**
     * Opens a service with the preferred provider for the URI's scheme.
     *
     * @param uri the backend URI, e.g. {@code zookeeper://localhost:2181/app}
     * @return the open service; close it when done
     * @throws NullPointerException        if {@code uri} is null
     * @throws IllegalArgumentException    if the URI is malformed, or has a parameter the provider does not
     *                                     accept or a malformed value
     * @throws ProviderSelectionException  if no single provider can be chosen
     * @throws LockConnectionException     if the server cannot be reached within the connect timeout
     */
    public static LockService open(String uri) {
        return open(uri, (String) null);
    }

    /**
     * Opens a service with the named provider.
     *
     * @param uri      the backend URI
     * @param provider the provider's {@linkplain LockProvider#name() name}, or null to choose by the rules
     * @return the open service; close it when done
     * @throws NullPointerException        if {@code uri} is null
     * @throws IllegalArgumentException    as {@link #open(String)}
     * @throws ProviderSelectionException  if the named provider is not installed, does not serve the scheme, or
     *                                     disagrees with the URI's {@code provider} parameter
     * @throws LockConnectionException     as {@link #open(String)}
     */
    public static LockService open(String uri, String provider) {
        Objects.requireNonNull(uri, "uri");
        LockUri parsed = LockUri.parse(uri);
        LockProvider chosen = ProviderRegistry.select(parsed, provider, System.getProperty(PROVIDER_PROPERTY));
        return Engine.open(chosen, parsed);
    }

    /**
     * Opens a service with a given provider instance, bypassing discovery (as
     * {@code MessageDigest.getInstance(alg, Provider)} does). A {@code provider} URI parameter, if present,
     * must name this provider.
     *
     * @param uri      the backend URI
     * @param provider the provider
     * @return the open service; close it when done
     * @throws NullPointerException       if an argument is null
     * @throws IllegalArgumentException   as {@link #open(String)}, or if the provider does not serve the scheme
     * @throws ProviderSelectionException if the URI's {@code provider} parameter names another provider
     * @throws LockConnectionException    as {@link #open(String)}
     */
    public static LockService open(String uri, LockProvider provider) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(provider, "provider");
        LockUri parsed = LockUri.parse(uri);
        ProviderRegistry.checkPinned(parsed, provider);
        return Engine.open(provider, parsed);
    }

    /**
     * @return the installed providers in preference order: highest priority first, then by name; an
     *         unmodifiable list whose {@code toString()} describes each provider as {@link #describe} does
     */
    public static List<LockProvider> providers() {
        return ProviderRegistry.installed();
    }

    /**
     * Describes a provider for logs and error messages, whether or not it overrides {@code toString()}:
     * {@code curator 5.9.0 (org.lockspi.curator.CuratorLockProvider) schemes=[zookeeper] priority=20 features=[...]}.
     *
     * @param provider any provider, installed or not
     * @return its name, version, class, schemes, priority and features
     * @throws NullPointerException if {@code provider} is null
     */
    public static String describe(LockProvider provider) {
        return ProviderRegistry.describe(Objects.requireNonNull(provider, "provider"));
    }
}
