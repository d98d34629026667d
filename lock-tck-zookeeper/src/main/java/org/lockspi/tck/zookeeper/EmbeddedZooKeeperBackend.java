package org.lockspi.tck.zookeeper;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.TreeMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.EphemeralType;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.watch.IWatchManager;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.FileTrees;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.internal.Failures;
import org.lockspi.tck.support.WireProtocol;

/**
 * A real ZooKeeper server (the version on the class path, 3.9 here) running in this JVM, with every
 * {@link Capability} but {@link Capability#ENSEMBLE} and {@code RESTART_WITHOUT_DATA}.
 *
 * <p>The server is a plain {@link ZooKeeperServer} behind a {@link ServerCnxnFactory} on a free port of
 * {@code 127.0.0.1}, as ZooKeeper's own standalone main and Curator's {@code TestingServer} run it, so its session
 * tracker, data tree and watch manager are at hand for the server-side capabilities. It runs with a fast tick
 * ({@value #TICK_MS} ms; sessions from {@value #MIN_SESSION_MS} ms to {@value #MAX_SESSION_MS} ms), the admin
 * server off, a container reaper every {@value #CONTAINER_CHECK_MS} ms (ZooKeeper's default is 60 s) and its data
 * in a temporary directory that {@link #close()} deletes. Clients use the chroot {@value #ROOT}, which the backend
 * creates.
 *
 * <p>Because the contracts restart the server and keep no state across JVM crashes, the transaction log is not
 * forced to disk ({@code zookeeper.forceSync=no}, set unless already set); this changes nothing a client sees.
 * Unless set, {@code zookeeper.admin.enableServer} is set to {@code false} and {@code zookeeper.maxCnxns} (all
 * connections to one server) to 1000.
 *
 * <pre>{@code
 * try (EmbeddedZooKeeperBackend zk = EmbeddedZooKeeperBackend.start()) {
 *     try (LockService locks = Locks.open(zk.uri())) { ... }
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 *
 * <p>(Over 600 lines: the server's life and every server-side capability of the kit are here, each a few lines over
 * the server's own objects; the wire framing and the session list are apart, in {@link ZooKeeperWire} and
 * {@link ServerSessions}.)
 */
public final class EmbeddedZooKeeperBackend implements TckBackend {

    /** The chroot clients work under: {@value}. */
    public static final String ROOT = "/tck";
    /** The server's tick in milliseconds. */
    public static final int TICK_MS = 500;
    /** The shortest session timeout the server grants, in milliseconds. */
    public static final int MIN_SESSION_MS = 1_000;
    /** The longest session timeout the server grants, in milliseconds. */
    public static final int MAX_SESSION_MS = 60_000;
    /** How often the container reaper looks for empty container nodes, in milliseconds. */
    public static final int CONTAINER_CHECK_MS = 10_000;

    private static final long WAIT_MS = 10_000;
    private static final WireProtocol WIRE = new ZooKeeperWire();

    private final Path dataDir;
    /** Chosen at the first start, kept across restarts. */
    private volatile int port;
    private Server server;
    private ServerCnxnFactory factory;
    private ContainerManager reaper;
    private boolean closed;

    /** ZooKeeperServer with its request pipeline reachable, for the container reaper. */
    private static final class Server extends ZooKeeperServer {
        Server(File dataDir) throws IOException {
            super(dataDir, dataDir, TICK_MS);
            setMinSessionTimeout(MIN_SESSION_MS);
            setMaxSessionTimeout(MAX_SESSION_MS);
        }

        RequestProcessor pipeline() {
            return firstProcessor;
        }

        /**
         * Loads the data, then moves the server to the next epoch, as a quorum does when it elects a leader: the
         * next zxid is {@code (epoch + 1) << 32}, {@code 2^32} at the first start. Zxids (and the tokens taken
         * from them) are then above {@code 2^32} from the start, and every restart raises the high word while
         * the low word starts again near zero, so a token cut to 32 bits would go down across a restart.
         */
        @Override
        public void loadData() throws IOException, InterruptedException {
            super.loadData();
            setZxid(nextEpochStart(getZxid()));
        }
    }

    /**
     * @param zxid the last zxid a server processed
     * @return the first zxid of the epoch after {@code zxid}'s: {@code ((zxid >>> 32) + 1) << 32}
     */
    static long nextEpochStart(long zxid) {
        return ((zxid >>> 32) + 1) << 32;
    }

    private EmbeddedZooKeeperBackend(Path dataDir) {
        this.dataDir = dataDir;
    }

