package org.lockspi.tck.mutants;

import java.time.Duration;
import java.util.List;
import java.util.Set;
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
    private static final class Shared implements TckBackend {
        private final TckBackend server;

        Shared(TckBackend server) {
            this.server = server;
        }

        @Override
        public String description() {
            return server.description() + " (shared by the mutants)";
        }

        @Override
        public String scheme() {
            return server.scheme();
        }

        @Override
        public String uri() {
            return server.uri();
        }

        @Override
        public String unreachableUri() {
            return server.unreachableUri();
        }

        @Override
        public Set<Capability> capabilities() {
            return server.capabilities();
        }

        @Override
        public List<String> residue(String lockName) {
            return server.residue(lockName);
        }

        @Override
        public void forceLoss(String lockName) {
            server.forceLoss(lockName);
        }

        @Override
        public void restart() {
            server.restart();
        }

        @Override
        public void stopServer() {
            server.stopServer();
        }

        @Override
        public void startServer() {
            server.startServer();
        }

        @Override
        public void restartWithoutData(Duration downtime) {
            server.restartWithoutData(downtime);
        }

        @Override
        public int wakeupRegistrations(String lockName) {
            return server.wakeupRegistrations(lockName);
        }

        @Override
        public void removeEmptyState(String lockName) {
            server.removeEmptyState(lockName);
        }

        @Override
        public org.lockspi.tck.support.WireProtocol wireProtocol() {
            return server.wireProtocol();
        }

        @Override
        public List<Session> openSessions() {
            return server.openSessions();
        }

        @Override
        public void endSession(Session session) {
            server.endSession(session);
        }

        @Override
        public void close() {
            // the server is shared: closeAll() stops it
        }
    }
}
