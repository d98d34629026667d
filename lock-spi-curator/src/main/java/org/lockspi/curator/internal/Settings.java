package org.lockspi.curator.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.lockspi.spi.LockUri;
import org.lockspi.zookeeper.recipe.ZkSettings;
import org.lockspi.zookeeper.recipe.ZkTls;

/** The client settings a {@code zookeeper://} URI carries, checked and defaulted. */
public final class Settings {
    /** The session timeout; the server may negotiate it into its own bounds. */
    public static final String SESSION_TIMEOUT = "sessionTimeout";
    /** How long {@code open} waits for the first connection; also Curator's per-operation connection wait. */
    public static final String CONNECT_TIMEOUT = "connectTimeout";
    /** The first sleep of Curator's exponential back-off between retries of one operation. */
    public static final String RETRY_BASE_SLEEP = "retryBaseSleep";
    /** How often Curator retries one operation after a connection loss. */
    public static final String RETRY_MAX_RETRIES = "retryMaxRetries";

    /** How old the last confirmed contact may be before a lease reads UNCERTAIN; shared with the recipe. */
    public static final String UNCERTAIN_AFTER = ZkSettings.UNCERTAIN_AFTER;

    /** Every parameter the provider accepts, the recipe's security parameters ({@code acl}, TLS) among them. */
    public static final Set<String> PARAMETERS = ZkSettings.parameters(
            SESSION_TIMEOUT, CONNECT_TIMEOUT, RETRY_BASE_SLEEP, RETRY_MAX_RETRIES, UNCERTAIN_AFTER);

    static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(15);
    static final Duration DEFAULT_RETRY_BASE_SLEEP = Duration.ofMillis(100);
    static final int DEFAULT_RETRY_MAX_RETRIES = 3;

    final LockUri uri;
    final Duration sessionTimeout;
    final Duration connectTimeout;
    final Duration retryBaseSleep;
    final int retryMaxRetries;
    final Duration uncertainAfter;
    /** The ACL of every node the recipes create, as the recipe providers read it. */
    final List<ACL> acl;
    final Optional<ZkTls> tls;

    private Settings(LockUri uri) {
        this.uri = uri;
        this.sessionTimeout = uri.duration(SESSION_TIMEOUT, DEFAULT_SESSION_TIMEOUT,
                Duration.ofMillis(100), Duration.ofHours(1));
        this.connectTimeout = uri.duration(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT,
                Duration.ofMillis(10), Duration.ofMinutes(10));
        this.retryBaseSleep = uri.duration(RETRY_BASE_SLEEP, DEFAULT_RETRY_BASE_SLEEP,
                Duration.ofMillis(1), Duration.ofMinutes(1));
        // ExponentialBackoffRetry caps its retries at 29
        this.retryMaxRetries = uri.integer(RETRY_MAX_RETRIES, DEFAULT_RETRY_MAX_RETRIES, 0, 29);
        this.uncertainAfter = ZkSettings.uncertainAfter(uri, sessionTimeout);
        this.acl = ZkSettings.acl(uri);
        this.tls = ZkTls.of(uri);
    }

    /**
     * @param uri the parsed URI, its parameters among {@link #PARAMETERS}
     * @return the checked settings
     * @throws IllegalArgumentException if a value is malformed or out of range
     */
    public static Settings of(LockUri uri) {
        if (!uri.scheme().equals("zookeeper")) {
            throw new IllegalArgumentException("not a zookeeper URI: " + uri);
        }
        return new Settings(uri);
    }

    /**
     * @param notifier runs Curator's watcher wake-ups; Curator never shuts down the one it would make itself
     * @return an unstarted client for these settings, without a namespace
     */
    CuratorFramework newClient(Executor notifier) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .runSafeService(notifier)
                .zookeeperFactory(SettledCreateZooKeeper.FACTORY)
                .connectString(uri.hostList())
                .sessionTimeoutMs(toIntMillis(sessionTimeout))
                .connectionTimeoutMs(toIntMillis(connectTimeout))
                .retryPolicy(new DeadlineRetry(new ExponentialBackoffRetry(toIntMillis(retryBaseSleep), retryMaxRetries)))
                // the URI names the ensemble; do not follow the servers' dynamic configuration
                .ensembleTracker(false);
        if (uri.user().isPresent()) {
            String credentials = uri.user().get() + ":" + uri.password().orElse("");
            builder.authorization("digest", credentials.getBytes(StandardCharsets.UTF_8));
        }
        if (!acl.equals(ZooDefs.Ids.OPEN_ACL_UNSAFE)) { // Curator's default provider gives open ACLs
            builder.aclProvider(new FixedAcl(acl));
        }
        // TLS on this client's handles only (SettledCreateZooKeeper takes the configuration); without it, as before
        tls.ifPresent(t -> builder.zkClientConfig(ZkSettings.clientConfig(tls)));
        return builder.build();
    }

    /** @return how long release() and close() wait for the server during an outage */
    Duration releaseBound() {
        return ZkSettings.releaseBound(connectTimeout, sessionTimeout);
    }

    /** @return the lock names' base path: the URI's path, or the root */
    String basePath() {
        return uri.path().isEmpty() ? "/" : uri.path();
    }

    /**
     * One ACL for every path: lock and lease nodes, and the parents Curator creates for them
     * ({@code creatingParentContainersIfNeeded} asks the provider for each).
     */
    private record FixedAcl(List<ACL> acl) implements ACLProvider {
        @Override
        public List<ACL> getDefaultAcl() {
            return acl;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return acl;
        }
    }

    private static int toIntMillis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
