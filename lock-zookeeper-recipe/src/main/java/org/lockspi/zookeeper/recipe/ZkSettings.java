package org.lockspi.zookeeper.recipe;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.zookeeper.common.PathUtils;
import org.lockspi.LockFeature;
import org.lockspi.spi.LockUri;

/**
 * What a {@code zookeeper://} URI says to a provider built on this recipe, read and checked once for all of
 * them, with the features the recipe gives every such provider. Immutable.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@value #SESSION_TIMEOUT} (default 30s, 1s..1h): the ZooKeeper session timeout asked of the server; a
 *       crashed holder's locks are freed after it, and a longer outage loses every lease;</li>
 *   <li>{@value #CONNECT_TIMEOUT} (default 15s, 100ms..10m): how long {@code open} waits for the first connection,
 *       and how long an operation waits for a lost connection to return.</li>
 * </ul>
 * The path is the root under which lock names live; a user and password become ZooKeeper {@code digest}
 * authentication.
 *
 * @param hosts          the connect string, {@code host:port,host:port}
 * @param path           the root of the lock names, {@code ""} or a valid ZooKeeper path
 * @param sessionTimeout the session timeout to ask for
 * @param connectTimeout how long to wait for a connection
 * @param digest         {@code user:password} for digest authentication, if the URI has a user
 */
public record ZkSettings(String hosts, String path, Duration sessionTimeout, Duration connectTimeout,
                         Optional<String> digest) {
    /** The URI parameter for the session timeout: {@value}. */
    public static final String SESSION_TIMEOUT = "sessionTimeout";
    /** The URI parameter for the connect timeout: {@value}. */
    public static final String CONNECT_TIMEOUT = "connectTimeout";
    /** The URI parameters a provider on this recipe accepts. */
    public static final Set<String> PARAMETERS = Set.of(SESSION_TIMEOUT, CONNECT_TIMEOUT);
    /** The features the recipe gives every provider built on it. */
    public static final Set<LockFeature> FEATURES = Set.copyOf(EnumSet.of(
            LockFeature.REENTRANT_MUTEX, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE,
            LockFeature.SEMAPHORE, LockFeature.FAIR, LockFeature.HERD_FREE, LockFeature.FENCING_TOKENS,
            LockFeature.LEASE_RENEWAL, LockFeature.LOST_NOTIFICATION, LockFeature.CRASH_RELEASE,
            LockFeature.SURVIVES_RESTART));

    /**
     * Reads the settings of a URI.
     *
     * @param uri a {@code zookeeper://} URI whose parameters are among {@link #PARAMETERS}
     * @return the settings
     * @throws IllegalArgumentException if a value is malformed or out of range, or the path is not a valid
     *                                  ZooKeeper path; the message shows the URI without its password
     */
    public static ZkSettings of(LockUri uri) {
        Duration sessionTimeout = uri.duration(SESSION_TIMEOUT, Duration.ofSeconds(30), Duration.ofSeconds(1),
                Duration.ofHours(1));
        Duration connectTimeout = uri.duration(CONNECT_TIMEOUT, Duration.ofSeconds(15), Duration.ofMillis(100),
                Duration.ofMinutes(10));
        if (!uri.path().isEmpty()) {
            try {
                PathUtils.validatePath(uri.path());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the path of the lock URI is not a valid ZooKeeper path ("
                        + e.getMessage() + "): " + uri, e);
            }
        }
        Optional<String> digest = uri.user().map(u -> u + ":" + uri.password().orElse(""));
        return new ZkSettings(uri.hostList(), uri.path(), sessionTimeout, connectTimeout, digest);
    }

    /** @return the settings without the password */
    @Override
    public String toString() {
        return "ZkSettings[" + hosts + path + ", sessionTimeout=" + sessionTimeout + ", connectTimeout="
                + connectTimeout + (digest.isPresent() ? ", digest=***" : "") + "]";
    }
}
