package org.lockspi.zookeeper.recipe;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;
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
 *       and how long an operation waits for a lost connection to return;</li>
 *   <li>{@value #UNCERTAIN_AFTER} (default half the session timeout; more than 0 and less than the session
 *       timeout): how old the last confirmed contact with the server may be before a lease reads
 *       {@code UNCERTAIN}. A lease reads {@code LOST} once the last confirmed contact is older than
 *       90 % of the negotiated session timeout;</li>
 *   <li>{@value #ACL} ({@code creator} or {@code open}; default {@code creator} with a user in the URI, {@code open}
 *       without): the ACL of the nodes the provider creates, lock nodes and the parents it creates alike.
 *       {@code creator} is ZooKeeper's {@code CREATOR_ALL_ACL}: every permission to the identity that created the
 *       node, none to anyone else, so no other identity can read the queue, create a node in it (acquire) or
 *       delete a holder's node. {@code open} is {@code OPEN_ACL_UNSAFE}, for a deployment whose other clients
 *       do not authenticate (all that was created before {@code creator} existed). {@code creator} without a
 *       user is refused;</li>
 *   <li>{@code tls}, {@code trustStore}, {@code trustStorePassword}, {@code keyStore}, {@code keyStorePassword}:
 *       TLS to the servers, see {@link ZkTls}.</li>
 * </ul>
 * The path is the root under which lock names live; a user and password become ZooKeeper {@code digest}
 * authentication. Nodes that exist already (the URI path created by an administrator, say) keep their ACL.
 *
 * @param hosts          the connect string, {@code host:port,host:port}
 * @param path           the root of the lock names, {@code ""} or a valid ZooKeeper path
 * @param sessionTimeout the session timeout to ask for
 * @param connectTimeout how long to wait for a connection
 * @param digest         {@code user:password} for digest authentication, if the URI has a user
 * @param uncertainAfter the confirmation threshold, {@code 0 < uncertainAfter < sessionTimeout}
 * @param acl            the ACL of every node the provider creates
 * @param tls            TLS to the servers, if the URI asks for it
 */
