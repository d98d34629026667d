package org.lockspi.zookeeper.raw;

import java.time.Duration;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.EnsembleProviderTck;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.zookeeper.ZooKeeperEnsembleBackend;

/** The ensemble contracts (§19) against a real three-member ZooKeeper ensemble in child JVMs. */
class RawZooKeeperEnsembleTckTest extends EnsembleProviderTck {
    private static final LockProvider PROVIDER = new RawZooKeeperLockProvider();

    @Override
    public LockProvider provider() {
        return PROVIDER;
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
        return Duration.ofSeconds(4 + 6);
    }
}
