package org.lockspi.zkclient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A real ZooKeeper server in this JVM on a free loopback port that can be stopped and started again on the same
 * port with the same data, for tests that need the server gone for a while. Admin server off, 200 ms tick.
 */
final class TestZooKeeper implements AutoCloseable {
    private static final int TICK_MS = 200;

    private final Path dataDir;
    private int port;
    private ZooKeeperServer server;
    private ServerCnxnFactory factory;

    private TestZooKeeper(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** @return a started server; close it when done */
    static TestZooKeeper start() {
        System.setProperty("zookeeper.admin.enableServer", "false");
        System.setProperty("zookeeper.forceSync", "no");
        try {
            TestZooKeeper zk = new TestZooKeeper(Files.createTempDirectory("lockspi-zkclient-test-"));
            zk.startServer();
            return zk;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the connect string, {@code 127.0.0.1:port} */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** @return the running server */
    synchronized ZooKeeperServer server() {
        if (server == null) {
            throw new IllegalStateException("server stopped");
        }
        return server;
    }

    /** @return data and child watches on the server, over all sessions */
    synchronized int watchCount() {
        return server().getZKDatabase().getDataTree().getWatchCount();
    }

    /** @return the paths of the container nodes */
    synchronized java.util.Set<String> containers() {
        return server().getZKDatabase().getDataTree().getContainers();
    }

    /** Expires every session on the server, as its session tracker would. */
    synchronized void expireAllSessions() {
        List<Long> sessions = new ArrayList<>(server().getZKDatabase().getSessions());
        for (long session : sessions) {
            server.getSessionTracker().setSessionClosing(session);
            server.expire(session);
        }
    }

    synchronized void stop() {
        if (factory != null) {
            factory.shutdown();
            factory = null;
        }
        if (server != null) {
            server.shutdown();
            server = null;
        }
    }

    synchronized void startServer() {
        try {
            ZooKeeperServer zks = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MS);
            zks.setMinSessionTimeout(2 * TICK_MS);
            zks.setMaxSessionTimeout(60_000);
            ServerCnxnFactory cnxns = ServerCnxnFactory.createFactory(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
            cnxns.startup(zks);
            server = zks;
            factory = cnxns;
            port = cnxns.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ZooKeeper", e);
        }
    }

    @Override
    public synchronized void close() {
        stop();
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dataDir, e);
        }
    }
}
