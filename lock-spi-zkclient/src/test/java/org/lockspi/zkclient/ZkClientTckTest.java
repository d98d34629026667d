package org.lockspi.zkclient;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperProviderTck;
import org.lockspi.tck.zookeeper.ZooKeeperTimeouts;

/** The conformance kit against the zkclient provider and a real ZooKeeper server in this JVM. */
class ZkClientTckTest extends ZooKeeperProviderTck {
    private static final LockProvider PROVIDER = new ZkClientLockProvider();

    @Override
    public LockProvider provider() {
        return PROVIDER;
    }

    @Override
    protected ZooKeeperTimeouts timeouts() {
        return ZooKeeperTimeouts.of(Duration.ofSeconds(4), Duration.ofSeconds(5));
    }
}
