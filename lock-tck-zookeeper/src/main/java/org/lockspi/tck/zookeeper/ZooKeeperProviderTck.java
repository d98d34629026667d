package org.lockspi.tck.zookeeper;

import java.time.Duration;
import java.util.Map;
import org.lockspi.LockFeature;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;

/**
 * The conformance kit for a ZooKeeper provider against an {@link EmbeddedZooKeeperBackend}, with its bounds
 * derived from the {@link ZooKeeperTimeouts} the class gives. A provider's class names the provider and the
 * timeouts:
 *
 * <pre>{@code
 * class CuratorTckTest extends ZooKeeperProviderTck {
 *     public LockProvider provider() { return new CuratorLockProvider(); }
 *     protected ZooKeeperTimeouts timeouts() { return ZooKeeperTimeouts.of(ofSeconds(3), ofSeconds(1)); }
 * }
 * }</pre>
 */
public abstract class ZooKeeperProviderTck extends LockProviderTck {

    /**
     * Why the ZooKeeper providers lack {@link LockFeature#LEASE_TIME}: ZooKeeper ends a lock node only with its
     * session, and has no expiry of its own for a node that a live session keeps (TTL nodes are persistent, removed
     * by a container sweep minutes late, and not enabled by default). Deleting the node at the lease time's end from
     * the holder's side is no server-side bound: a paused or partitioned holder would keep the lock past it.
     */
    public static final String NO_LEASE_TIME = "ZooKeeper ends a lock node only with its session: a node outlives "
            + "any lease time while its session lives, and a delete sent by the holder at the end is no bound for a "
            + "paused or partitioned holder (TTL nodes are persistent, swept late and off by default)";

    /** @return the reason for {@link LockFeature#LEASE_TIME}, {@link #NO_LEASE_TIME} */
    @Override
    protected Map<LockFeature, String> undeclaredBecause() {
        return Map.of(LockFeature.LEASE_TIME, NO_LEASE_TIME);
    }

    /** @return the timeouts of the clients this class opens */
    protected abstract ZooKeeperTimeouts timeouts();

    @Override
    protected TckBackend startBackend() {
        return EmbeddedZooKeeperBackend.start();
    }

    @Override
    protected final String clientParameters() {
        return timeouts().parameters();
    }

    /** @return the session timeout */
    @Override
    public final Duration leaseSpan() {
        return timeouts().session();
    }

    /** @return {@code min(connectTimeout, sessionTimeout / 2)}, the bound the ZooKeeper providers document */
    @Override
    public Duration releaseBound() {
        return timeouts().releaseBound();
    }

    /** The embedded ZooKeeper keeps its data across a restart; a server that loses it is not modelled. */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return Map.of("§18.5", "ZooKeeper keeps its data across restarts; the embedded server has no restart "
                + "that loses it");
    }
}
