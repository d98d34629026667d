package org.lockspi.zookeeper.raw;

import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperSecurityTck;

/** ACLs and TLS of {@code zookeeper-raw} on real servers. */
class RawZooKeeperSecurityTest extends ZooKeeperSecurityTck {
    @Override
    protected LockProvider provider() {
        return new RawZooKeeperLockProvider();
    }
}
