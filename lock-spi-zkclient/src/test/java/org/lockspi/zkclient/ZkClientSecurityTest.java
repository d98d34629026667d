package org.lockspi.zkclient;

import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.ZooKeeperSecurityTck;

/** ACLs and TLS of {@code zkclient} on real servers (its ZooKeeper handles are built with their own configuration). */
class ZkClientSecurityTest extends ZooKeeperSecurityTck {
    @Override
    protected LockProvider provider() {
        return new ZkClientLockProvider();
    }
}
