package org.lockspi.soak;

/** The outage soak on the zkclient provider and an in-process ZooKeeper server. */
class ZkClientOutageSoakTest extends ZooKeeperOutageSoak {

    @Override
    String provider() {
        return "zkclient";
    }
}
