package org.lockspi.tck.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.lockspi.tck.support.FileTrees;
import org.lockspi.tck.support.Ports;

/**
 * A Redis Cluster of three masters on 127.0.0.1 (no replicas), each a {@code redis-server} child process (the
 * executable of {@link EmbeddedRedisBackend}) with {@code cluster-enabled yes} and an append-only file. The
 * cluster is formed with the servers' own commands, as {@code redis-cli --cluster create} would (the embedded-redis
 * artifact has no {@code redis-cli}): {@code CLUSTER ADDSLOTS} gives each master a third of the 16384 slots,
 * {@code CLUSTER MEET} introduces them; the backend returns once every node reports {@code cluster_state:ok}.
 * Clients use {@code redis-cluster://n1,n2,n3}.
 *
 * <p>Capabilities: INSPECT and FORCE_LOSS (on the master of the lock's slot), OTHER_PROCESSES.
 */
public final class ClusterRedisBackend extends TopologyBackend {
    private static final int SLOTS = 16384;

    private final Path root;
    private final String binary;
    private final List<RedisProcess> masters = new ArrayList<>();
    private final RedisInspector inspector;
    private volatile String version = "?";
    private boolean closed; // guarded by this

    private ClusterRedisBackend(Path root, String binary) {
        this.root = root;
        this.binary = binary;
        this.inspector = new RedisInspector(this::nodeOf);
    }

    /**
     * Starts three masters, assigns the slots, joins them, and waits until the cluster serves every slot.
     *
     * @return the started backend; close it when done
     * @throws IllegalStateException if a server does not start or the cluster is not ok within 30 s
     */
    public static ClusterRedisBackend start() {
        RedisBinary chosen = RedisBinary.chosen();
        File executable = chosen.file();
        Path root;
        try {
            root = Files.createTempDirectory("lockspi-redis-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for Redis Cluster", e);
        }
        ClusterRedisBackend backend = new ClusterRedisBackend(root, chosen.description());
        try {
            for (int i = 0; i < 3; i++) {
                // The cluster bus listens on port + 10000: take a port whose bus port is free too.
                backend.masters.add(RedisProcess.onFreePort(executable, root, "node", false,
                        port -> port <= 55535 && isFree(port + 10000),
                        port -> List.of("cluster-enabled yes", "cluster-config-file nodes.conf",
                                "cluster-node-timeout 5000", "appendonly yes", "appendfsync always",
                                "save \"\"")));
            }
            for (int i = 0; i < 3; i++) {
                int[] slots = IntStream.range(first(i), first(i + 1)).toArray();
                try (Resp redis = backend.masters.get(i).connect()) {
                    String[] command = new String[slots.length + 2];
                    command[0] = "CLUSTER";
                    command[1] = "ADDSLOTS";
                    for (int s = 0; s < slots.length; s++) {
                        command[s + 2] = Integer.toString(slots[s]);
                    }
                    redis.call(command);
                }
            }
            try (Resp redis = backend.masters.get(0).connect()) {
                for (int i = 1; i < 3; i++) {
                    redis.call("CLUSTER", "MEET", RedisProcess.HOST, Integer.toString(backend.masters.get(i).port()));
                }
            }
            backend.awaitOk(Duration.ofSeconds(30));
            backend.version = backend.inspector.info("redis_version");
            return backend;
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    private static boolean isFree(int port) {
        try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the first slot of master {@code i} (0..2); {@code first(3)} is 16384 */
    private static int first(int i) {
        return i * SLOTS / 3;
    }

    private void awaitOk(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() - deadline < 0) {
            boolean ok = true;
            for (RedisProcess node : masters) {
                try (Resp redis = node.connect()) {
                    String info = redis.text("CLUSTER", "INFO");
                    last = node.port() + ": " + info.replaceAll("\\s+", " ");
                    ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3")
                            && info.contains("cluster_slots_ok:16384");
                } catch (RuntimeException e) { // a node still starting: ask again
                    ok = false;
                    last = e.toString();
                }
            }
            if (ok) {
                return;
            }
            try {
                Thread.sleep(50); // cluster gossip has no event to wait for from here: poll
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while forming the Redis Cluster", e);
            }
        }
        throw new IllegalStateException("the Redis Cluster was not ok within " + timeout + "; last seen: " + last);
    }

    /** @return the master serving a key's slot (the first master for no key) */
    InetSocketAddress nodeOf(String key) {
        int slot = key.isEmpty() ? 0 : Resp.slot(key);
        for (int i = 0; i < 3; i++) {
            if (slot < first(i + 1)) {
                return masters.get(i).address();
            }
        }
        throw new IllegalStateException("slot out of range: " + slot);
    }

    /** @return the ports of the three masters, in slot order */
    public List<Integer> ports() {
        return masters.stream().map(RedisProcess::port).collect(Collectors.toList());
    }

    @Override
    public String description() {
        return "Redis " + version + " (" + binary + ") Cluster of 3 masters at " + nodeList();
    }

    private String nodeList() {
        return masters.stream().map(p -> RedisProcess.HOST + ":" + p.port()).collect(Collectors.joining(","));
    }

    @Override
    public String scheme() {
        return "redis-cluster";
    }

    @Override
    public String uri() {
        return "redis-cluster://" + nodeList();
    }

    @Override
    public String unreachableUri() {
        return "redis-cluster://" + RedisProcess.HOST + ":" + Ports.freeLoopbackPort();
    }

    @Override
    RedisInspector inspector() {
        return inspector;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        masters.forEach(RedisProcess::close);
        try {
            FileTrees.delete(root);
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }

    @Override
    public String toString() {
        return "ClusterRedisBackend[" + uri() + "]";
    }
}
