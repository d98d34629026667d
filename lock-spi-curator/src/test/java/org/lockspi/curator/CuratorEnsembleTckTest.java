package org.lockspi.curator;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.EnsembleProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.zookeeper.ZooKeeperEnsembleBackend;

/** The ensemble contracts (§19) against the Curator provider and a real three-member ZooKeeper ensemble. */
class CuratorEnsembleTckTest extends EnsembleProviderTck {
    private final LockProvider provider = new CuratorLockProvider();

    @Override
    public LockProvider provider() {
        return provider;
    }

    @Override
    protected TckBackend startBackend() {
        return ZooKeeperEnsembleBackend.start();
    }

    @Override
    protected String clientParameters() {
        return "sessionTimeout=3s&connectTimeout=1s&retryBaseSleep=50ms&retryMaxRetries=2";
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(3 + 5);
    }
}
