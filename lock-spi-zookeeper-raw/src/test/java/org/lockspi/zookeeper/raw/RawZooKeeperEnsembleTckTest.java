package org.lockspi.zookeeper.raw;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperEnsembleProviderTck;
import org.lockspi.tck.zookeeper.ZooKeeperTimeouts;

/** The ensemble contracts (§19) against a real three-member ZooKeeper ensemble in child JVMs. */
class RawZooKeeperEnsembleTckTest extends ZooKeeperEnsembleProviderTck {
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
