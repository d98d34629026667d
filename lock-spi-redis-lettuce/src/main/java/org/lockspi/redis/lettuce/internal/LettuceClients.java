package org.lockspi.redis.lettuce.internal;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.lockspi.redis.recipe.RedisSettings;
import org.lockspi.redis.recipe.Tls;

/**
 * Makes the Lettuce client of a URI's settings: {@link RedisClient} for one instance or a Sentinel master,
 * {@link RedisClusterClient} for a cluster, each on event loops of its own (two threads), with the settings'
 * timeouts, a reconnect delay from {@code retryInitial} doubling to {@code retryMax}, RESP2, and TLS from the
 * URI's stores.
 */
final class LettuceClients {
    private LettuceClients() {
    }

    static ClientResources resources(RedisSettings settings) {
        return DefaultClientResources.builder()
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(settings.retryInitial(), settings.retryMax(), 2,
                        TimeUnit.MILLISECONDS))
                .build();
    }

    static AbstractRedisClient client(RedisSettings settings, ClientResources resources) {
        SocketOptions socket = SocketOptions.builder().connectTimeout(settings.connectTimeout()).build();
        switch (settings.topology()) {
            case CLUSTER: {
                List<RedisURI> seeds = new ArrayList<>();
                for (RedisSettings.Node node : settings.nodes()) {
                    seeds.add(uri(settings, node).build());
                }
                RedisClusterClient client = RedisClusterClient.create(resources, seeds);
                ClusterClientOptions.Builder options = ClusterClientOptions.builder()
                        .socketOptions(socket)
                        .timeoutOptions(TimeoutOptions.enabled())
                        .protocolVersion(ProtocolVersion.RESP2)
                        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                .enableAllAdaptiveRefreshTriggers().build());
                SslOptions ssl = ssl(settings);
                if (ssl != null) {
                    options.sslOptions(ssl);
                }
                client.setOptions(options.build());
                return client;
            }
            case SENTINEL: {
                RedisURI.Builder uri = RedisURI.builder().withSentinelMasterId(settings.masterName());
                data(settings, uri);
                for (RedisSettings.Node node : settings.nodes()) {
                    RedisURI.Builder sentinel = RedisURI.builder().withHost(node.host()).withPort(node.port())
                            .withTimeout(setUpTimeout(settings)).withSsl(settings.ssl());
                    if (settings.ssl()) {
                        sentinel.withVerifyPeer(verify(settings));
                    }
                    if (settings.sentinelPassword() != null) {
                        sentinel.withAuthentication(settings.sentinelUser(), settings.sentinelPassword());
                    }
                    uri.withSentinel(sentinel.build());
                }
                return single(settings, resources, socket, uri.build());
            }
            default:
                return single(settings, resources, socket, uri(settings, settings.nodes().get(0)).build());
        }
    }

    private static RedisClient single(RedisSettings settings, ClientResources resources, SocketOptions socket,
                                      RedisURI uri) {
        RedisClient client = RedisClient.create(resources, uri);
        ClientOptions.Builder options = ClientOptions.builder()
                .socketOptions(socket)
                .timeoutOptions(TimeoutOptions.enabled())
                .protocolVersion(ProtocolVersion.RESP2);
        SslOptions ssl = ssl(settings);
        if (ssl != null) {
            options.sslOptions(ssl);
        }
        client.setOptions(options.build());
        return client;
    }

    private static RedisURI.Builder uri(RedisSettings settings, RedisSettings.Node node) {
        RedisURI.Builder uri = RedisURI.builder().withHost(node.host()).withPort(node.port());
        data(settings, uri);
        return uri;
    }

    /**
     * What every data connection carries: database, credentials, client name, timeout, TLS. The URI's timeout is
     * the set-up's: Lettuce bounds a connection's TCP connect and handshake together by it (counted from the
     * channel's registration, reconnections too), so it is {@link #setUpTimeout}; each connection's commands time
     * out after {@code socketTimeout} ({@link LettuceOps} sets it on every connection it opens).
     */
    private static void data(RedisSettings settings, RedisURI.Builder uri) {
        uri.withDatabase(settings.database()).withClientName("lockspi").withTimeout(setUpTimeout(settings))
                .withSsl(settings.ssl());
        if (settings.ssl()) {
            uri.withVerifyPeer(verify(settings));
        }
        if (settings.password() != null) {
            uri.withAuthentication(settings.user(), settings.password());
        }
    }

    /**
     * @return how long a connection's set-up may take: {@code connectTimeout} for the TCP connect and
     *         {@code socketTimeout} for the handshake's round trip, as on Jedis (a short {@code socketTimeout}
     *         alone, a third of a short lease, timed out the handshake of a cold JVM)
     */
    private static Duration setUpTimeout(RedisSettings settings) {
        return settings.connectTimeout().plus(settings.socketTimeout());
    }

    private static SslVerifyMode verify(RedisSettings settings) {
        return settings.tls().verifyHostname() ? SslVerifyMode.FULL : SslVerifyMode.CA;
    }

    /** @return the URI's trust and key stores, or null without TLS or stores (the JVM's defaults then) */
    private static SslOptions ssl(RedisSettings settings) {
        Tls tls = settings.tls();
        if (tls == null || (tls.trustStore() == null && tls.keyStore() == null)) {
            return null;
        }
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
        if (tls.trustStore() != null) {
            ssl.trustManager(tls.trustManagers());
        }
        if (tls.keyStore() != null) {
            ssl.keyManager(tls.keyManagers());
        }
        return ssl.build();
    }

    /** Stops the client (if made) and its event loops at once, waiting at most two seconds for each. */
    static void shutdown(AbstractRedisClient client, ClientResources resources) {
        try {
            if (client != null) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        } finally {
            resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3000);
        }
    }
}
