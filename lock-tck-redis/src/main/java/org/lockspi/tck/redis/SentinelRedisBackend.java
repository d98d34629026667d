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
import java.util.Map;
import java.util.stream.Collectors;
import org.lockspi.tck.support.FileTrees;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.support.TcpProxy;

/**
 * A Redis Sentinel deployment on 127.0.0.1, every server a {@code redis-server} child process of its own (the
 * executable of {@link EmbeddedRedisBackend}): a master and one replica (asynchronous replication, append-only
 * file with {@code appendfsync always}) and three sentinels monitoring them as {@value #MASTER_NAME} with quorum
 * 2. Clients use {@code redis-sentinel://s1,s2,s3/lockspi}.
 *
 * <p>{@link #killMaster()} kills the current master with {@code SIGKILL}; the sentinels promote the replica after
 * {@code down-after-milliseconds} and an election; {@link #awaitFailover} waits for that, {@link #startKilled}
 * brings the killed server back, which the sentinels turn into a replica of the new master.
 *
 * <p>Capabilities: INSPECT, FORCE_LOSS (on the current master), OTHER_PROCESSES. Not RESTART: a master down longer
 * than {@code down-after-milliseconds} is replaced, which is a failover, not the restart the contracts mean.
 */
public final class SentinelRedisBackend extends TopologyBackend {
    /** The name the sentinels monitor the master under: {@value}. */
    public static final String MASTER_NAME = "lockspi";

    private final Path root;
    private final String binary;
    private final List<RedisProcess> data = new ArrayList<>();
    private final List<RedisProcess> sentinels = new ArrayList<>();
    private final RedisInspector inspector;
    private volatile String version = "?";
    private TcpProxy proxy; // between the first replica and the first master, if asked for
    private boolean closed; // guarded by this

    private SentinelRedisBackend(Path root, String binary) {
        this.root = root;
        this.binary = binary;
        this.inspector = new RedisInspector(key -> masterAddress());
    }

    /**
     * Starts the master, the replica and the sentinels, and returns once the sentinels know the replica and each
     * other (a failover can then be elected).
     *
     * @param downAfter the sentinels' {@code down-after-milliseconds}: how long the master must be unreachable
     *                  before they fail over; at least 100 ms
     * @return the started backend; close it when done
     * @throws IllegalStateException if a server does not start or the sentinels do not agree within 30 s
     */
    public static SentinelRedisBackend start(Duration downAfter) {
        return start(downAfter, Duration.ofSeconds(10), false);
    }

    /**
     * Starts the deployment as {@link #start(Duration)} does, with more control for failover tests.
     *
     * @param downAfter             the sentinels' {@code down-after-milliseconds}, at least 100 ms
     * @param failoverTimeout       their {@code failover-timeout}: also the least time between two failovers of
     *                              the master (twice it), and how long they tolerate a replica that replicates from
     *                              another address than the master's (then they reconfigure it); at least 1 s
     * @param replicationThroughProxy whether the replica replicates through a loopback TCP proxy, which
     *                              {@link #cutReplication()} can black-hole: the replica then stays connected and
     *                              eligible for promotion while receiving nothing, as behind a partition; the proxy
     *                              stands until {@code failoverTimeout} has passed, after which the sentinels point
     *                              the replica at the master directly
     * @return the started backend; close it when done
     * @throws IllegalStateException if a server does not start or the sentinels do not agree within 30 s
     */
    public static SentinelRedisBackend start(Duration downAfter, Duration failoverTimeout,
                                             boolean replicationThroughProxy) {
        if (downAfter.toMillis() < 100) {
            throw new IllegalArgumentException("downAfter < 100 ms: " + downAfter);
        }
        if (failoverTimeout.toMillis() < 1000) {
            throw new IllegalArgumentException("failoverTimeout < 1 s: " + failoverTimeout);
        }
        RedisBinary chosen = RedisBinary.chosen();
        File executable = chosen.file();
        Path root;
        try {
            root = Files.createTempDirectory("lockspi-redis-sentinel-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for Redis Sentinel", e);
        }
        SentinelRedisBackend backend = new SentinelRedisBackend(root, chosen.description());
        try {
            List<String> persistence = List.of("appendonly yes", "appendfsync always", "save \"\"");
            RedisProcess master = RedisProcess.onFreePort(executable, root, "data", false, port -> true,
                    port -> persistence);
            backend.data.add(master);
            int masterPort = master.port();
            int upstream = masterPort;
            if (replicationThroughProxy) {
                backend.proxy = TcpProxy.inFrontOf("redis://" + RedisProcess.HOST + ":" + masterPort);
                upstream = backend.proxy.port();
            }
            List<String> replica = new ArrayList<>(persistence);
            replica.add("replicaof " + RedisProcess.HOST + " " + upstream);
            backend.data.add(RedisProcess.onFreePort(executable, root, "data", false, port -> true, port -> replica));
            for (int i = 0; i < 3; i++) {
                backend.sentinels.add(RedisProcess.onFreePort(executable, root, "sentinel", true, port -> true,
                        port -> List.of(
                                "sentinel monitor " + MASTER_NAME + " " + RedisProcess.HOST + " " + masterPort + " 2",
                                "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
                                "sentinel failover-timeout " + MASTER_NAME + " " + failoverTimeout.toMillis(),
                                "sentinel parallel-syncs " + MASTER_NAME + " 1")));
            }
            backend.awaitReady(Duration.ofSeconds(30));
            backend.version = backend.inspector.info("redis_version");
            return backend;
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** Waits until the replica is in sync and every sentinel sees one replica and two other sentinels. */
    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() - deadline < 0) {
            try {
                boolean ready = replicaOnline(masterAddress());
                for (RedisProcess sentinel : sentinels) {
                    try (Resp redis = sentinel.connect()) {
                        Map<String, String> master = redis.fields("SENTINEL", "MASTER", MASTER_NAME);
                        last = sentinel.port() + ": " + master;
                        ready &= "1".equals(master.get("num-slaves"))
                                && "2".equals(master.get("num-other-sentinels"));
                    }
                }
                if (ready) {
                    return;
                }
            } catch (RuntimeException e) { // a server or sentinel still starting: ask again
                last = e.toString();
            }
            pause();
        }
        throw new IllegalStateException("the Redis Sentinel deployment did not become ready within " + timeout
                + "; last seen: " + last);
    }

