package org.lockspi.zookeeper.raw;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** The conformance kit against a real in-process ZooKeeper server. */
class RawZooKeeperTckTest extends LockProviderTck {
    private static final LockProvider PROVIDER = new RawZooKeeperLockProvider();

    @Override
    public LockProvider provider() {
        return PROVIDER;
    }

    @Override
    protected TckBackend startBackend() {
        return EmbeddedZooKeeperBackend.start();
    }

    @Override
    protected String clientParameters() {
        return "sessionTimeout=4s&connectTimeout=5s";
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(4 + 6);
    }

    /** The provider's documented bound: {@code min(connectTimeout 5s, sessionTimeout 4s / 2)}. */
    @Override
    public Duration releaseBound() {
        return Duration.ofSeconds(2);
    }

    /** The embedded ZooKeeper keeps its data across a restart; a server that loses it is not modelled. */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return Map.of("§18.5", "ZooKeeper keeps its data across restarts; the embedded server has no restart "
                + "that loses it");
    }
}
