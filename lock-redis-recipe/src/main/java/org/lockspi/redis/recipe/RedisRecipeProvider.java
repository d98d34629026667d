package org.lockspi.redis.recipe;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockServices;
import org.lockspi.spi.LockUri;

/**
 * A lock provider built on this recipe: everything but the client library is the same for all of them (the
 * schemes and parameters of {@link RedisSettings}, the features, the keys and scripts, the backend), so a provider
 * only names itself, says whether it is first come first served, and gives the recipe its client's
 * {@link RedisOps}. Providers on
 * different client libraries with the same {@code fair} are wire-compatible: they exclude each other on one lock.
 */
public abstract class RedisRecipeProvider implements LockProvider {
    /**
     * The features of every provider on this recipe. Not SURVIVES_RESTART: a lock is a key with a TTL, and whether
     * it outlives a restart depends on the server's persistence (appendonly), not on the provider; without it the
     * restarted server has no key and the lease turns LOST at its next renewal. REVOCATION: see
     * {@link RedisLockBackend#revoke}; a connected holder lets go within a few round trips of the request (a message
     * on the revocation channel), within the renewal interval ({@code leaseTime / 3}) if the message is lost.
     */
    public static final Set<LockFeature> FEATURES = Collections.unmodifiableSet(EnumSet.of(
            LockFeature.REENTRANT_MUTEX, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE,
            LockFeature.SEMAPHORE, LockFeature.FENCING_TOKENS, LockFeature.LEASE_RENEWAL,
            LockFeature.LOST_NOTIFICATION, LockFeature.CRASH_RELEASE, LockFeature.INSPECTION, LockFeature.LEASE_TIME,
            LockFeature.REVOCATION));
    /** {@link #FEATURES} and FAIR: the features of a first-come first-served provider. */
    public static final Set<LockFeature> FAIR_FEATURES;

    static {
        EnumSet<LockFeature> features = EnumSet.copyOf(FEATURES);
        features.add(LockFeature.FAIR);
        FAIR_FEATURES = Collections.unmodifiableSet(features);
    }

    private final String name;
    private final int priority;
    private final boolean fair;
    private final Function<RedisSettings, RedisOps> client;
    private final String version;

    /**
     * @param name     the provider's name
     * @param priority its preference among the providers of the Redis schemes
     * @param fair     whether its locks are first come, first served
     * @param client   creates the client library's client for a URI's settings, for the settings' topology (one
     *                 instance, Sentinel, Cluster; TLS for the {@code rediss} schemes) and with their timeouts. It
     *                 may connect already; the recipe then checks it with {@link RedisOps#ping()} and closes it if
     *                 that fails. It throws {@link RedisOpsException} if no sentinel or seed node answers, and
     *                 {@link IllegalArgumentException} if a TLS store cannot be read
     */
    protected RedisRecipeProvider(String name, int priority, boolean fair, Function<RedisSettings, RedisOps> client) {
        this.name = Objects.requireNonNull(name, "name");
        this.priority = priority;
        this.fair = fair;
        this.client = Objects.requireNonNull(client, "client");
        this.version = loadVersion(getClass());
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String version() {
        return version;
    }

    @Override
    public final Set<String> schemes() {
        return RedisSettings.SCHEMES;
    }

    @Override
    public final Set<LockFeature> features() {
        return fair ? FAIR_FEATURES : FEATURES;
    }

    @Override
    public final Set<String> parameters() {
        return RedisSettings.PARAMETERS;
    }

    @Override
    public final int priority() {
        return priority;
    }

    /**
     * Connects to the Redis instance (the master the sentinels name, or every cluster node) within
     * {@code connectTimeout} and checks that it answers a PING within {@code socketTimeout}; never waits longer
     * than the two together.
     *
     * @throws IllegalArgumentException            if a parameter is malformed, out of range or not for this
     *                                             scheme, a single-instance URI names several hosts, the path is
     *                                             not what the scheme needs, or a store is unreadable
     * @throws LockConnectionException             if Redis does not answer; the message names host:port
     */
    @Override
    public final LockBackend open(LockUri uri, BackendEvents events) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(events, "events");
        if (!RedisSettings.SCHEMES.contains(uri.scheme())) {
            throw new IllegalArgumentException("provider '" + name + "' serves " + RedisSettings.SCHEMES
                    + ", not: " + uri);
        }
        RedisSettings settings = RedisSettings.parse(uri);
        RedisOps redis;
        try {
            redis = client.apply(settings);
        } catch (RedisOpsException e) {
            throw new LockConnectionException("cannot reach " + settings + " within connectTimeout "
                    + settings.connectTimeout() + ": " + e.getMessage(), e);
        }
        return RedisLockBackend.open(settings, events, redis, fair);
    }

    /**
     * A service of this provider on a client the application made ({@link RedisSettings#ofClient}): the backend's
     * operations come from {@code connect}, called once, at once.
     *
     * @param settings   the lock parameters, from {@link RedisSettings#ofClient}
     * @param parameters the query the settings were read from, for the engine's parameters ({@code failFast})
     * @param connect    makes the operations on the application's client
     * @return the open service
     * @throws LockConnectionException  if the client does not connect or answer
     * @throws IllegalArgumentException if an engine parameter is malformed or out of range
     */
    public final LockService openOn(RedisSettings settings, String parameters, Supplier<RedisOps> connect) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(connect, "connect");
        return LockServices.create(this, settings.toString(), parameters, events -> {
            RedisOps redis;
            try {
                redis = connect.get();
            } catch (RedisOpsException e) {
                throw new LockConnectionException("cannot reach " + settings + ": " + e.getMessage(), e);
            }
            return RedisLockBackend.open(settings, events, redis, fair);
        });
    }

    /** @return the {@code version} of {@code version.properties} beside the provider class, or "unknown" */
    private static String loadVersion(Class<?> type) {
        Properties found = new Properties();
        try (InputStream in = type.getResourceAsStream("version.properties")) {
            if (in != null) {
                found.load(in);
            }
        } catch (IOException e) {
            // unknown, as without the file
        }
        return found.getProperty("version", "unknown");
    }

    @Override
    public String toString() {
        return name + " " + version;
    }
}
