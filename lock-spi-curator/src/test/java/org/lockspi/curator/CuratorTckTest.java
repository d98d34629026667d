package org.lockspi.curator;

import java.time.Duration;
import java.util.Map;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.LockProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** The conformance kit against the Curator provider and a real in-process ZooKeeper server. */
class CuratorTckTest extends LockProviderTck {
    private final LockProvider provider = new CuratorLockProvider();

    @Override
    public LockProvider provider() {
        return provider;
    }

    @Override
    protected TckBackend startBackend() {
        return EmbeddedZooKeeperBackend.start();
    }

    @Override
    protected String clientParameters() {
        return "sessionTimeout=3s&connectTimeout=1s&retryBaseSleep=50ms&retryMaxRetries=2";
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(3 + 5);
    }

    /** The provider's documented bound: {@code min(connectTimeout 1s, sessionTimeout 3s / 2)}. */
    @Override
    public Duration releaseBound() {
        return Duration.ofSeconds(1);
    }

    /** The embedded ZooKeeper keeps its data across a restart; a server that loses it is not modelled. */
    @Override
    protected Map<String, String> unverifiedRulesAllowed() {
        return Map.of("§18.5", "ZooKeeper keeps its data across restarts; the embedded server has no restart "
                + "that loses it");
    }
}
