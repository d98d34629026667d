package org.lockspi.tck.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.Ports;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A ZooKeeper server of any version in a container, e.g. {@code zookeeper:3.8} or {@code zookeeper:3.9}, with
 * lock paths under {@value #ROOT}. Capabilities: INSPECT (the lock and lease nodes below a lock's path: ephemeral
 * nodes and nodes whose names end in a 10-digit sequence), OTHER_PROCESSES and PARTITION (a proxy on the host
 * reaches the mapped port); not FORCE_LOSS, RESTART,
 * WAKEUP_REGISTRATIONS or EMPTY_STATE_REMOVAL, which need the server's insides.
 */
public final class ZooKeeperContainerBackend implements TckBackend {
    /** The path under which the TCK's locks live: {@value}. */
    public static final String ROOT = "/tck";

    private static final int CLIENT_PORT = 2181;
    private static final Pattern SEQUENTIAL = Pattern.compile("\\d{10}$");

    private final GenericContainer<?> container;
    private final String image;

    private ZooKeeperContainerBackend(GenericContainer<?> container, String image) {
        this.container = container;
        this.image = image;
    }

    /**
     * Starts a container; needs a Docker engine.
     *
     * @param image the image, e.g. {@code zookeeper:3.8}
     * @return the started backend; close it when done
     * @throws IllegalStateException if no Docker engine is available (from Testcontainers)
     */
    @SuppressWarnings("resource") // closed by close()
    public static ZooKeeperContainerBackend start(String image) {
        Objects.requireNonNull(image, "image");
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image)
                .asCompatibleSubstituteFor("zookeeper"))
                .withExposedPorts(CLIENT_PORT)
                .withEnv("ZOO_4LW_COMMANDS_WHITELIST", "ruok,srvr")
                .waitingFor(Wait.forListeningPort().withStartupTimeout(Duration.ofSeconds(60)));
        container.start();
        return new ZooKeeperContainerBackend(container, image);
    }

    private String address() {
        return container.getHost() + ":" + container.getMappedPort(CLIENT_PORT);
    }

    @Override
    public String description() {
        return "ZooKeeper (container " + image + ") at " + address();
    }

    @Override
    public String scheme() {
        return "zookeeper";
    }

    @Override
    public String uri() {
        return "zookeeper://" + address() + ROOT;
    }

    @Override
    public String unreachableUri() {
        return "zookeeper://127.0.0.1:" + Ports.freeLoopbackPort() + ROOT;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.OTHER_PROCESSES, Capability.PARTITION,
                Capability.ENDS_SILENT_SESSIONS);
    }

    @Override
    public List<String> residue(String lockName) {
        List<String> found = new ArrayList<>();
        ZooKeeper zk = connect();
        try {
            collect(zk, ROOT + "/" + lockName, found);
        } catch (KeeperException e) {
            throw new IllegalStateException("cannot list " + ROOT + "/" + lockName + " on " + address(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted listing " + lockName, e);
        } finally {
            try {
                zk.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        found.sort(null);
        return found;
    }

    private static void collect(ZooKeeper zk, String path, List<String> found)
            throws KeeperException, InterruptedException {
        List<String> children;
        try {
            children = zk.getChildren(path, false);
        } catch (KeeperException.NoNodeException e) {
            return;
        }
        for (String child : children) {
            String childPath = path + "/" + child;
            Stat stat = zk.exists(childPath, false);
            if (stat == null) {
                continue;
            }
            if (stat.getEphemeralOwner() != 0 || SEQUENTIAL.matcher(child).find()) {
                found.add(childPath);
            }
            collect(zk, childPath, found);
        }
    }

    private ZooKeeper connect() {
        CountDownLatch connected = new CountDownLatch(1);
        try {
            ZooKeeper zk = new ZooKeeper(address(), 10_000, e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            if (!connected.await(10, TimeUnit.SECONDS)) {
                zk.close();
                throw new IllegalStateException("cannot connect to " + address() + " within 10 s");
            }
            return zk;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + address(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted connecting to " + address(), e);
        }
    }

    @Override
    public void forceLoss(String lockName) {
        throw new UnsupportedOperationException("capability FORCE_LOSS: " + description());
    }

    @Override
    public void restart() {
        throw new UnsupportedOperationException("capability RESTART: " + description());
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "ZooKeeperContainerBackend[" + image + "]";
    }
}
