package org.lockspi.curator;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperProviderTck;
import org.lockspi.tck.zookeeper.ZooKeeperTimeouts;

/** The conformance kit against the Curator provider and a real in-process ZooKeeper server. */
class CuratorTckTest extends ZooKeeperProviderTck {
    private static final LockProvider PROVIDER = new CuratorLockProvider();

    @Override
    public LockProvider provider() {
        return PROVIDER;
    }

    @Override
    protected ZooKeeperTimeouts timeouts() {
        return ZooKeeperTimeouts.of(Duration.ofSeconds(3), Duration.ofSeconds(1)).with("retryBaseSleep=50ms&retryMaxRetries=2");
    }
}