    /**
     * Starts a server on a free port with a fresh data directory and creates the chroot {@value #ROOT}.
     *
     * @return the started backend; close it when done
     * @throws UncheckedIOException  if the server cannot be started
     * @throws IllegalStateException if the server does not come up in time, or the thread is interrupted
     */
    public static EmbeddedZooKeeperBackend start() {
        System.setProperty("zookeeper.admin.enableServer",
                System.getProperty("zookeeper.admin.enableServer", "false"));
        System.setProperty("zookeeper.forceSync", System.getProperty("zookeeper.forceSync", "no"));
        // a limit on connections in all (unset, the server warns at every start)
        System.setProperty("zookeeper.maxCnxns", System.getProperty("zookeeper.maxCnxns", "1000"));
        Path dir;
        try {
            dir = Files.createTempDirectory("lockspi-zookeeper-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data directory for the embedded ZooKeeper", e);
        }
        EmbeddedZooKeeperBackend backend = new EmbeddedZooKeeperBackend(dir);
        try {
            synchronized (backend) {
                backend.port = backend.startOn(0);
            }
            backend.createRoot();
            return backend;
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    @Override
    public String description() {
        return "embedded ZooKeeper " + Version.getVersion() + " at " + address();
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

    /** @return {@code 127.0.0.1:<port>}, the server's client address */
    public String address() {
        return "127.0.0.1:" + port;
    }

    /** @return the server's client port */
    public int port() {
        return port;
    }

    /**
     * Every capability, named one by one so that a capability added later is not claimed unseen. Zxids start at
     * {@code 2^32} ({@link Capability#COUNTERS_ABOVE_32_BITS}): the server begins each start with a new epoch.
     */
    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART, Capability.WAKEUP_REGISTRATIONS,
                Capability.EMPTY_STATE_REMOVAL, Capability.OTHER_PROCESSES, Capability.COUNTERS_ABOVE_32_BITS,
                Capability.PARTITION, Capability.ENDS_SILENT_SESSIONS, Capability.REQUEST_FAULTS,
                Capability.SESSIONS);
    }

    /** @return the ZooKeeper client protocol, {@link ZooKeeperWire} */
    @Override
    public WireProtocol wireProtocol() {
        return WIRE;
    }

    /**
     * Every session the server's tracker keeps, each with the address of the connection serving it now ({@code ""}
     * while it has none); the backend's own short-lived clients have closed theirs.
     */
    @Override
    public synchronized List<Session> openSessions() {
        checkOpen();
        return ServerSessions.list(server, factory);
    }

    /**
     * Expires the session on the server, as its tracker does when the session times out (as {@link #forceLoss}
     * does for a lock's holders); returns once it owns no ephemeral node.
     */
    @Override
    public synchronized void endSession(Session session) {
        DataTree tree = tree();
        long number = ServerSessions.number(session);
        ServerSessions.expire(server, number);
        awaitNoEphemerals(tree, List.of(number));
    }

    /**
     * The lock and lease nodes below the lock's path: every ephemeral node and every node whose name ends with a
     * sequence number, at any depth. Parent nodes ({@code <path>}, {@code locks}, {@code leases}) are not listed.
     *
     * @return full server paths (with the chroot), sorted
     */
    @Override
    public synchronized List<String> residue(String lockName) {
        DataTree tree = tree();
        List<String> found = new ArrayList<>();
        walk(tree, lockPath(lockName), (path, node) -> {
            if (PlainClient.isLockNode(path.substring(path.lastIndexOf('/') + 1), node.stat.getEphemeralOwner())) {
                found.add(path);
            }
        });
        found.sort(null);
        return found;
    }

    /** Calls {@code visit} with every node strictly below {@code path}, parents before children. */
    private static void walk(DataTree tree, String path, BiConsumer<String, DataNode> visit) {
        DataNode node = tree.getNode(path);
        if (node == null) {
            return;
        }
        Set<String> children;
        synchronized (node) {
            children = new TreeSet<>(node.getChildren());
        }
        for (String child : children) {
            String childPath = path + "/" + child;
            DataNode c = tree.getNode(childPath);
            if (c != null) { // deleted meanwhile
                visit.accept(childPath, c);
                walk(tree, childPath, visit);
            }
        }
    }

    /**
     * Expires, on the server, every session that owns an ephemeral node below the lock's path (holders and
     * waiters), as the session tracker does when a session times out: the server closes the session, deletes its
     * ephemeral nodes and drops its connection, and the client learns on reconnecting that its session expired.
     * The sessions close in reverse queue order (the last waiter first, the holders last), so that no waiter is
     * handed the lock in a session this call ends. Returns once those nodes are gone.
     */
    @Override
    public synchronized void forceLoss(String lockName) {
        DataTree tree = tree();
        // the last in the queue first: a waiter's session is closed before the node ahead of it goes, so no
        // waiter is handed the lock in a session this call is about to end (closes are applied in order)
        TreeMap<Long, Long> ownerBySequence = new TreeMap<>(Comparator.reverseOrder());
        walk(tree, lockPath(lockName), (path, node) -> {
            long owner = node.stat.getEphemeralOwner();
            if (EphemeralType.get(owner) == EphemeralType.NORMAL) {
                ownerBySequence.put(node.stat.getCzxid(), owner);
            }
        });
        Set<Long> owners = new LinkedHashSet<>(ownerBySequence.values());
        for (long session : owners) {
            ServerSessions.expire(server, session);
        }
        awaitNoEphemerals(tree, owners);
    }

    private static void awaitNoEphemerals(DataTree tree, Iterable<Long> sessions) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        for (long session : sessions) {
            // No server-side event announces the end of a close; poll the data tree briefly.
            while (!tree.getEphemerals(session).isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("session 0x" + Long.toHexString(session)
                            + " still owns " + tree.getEphemerals(session) + " " + WAIT_MS + " ms after expiry");
                }
                pause(5);
            }
        }
    }

    /**
     * Stops the server and starts it again on the same port with the same data directory. Sessions survive if their
     * clients reconnect within the session timeout; zxids keep growing: the server starts a new epoch (the high
     * 32 bits of a zxid go up by one, the low 32 bits start again at zero). Returns once the server serves.
     */
    @Override
    public synchronized void restart() {
        checkOpen();
        stopAll();
        startOn(port);
    }

    /**
     * Stops the server, keeping its port and data, until {@link #startServer()}: clients lose their connection and
     * cannot reconnect meanwhile. Does nothing if it is stopped already.
     *
     * @throws IllegalStateException if the backend is closed
     */
    @Override
    public synchronized void stopServer() {
        if (closed) {
            throw new IllegalStateException("backend closed: " + description());
        }
        stopAll();
    }

    /**
     * Starts a server stopped by {@link #stopServer()} again on the same port with the same data; sessions whose
     * clients reconnect within their timeout survive. Does nothing if the server runs.
     *
     * @throws IllegalStateException if the backend is closed, or the thread is interrupted
     * @throws UncheckedIOException  if the server cannot be started (the port was taken meanwhile)
     */
    @Override
    public synchronized void startServer() {
        if (closed) {
            throw new IllegalStateException("backend closed: " + description());
        }
        if (server == null) {
            startOn(port);
        }
    }

    /**
     * Expires, on the server, every session it knows (this backend's own short-lived clients have none left), as
     * the session tracker does when sessions time out: each client learns on reconnecting that its session expired.
     * Returns once the expired sessions own no ephemeral node.
     *
     * @throws IllegalStateException if the server is not running, or their nodes outlive 10 s
     */
    public synchronized void expireAllSessions() {
        DataTree tree = tree();
        List<Long> sessions = new ArrayList<>(server.getZKDatabase().getSessions());
        for (long session : sessions) {
            ServerSessions.expire(server, session);
        }
        awaitNoEphemerals(tree, sessions);
    }

    /**
     * @return every data and child watch on the server, one per session and path, over all paths
     * @throws IllegalStateException if the server is not running
     */
    public synchronized int watchCount() {
        return tree().getWatchCount();
    }

    /**
     * @return the full server paths (chroot included) of the container nodes, as the server keeps them
     * @throws IllegalStateException if the server is not running
     */
    public synchronized Set<String> containers() {
        return new TreeSet<>(tree().getContainers());
    }

    /**
     * @param path a full server path (chroot included), such as {@code /tck/orders}
     * @return the names of the node's children, sorted; empty if there is no such node
     * @throws IllegalStateException if the server is not running
     */
    public synchronized List<String> children(String path) {
        DataNode node = tree().getNode(path);
        if (node == null) {
            return List.of();
        }
        synchronized (node) {
            return List.copyOf(new TreeSet<>(node.getChildren()));
        }
    }

    /**
     * Counts the watches on the lock's path and every path below, one per session and path: data watches (set by
     * {@code getData} and {@code exists}) and child watches (set by {@code getChildren}), since a waiter may wait on
     * either (a semaphore's first waiter watches the permits' children). {@code lockName} may be extended by a path
     * below the lock, such as {@code orders/_c_9f1d-lock-0000000003}, to count the watches on that node and below.
     */
    @Override
    public synchronized int wakeupRegistrations(String lockName) {
        String path = lockPath(lockName);
        int count = 0;
        for (IWatchManager watches : new IWatchManager[] {dataWatches(), childWatches()}) {
            for (Map.Entry<String, Set<Long>> e : watches.getWatchesByPath().toMap().entrySet()) {
                if (e.getKey().equals(path) || e.getKey().startsWith(path + "/")) {
                    count += e.getValue().size();
                }
            }
        }
        return count;
    }

    private IWatchManager dataWatches() {
        return watchManager("dataWatches");
    }

    /** The server keeps child watches apart and offers no view of them by path: its own field, read as it is. */
    private IWatchManager childWatches() {
        return watchManager("childWatches");
    }

    private IWatchManager watchManager(String field) {
        DataTree tree = tree();
        try {
            java.lang.reflect.Field watches = DataTree.class.getDeclaredField(field);
            watches.setAccessible(true);
            return (IWatchManager) watches.get(tree);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ZooKeeper " + Version.getFullVersion() + " keeps no " + field
                    + " in its DataTree", e);
        }
    }

    /**
     * Deletes the lock's path, with its empty internal nodes ({@code locks}, {@code leases}) and its empty
     * ancestors below {@value #ROOT}, if no lock or lease node is left below it; does nothing otherwise. The next
     * acquisition must create the path again, and the server starts its sequence numbers again.
     */
    @Override
    public synchronized void removeEmptyState(String lockName) {
        String path = lockPath(lockName);
        withClient(zk -> {
            if (removeIfUnused(zk, path)) {
                for (String p = parent(path); !p.equals(ROOT); p = parent(p)) {
                    try {
                        zk.delete(p, -1);
                    } catch (KeeperException.NotEmptyException | KeeperException.NoNodeException e) {
                        break;
                    }
                }
            }
        });
    }

    /** @return whether {@code path} is gone now */
    private static boolean removeIfUnused(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        List<String> children;
        try {
            children = zk.getChildren(path, false);
        } catch (KeeperException.NoNodeException e) {
            return true;
        }
        boolean empty = true;
        for (String child : children) {
            String childPath = path + "/" + child;
            Stat stat = zk.exists(childPath, false);
            if (stat != null && PlainClient.isLockNode(child, stat.getEphemeralOwner())) {
                empty = false;
            } else if (!removeIfUnused(zk, childPath)) {
                empty = false;
            }
        }
        if (!empty) {
            return false;
        }
        try {
            zk.delete(path, -1);
            return true;
        } catch (KeeperException.NoNodeException e) {
            return true;
        } catch (KeeperException.NotEmptyException e) {
            return false;
        }
    }

    /** Stops the server and deletes its data directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            stopAll();
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            FileTrees.delete(dataDir);
        } catch (IOException e) {
            UncheckedIOException u = new UncheckedIOException("cannot delete " + dataDir, e);
            failure = Failures.chain(failure, u);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return description();
    }

    // ---------------------------------------------------------------------------------------------------------

    private String lockPath(String lockName) {
        if (lockName == null || lockName.isEmpty() || lockName.startsWith("/") || lockName.endsWith("/")) {
            throw new IllegalArgumentException("not a lock name: " + lockName);
        }
        return ROOT + "/" + lockName;
    }

    private DataTree tree() {
        checkOpen();
        return server.getZKDatabase().getDataTree();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("backend closed: " + description());
        }
        if (server == null) {
            throw new IllegalStateException("server not running: " + description());
        }
    }

    /** Starts server, connection factory and reaper on {@code bindPort} (0: any free port); returns the port. */
    private int startOn(int bindPort) {
        Server zks = null;
        ServerCnxnFactory cnxns = null;
        try {
            zks = new Server(dataDir.toFile());
            cnxns = ServerCnxnFactory.createFactory(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), bindPort), 0);
            cnxns.startup(zks);
            ContainerManager containers = new ContainerManager(zks.getZKDatabase(), zks.pipeline(),
                    CONTAINER_CHECK_MS, 10_000);
            containers.start();
            server = zks;
            factory = cnxns;
            reaper = containers;
            return cnxns.getLocalPort();
        } catch (IOException e) {
            shutdown(cnxns, zks);
            throw new UncheckedIOException("cannot start ZooKeeper on 127.0.0.1:" + bindPort, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdown(cnxns, zks);
            throw new IllegalStateException("interrupted while starting ZooKeeper on 127.0.0.1:" + bindPort, e);
        }
    }

    private void stopAll() {
        if (reaper != null) {
            reaper.stop();
            reaper = null;
        }
        shutdown(factory, server);
        factory = null;
        server = null;
    }

    private static void shutdown(ServerCnxnFactory cnxns, ZooKeeperServer zks) {
        if (cnxns != null) {
            cnxns.shutdown(); // also shuts the server down
        }
        if (zks != null) {
            if (zks.isRunning()) {
                zks.shutdown();
            }
            try {
                zks.getTxnLogFactory().close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close ZooKeeper's transaction log", e);
            }
        }
    }

    private void createRoot() {
        withClient(zk -> {
            try {
                zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // already there
            }
        });
    }

    /** Runs {@code work} with a short-lived plain client on the server's root (no chroot). */
    private void withClient(PlainClient.Work work) {
        PlainClient.run(address(), description(), work);
    }

    private static String parent(String path) {
        return path.substring(0, path.lastIndexOf('/'));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
