package org.lockspi.curator;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** A real ZooKeeper server in this JVM on a free local port, with server-side inspection for the tests. */
final class ZkTestServer implements AutoCloseable {
    private static final int TICK_MILLIS = 250; // sessions may be 0.5 s .. 5 s

    private final Path dir;
    private int port;
    private ZooKeeperServer server;
    private ServerCnxnFactory factory;

    ZkTestServer() {
        try {
            dir = Files.createTempDirectory("lockspi-curator-zk");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        start();
    }

    private void start() {
        try {
            File data = dir.toFile();
            server = new ZooKeeperServer(data, data, TICK_MILLIS);
            factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), 100);
            factory.startup(server);
            port = factory.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts a server stopped by {@link #stop()} on the same port with the same data. */
    void startAgain() {
        start();
    }

    String connectString() {
        return "127.0.0.1:" + port;
    }

    /** @return ephemeral nodes at or below {@code path}, sorted: what acquisitions left behind */
    List<String> residue(String path) {
        List<String> found = new ArrayList<>();
        Map<Long, Set<String>> ephemerals = server.getZKDatabase().getDataTree().getEphemerals();
        for (Set<String> nodes : ephemerals.values()) {
            for (String node : nodes) {
                if (node.equals(path) || node.startsWith(path + "/")) {
                    found.add(node);
                }
            }
        }
        found.sort(Comparator.naturalOrder());
        return found;
    }

    /** Expires, on the server, every session that owns an ephemeral node at or below {@code path}. */
    void expireOwners(String path) {
        Map<Long, Set<String>> ephemerals = server.getZKDatabase().getDataTree().getEphemerals();
        for (Map.Entry<Long, Set<String>> e : ephemerals.entrySet()) {
            if (e.getValue().stream().anyMatch(n -> n.equals(path) || n.startsWith(path + "/"))) {
                server.expire(e.getKey());
            }
        }
    }

    /** @return how many watches sessions have on nodes at or below {@code path} */
    int watchCount(String path) {
        int count = 0;
        for (Map.Entry<String, Set<Long>> e
                : server.getZKDatabase().getDataTree().getWatchesByPath().toMap().entrySet()) {
            if (e.getKey().equals(path) || e.getKey().startsWith(path + "/")) {
                count += e.getValue().size();
            }
        }
        return count;
    }

    /** Stops and starts the server on the same port with the same data. */
    void restart() {
        stop();
        start();
    }

    /** Stops the server, keeping its data and port for {@link #startAgain()}. */
    void stop() {
        factory.shutdown();
        server.shutdown();
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
