package org.lockspi.soak;

import java.time.Duration;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/** The outage soak on the redis-baseline provider and a redis-server child process (lease time 3 s). */
class RedisOutageSoakTest extends OutageSoak {

    @Override
    TckBackend startBackend() {
        return EmbeddedRedisBackend.start();
    }

    @Override
    String provider() {
        return "redis-baseline";
    }

    @Override
    String parameters() {
        return "leaseTime=3s&connectTimeout=2s&socketTimeout=1s";
    }

    @Override
    Duration leaseSpan() {
        return Duration.ofSeconds(3);
    }
}
