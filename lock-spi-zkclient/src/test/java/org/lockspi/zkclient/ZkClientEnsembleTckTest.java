package org.lockspi.zkclient;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperEnsembleProviderTck;
import org.lockspi.tck.zookeeper.ZooKeeperTimeouts;

/** The ensemble contracts (§19) against the zkclient provider and a real three-member ZooKeeper ensemble. */
class ZkClientEnsembleTckTest extends ZooKeeperEnsembleProviderTck {
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
