package org.lockspi.soak;

/** The outage soak on the zkclient provider. */
class ZkClientOutageSoakTest extends ZooKeeperOutageSoak {

    @Override
    String provider() {
        return "zkclient";
    }
}
