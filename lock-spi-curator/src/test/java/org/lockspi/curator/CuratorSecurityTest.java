package org.lockspi.curator;

import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperSecurityTck;

/** ACLs (an ACLProvider) and TLS (a ZKClientConfig on Curator's handles) of {@code curator} on real servers. */
class CuratorSecurityTest extends ZooKeeperSecurityTck {
    @Override
    protected LockProvider provider() {
        return new CuratorLockProvider();
    }
}