    private static boolean replicaOnline(InetSocketAddress master) {
        try (Resp redis = Resp.connect(master)) {
            String info = redis.info("replication");
            return info.contains("connected_slaves:1") && info.contains("state=online");
        }
    }

    /**
     * @return the master's address as the first sentinel that answers names it
     * @throws IllegalStateException if no sentinel answers
     */
    public InetSocketAddress masterAddress() {
        RuntimeException last = null;
        for (RedisProcess sentinel : sentinels) {
            try (Resp redis = sentinel.connect()) {
                List<?> master = (List<?>) redis.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
                return InetSocketAddress.createUnresolved(Resp.utf8(master.get(0)),
                        Integer.parseInt(Resp.utf8(master.get(1))));
            } catch (RuntimeException e) { // this sentinel is down or busy: ask the next
                last = e;
            }
        }
        throw new IllegalStateException("no sentinel answers: " + description(), last);
    }

    /**
     * Black-holes the replication stream from the first master to the replica (started with
     * {@code replicationThroughProxy}): from now on the master acknowledges writes the replica never receives,
     * while the replica's link still looks up.
     *
     * @throws IllegalStateException if the backend was started without the proxy
     */
    public synchronized void cutReplication() {
        if (proxy == null) {
            throw new IllegalStateException("started without replicationThroughProxy: " + description());
        }
        proxy.blackHole(true);
    }

    /**
     * Kills the current master's process with {@code SIGKILL}.
     *
     * @return the address it served on, for {@link #awaitFailover} and {@link #startKilled}
     */
    public synchronized InetSocketAddress killMaster() {
        InetSocketAddress master = masterAddress();
        process(master).kill();
        return master;
    }

    /**
     * Waits until the sentinels name another master than {@code old} and that server answers as a master.
     *
     * @param old     the killed master
     * @param timeout how long to wait
     * @return the new master
     * @throws IllegalStateException if no failover happened within {@code timeout}
     */
    public InetSocketAddress awaitFailover(InetSocketAddress old, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            try {
                InetSocketAddress now = masterAddress();
                if (!now.equals(old)) {
                    try (Resp redis = Resp.connect(now)) {
                        if (redis.info("replication").contains("role:master")) {
                            return now;
                        }
                    }
                }
            } catch (RuntimeException e) {
                // sentinels busy electing: ask again
            }
            pause();
        }
        throw new IllegalStateException("no failover from " + old + " within " + timeout + ": " + description());
    }

    /**
     * Starts a killed server again (same port, directory and file); the sentinels make it a replica of the current
     * master. Returns once the master reports it online.
     *
     * @param address the killed server
     * @param timeout how long to wait for it to be an online replica
     */
    public synchronized void startKilled(InetSocketAddress address, Duration timeout) {
        process(address).start();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            try {
                if (replicaOnline(masterAddress())) {
                    return;
                }
            } catch (RuntimeException e) {
                // not yet
            }
            pause();
        }
        throw new IllegalStateException(address + " did not become an online replica within " + timeout);
    }

    private RedisProcess process(InetSocketAddress address) {
        for (RedisProcess p : data) {
            if (p.port() == address.getPort()) {
                return p;
            }
        }
        throw new IllegalArgumentException("no data server of this backend at " + address);
    }

    private static void pause() {
        try {
            Thread.sleep(50); // servers and sentinels have no event to wait for from here: poll
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis Sentinel", e);
        }
    }

    @Override
    public String description() {
        return "Redis " + version + " (" + binary + ") Sentinel: master and replica at "
                + data.stream().map(p -> RedisProcess.HOST + ":" + p.port()).collect(Collectors.joining(","))
                + ", sentinels at " + sentinelList();
    }

    private String sentinelList() {
        return sentinels.stream().map(p -> RedisProcess.HOST + ":" + p.port()).collect(Collectors.joining(","));
    }

    @Override
    public String scheme() {
        return "redis-sentinel";
    }

    @Override
    public String uri() {
        return "redis-sentinel://" + sentinelList() + "/" + MASTER_NAME;
    }

    @Override
    public String unreachableUri() {
        return "redis-sentinel://" + RedisProcess.HOST + ":" + Ports.freeLoopbackPort() + "/" + MASTER_NAME;
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
        sentinels.forEach(RedisProcess::close);
        data.forEach(RedisProcess::close);
        if (proxy != null) {
            proxy.close();
        }
        try {
            FileTrees.delete(root);
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }

    @Override
    public String toString() {
        return "SentinelRedisBackend[" + uri() + "]";
    }
}
