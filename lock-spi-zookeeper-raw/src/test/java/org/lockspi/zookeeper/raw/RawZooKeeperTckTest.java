package org.lockspi.zookeeper.raw;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperProviderTck;
import org.lockspi.tck.zookeeper.ZooKeeperTimeouts;

/** The conformance kit against a real in-process ZooKeeper server. */
class RawZooKeeperTckTest extends ZooKeeperProviderTck {
    private static final LockProvider PROVIDER = new RawZooKeeperLockProvider();

    @Override
    public LockProvider provider() {
        return PROVIDER;
    }

    @Override
    protected ZooKeeperTimeouts timeouts() {
        return ZooKeeperTimeouts.of(Duration.ofSeconds(4), Duration.ofSeconds(5));
    }
}
