package org.lockspi.zookeeper.recipe;

import java.util.Objects;
import java.util.Set;
import org.lockspi.LockFeature;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;
import org.lockspi.zookeeper.recipe.internal.ZkLockBackend;

/**
 * A lock provider built on this recipe: everything but the client library is the same for all of them (the
 * {@code zookeeper} scheme, the parameters of {@link ZkSettings}, every feature, the backend), so a provider
 * only names itself and connects its {@link ZkOps}.
 */
public abstract class ZkRecipeProvider implements LockProvider {
    private final String name;
    private final int priority;

    /**
     * @param name     the provider's name
     * @param priority its preference among the providers of the {@code zookeeper} scheme
     */
    protected ZkRecipeProvider(String name, int priority) {
        this.name = Objects.requireNonNull(name, "name");
        this.priority = priority;
    }

    /**
     * Connects the client library, waiting at most {@link ZkSettings#connectTimeout()} for a session.
     *
     * @param settings the URI's settings
     * @return the connected operations; the backend closes them
     * @throws org.lockspi.LockConnectionException if no session is established in time, or the thread is
     *         interrupted meanwhile (its interrupt flag set again); no client thread is left running then. Worded
     *         by {@link ZkConnectFailures}, so that every provider says the same
     */
    protected abstract ZkOps connect(ZkSettings settings);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public String version() {
        String v = getClass().getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0";
    }

    @Override
    public final Set<String> schemes() {
        return Set.of("zookeeper");
    }

    @Override
    public final Set<LockFeature> features() {
        return ZkSettings.FEATURES;
    }

    @Override
    public final Set<String> parameters() {
        return ZkSettings.PARAMETERS;
    }

    @Override
    public final int priority() {
        return priority;
    }

    /**
     * @throws IllegalArgumentException            if a parameter is malformed or out of range, or the path is
     *                                             not a valid ZooKeeper path
     * @throws org.lockspi.LockConnectionException as {@link #connect(ZkSettings)}, and at once if a host of the
     *                                             URI does not resolve ({@link ZkConnectFailures#resolve})
     */
    @Override
    public final LockBackend open(LockUri uri, BackendEvents events) {
        ZkSettings settings = ZkSettings.of(uri);
        ZkConnectFailures.resolve(settings.hosts());
        return ZkLockBackend.open(connect(settings), settings, events);
    }

    @Override
    public String toString() {
        return name + " " + version();
    }
}
