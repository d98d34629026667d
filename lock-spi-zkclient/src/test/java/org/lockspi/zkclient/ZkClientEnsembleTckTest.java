package org.lockspi.zkclient;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.EnsembleProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.zookeeper.ZooKeeperEnsembleBackend;

/** The ensemble contracts (§19) against the zkclient provider and a real three-member ZooKeeper ensemble. */
class ZkClientEnsembleTckTest extends EnsembleProviderTck {
    private final LockProvider provider = new ZkClientLockProvider();

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
        return "sessionTimeout=4s&connectTimeout=5s";
    }

    @Override
    public Duration crashReleaseBound() {
        return Duration.ofSeconds(10);
    }
}
