package org.lockspi.soak;

import java.time.Duration;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/** The outage soak on an in-process ZooKeeper server, with a 4 s session; each subclass names the provider. */
abstract class ZooKeeperOutageSoak extends OutageSoak {

    @Override
    TckBackend startBackend() {
        return EmbeddedZooKeeperBackend.start();
    }

    @Override
    String parameters() {
        return "sessionTimeout=4s&connectTimeout=5s";
    }

    @Override
    Duration leaseSpan() {
        return Duration.ofSeconds(4);
    }
}
