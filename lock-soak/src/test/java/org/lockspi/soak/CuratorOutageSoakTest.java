package org.lockspi.soak;

/** The outage soak on the curator provider. */
class CuratorOutageSoakTest extends ZooKeeperOutageSoak {

    @Override
    String provider() {
        return "curator";
    }
}
