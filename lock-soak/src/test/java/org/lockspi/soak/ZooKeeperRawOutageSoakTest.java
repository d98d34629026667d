package org.lockspi.soak;

/** The outage soak on the zookeeper-raw provider and an in-process ZooKeeper server. */
class ZooKeeperRawOutageSoakTest extends ZooKeeperOutageSoak {

    @Override
    String provider() {
        return "zookeeper-raw";
    }
}
