package org.lockspi.tck.mutants;

import org.lockspi.tck.ForwardingTckBackend;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * One embedded ZooKeeper and one embedded Redis for every mutant of the module: the runs take their lock names
 * from {@code uniqueName}, so one server serves them all. A run's backend is a view whose {@code close()} does
 * nothing; {@link #closeAll()} stops the servers after the last run.
 */
final class SharedBackends {
    private static TckBackend zooKeeper; // guarded by the class
    private static TckBackend redis;     // guarded by the class

    private SharedBackends() {
    }

    static synchronized TckBackend zooKeeper() {
        if (zooKeeper == null) {
            zooKeeper = EmbeddedZooKeeperBackend.start();
        }
        return new Shared(zooKeeper);
    }

    static synchronized TckBackend redis() {
        if (redis == null) {
            redis = EmbeddedRedisBackend.start();
        }
        return new Shared(redis);
    }

    static synchronized void closeAll() {
        for (TckBackend backend : new TckBackend[] {zooKeeper, redis}) {
            if (backend != null) {
                backend.close();
            }
        }
        zooKeeper = null;
        redis = null;
    }

    /** A run's view of a shared server: everything but close(). */
    private static final class Shared extends ForwardingTckBackend {
        Shared(TckBackend server) {
            super(server);
        }

        @Override
        public String description() {
            return delegate().description() + " (shared by the mutants)";
        }

        @Override
        public void close() {
            // the server is shared: closeAll() stops it
        }
    }
}