public record ZkSettings(String hosts, String path, Duration sessionTimeout, Duration connectTimeout,
                         Optional<String> digest, Duration uncertainAfter, List<ACL> acl, Optional<ZkTls> tls) {
    /** The URI parameter for the session timeout: {@value}. */
    public static final String SESSION_TIMEOUT = "sessionTimeout";
    /** The URI parameter for the connect timeout: {@value}. */
    public static final String CONNECT_TIMEOUT = "connectTimeout";
    /** The URI parameter for the confirmation threshold: {@value}. */
    public static final String UNCERTAIN_AFTER = "uncertainAfter";
    /** The URI parameter for the ACL of created nodes: {@value}. */
    public static final String ACL = "acl";
    /** The URI parameters a provider on this recipe accepts. */
    public static final Set<String> PARAMETERS = parameters(SESSION_TIMEOUT, CONNECT_TIMEOUT, UNCERTAIN_AFTER, ACL);
    /** The features the recipe gives every provider built on it. */
    public static final Set<LockFeature> FEATURES = Set.copyOf(EnumSet.of(
            LockFeature.REENTRANT_MUTEX, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE,
            LockFeature.SEMAPHORE, LockFeature.FAIR, LockFeature.HERD_FREE, LockFeature.FENCING_TOKENS,
            LockFeature.LEASE_RENEWAL, LockFeature.LOST_NOTIFICATION, LockFeature.CRASH_RELEASE,
            LockFeature.SURVIVES_RESTART, LockFeature.INSPECTION, LockFeature.REVOCATION));

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
        Duration uncertainAfter = uncertainAfter(uri, sessionTimeout);
        Optional<String> digest = uri.user().map(u -> u + ":" + uri.password().orElse(""));
        return new ZkSettings(uri.hostList(), uri.path(), sessionTimeout, connectTimeout, digest, uncertainAfter,
                acl(uri), ZkTls.of(uri));
    }

    /**
     * @param names parameters of a provider
     * @return them with the security parameters ({@value #ACL} and {@link ZkTls#PARAMETERS}) that every ZooKeeper
     *         provider accepts
     */
    public static Set<String> parameters(String... names) {
        Set<String> all = new HashSet<>(Set.of(names));
        all.add(ACL);
        all.addAll(ZkTls.PARAMETERS);
        return Set.copyOf(all);
    }

    /**
     * Reads {@value #ACL}, for every ZooKeeper provider alike.
     *
     * @param uri the URI
     * @return {@code CREATOR_ALL_ACL} or {@code OPEN_ACL_UNSAFE}
     * @throws IllegalArgumentException if the value is neither {@code creator} nor {@code open}, or {@code creator}
     *                                  is asked for without a user in the URI
     */
    public static List<ACL> acl(LockUri uri) {
        String value = uri.parameter(ACL).orElse(uri.user().isPresent() ? "creator" : "open");
        switch (value) {
            case "creator":
                if (uri.user().isEmpty()) {
                    throw new IllegalArgumentException(ACL + "=creator needs a user and password in lock URI "
                            + "(the nodes would belong to no identity): " + uri);
                }
                return ZooDefs.Ids.CREATOR_ALL_ACL;
            case "open":
                return ZooDefs.Ids.OPEN_ACL_UNSAFE;
            default:
                throw new IllegalArgumentException("parameter '" + ACL + "' is neither creator nor open: '" + value
                        + "' in lock URI: " + uri);
        }
    }

    /**
     * A new client configuration for one ZooKeeper handle: SASL off unless the JVM has a JAAS configuration (no
     * SASL attempt, and no warning about it, otherwise), and {@link ZkTls TLS} if asked for.
     *
     * @param tls TLS to the servers, if asked for
     * @return a fresh configuration
     */
    public static ZKClientConfig clientConfig(Optional<ZkTls> tls) {
        ZKClientConfig config = new ZKClientConfig();
        if (System.getProperty("java.security.auth.login.config") == null) {
            config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
        }
        tls.ifPresent(t -> t.applyTo(config));
        return config;
    }

    /** @return a fresh configuration for one handle of these settings, see {@link #clientConfig(Optional)} */
    public ZKClientConfig clientConfig() {
        return clientConfig(tls);
    }

    /**
     * How long {@code release()} and {@code close()} may wait for the server during an outage before they leave
     * the delete to the reconnection or the session's end: {@code min(connectTimeout, sessionTimeout / 2)}.
     *
     * @return the release bound
     */
    public Duration releaseBound() {
        return releaseBound(connectTimeout, sessionTimeout);
    }

    /**
     * @param connectTimeout the connect timeout
     * @param sessionTimeout the session timeout
     * @return {@code min(connectTimeout, sessionTimeout / 2)}, the release bound of every ZooKeeper provider
     */
    public static Duration releaseBound(Duration connectTimeout, Duration sessionTimeout) {
        Duration half = sessionTimeout.dividedBy(2);
        return connectTimeout.compareTo(half) < 0 ? connectTimeout : half;
    }

    /**
     * Reads {@value #UNCERTAIN_AFTER}, for every ZooKeeper provider alike.
     *
     * @param uri            the URI
     * @param sessionTimeout the session timeout the URI asks for
     * @return the threshold: the parameter, or half the session timeout
     * @throws IllegalArgumentException if it is malformed, not more than 0, or not less than the session timeout
     */
    public static Duration uncertainAfter(LockUri uri, Duration sessionTimeout) {
        Duration value = uri.duration(UNCERTAIN_AFTER, sessionTimeout.dividedBy(2), Duration.ofMillis(1),
                Duration.ofHours(1));
        if (value.compareTo(sessionTimeout) >= 0) {
            throw new IllegalArgumentException(UNCERTAIN_AFTER + " >= " + SESSION_TIMEOUT + ": " + value + " >= "
                    + sessionTimeout);
        }
        return value;
    }

    /** @return the settings without the password */
    @Override
    public String toString() {
        return "ZkSettings[" + hosts + path + ", sessionTimeout=" + sessionTimeout + ", connectTimeout="
                + connectTimeout + ", uncertainAfter=" + uncertainAfter + (digest.isPresent() ? ", digest=***" : "")
                + (acl.equals(ZooDefs.Ids.CREATOR_ALL_ACL) ? ", acl=creator" : "")
                + tls.map(t -> ", tls=" + t).orElse("") + "]";
    }
}
