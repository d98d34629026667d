package org.lockspi.soak;

/** The outage soak on the curator provider and an in-process ZooKeeper server. */
class CuratorOutageSoakTest extends ZooKeeperOutageSoak {

    @Override
    String provider() {
        return "curator";
    }
}
