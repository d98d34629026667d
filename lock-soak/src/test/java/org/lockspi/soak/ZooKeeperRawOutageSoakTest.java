package org.lockspi.soak;

/** The outage soak on the zookeeper-raw provider. */
class ZooKeeperRawOutageSoakTest extends ZooKeeperOutageSoak {

    @Override
    String provider() {
        return "zookeeper-raw";
    }
}
