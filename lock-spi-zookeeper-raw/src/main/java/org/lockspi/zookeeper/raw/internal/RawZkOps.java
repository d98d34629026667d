package org.lockspi.zookeeper.raw.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.zookeeper.recipe.ZkConnectFailures;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkSettings;
import org.lockspi.zookeeper.recipe.ZkTls;

/**
 * {@link ZkOps} on the plain {@link ZooKeeper} client: synchronous calls, one-shot watchers, the session's default
 * watcher for connection state. When a session expires the handle is replaced by a new one, as the ZooKeeper
 * client cannot renew an expired session itself.
 */
public final class RawZkOps implements ZkOps {
    private static final System.Logger LOG = System.getLogger(RawZkOps.class.getName());
    private static final byte[] EMPTY = new byte[0];
    private static final int MAX_PARENT_RACES = 10;

    private final String hosts;
    private final int sessionTimeoutMs;
    private final String digest;
    private final List<org.apache.zookeeper.data.ACL> acl;
    private final Optional<ZkTls> tls;
    private final Map<WatchKey, CallbackWatcher> watches = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock(); // not a monitor: no virtual thread pins on it
    private volatile ZooKeeper zk;         // the current handle
    private Session current;               // guarded by lock
    /** Whether the current handle is connected, as its events say (its own state lags up to a second). */
    private volatile boolean up;
    private ConnectionListener listener;   // guarded by lock
    private volatile boolean closed;

    private RawZkOps(String hosts, int sessionTimeoutMs, String digest, List<org.apache.zookeeper.data.ACL> acl,
                     Optional<ZkTls> tls) {
        this.hosts = hosts;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.digest = digest;
        this.acl = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(acl)); // not List.copyOf: ZooKeeper asks contains(null)
        this.tls = tls;
    }

    /**
     * Connects as the settings say (credentials, the ACL of created nodes, TLS) and waits for the session.
     *
     * @param settings the URI's settings
     * @return the connected operations
     * @throws LockConnectionException if no connection is made in time; the client is closed then
     * @throws InterruptedException    if the thread was interrupted while waiting; the client is closed then
     */
    public static RawZkOps connect(ZkSettings settings) throws InterruptedException {
        return connect(new RawZkOps(settings.hosts(), saturatedMillis(settings.sessionTimeout()),
                settings.digest().orElse(null), settings.acl(), settings.tls()), settings.connectTimeout());
    }

    /**
     * Connects without TLS and waits for the session; nodes are created with {@code CREATOR_ALL_ACL} when
     * {@code digest} is given, {@code OPEN_ACL_UNSAFE} otherwise (the defaults of {@link ZkSettings#ACL}).
     *
     * @param hosts          the ZooKeeper connect string, {@code h1:2181,h2:2181}
     * @param sessionTimeout the session timeout asked of the server
     * @param connectTimeout how long to wait for the first connection
     * @param digest         {@code user:password} for digest authentication, or null
     * @return the connected operations
     * @throws LockConnectionException if no connection is made in time; the client is closed then
     * @throws InterruptedException    if the thread was interrupted while waiting; the client is closed then
     */
    public static RawZkOps connect(String hosts, Duration sessionTimeout, Duration connectTimeout, String digest)
            throws InterruptedException {
        return connect(new RawZkOps(hosts, saturatedMillis(sessionTimeout), digest,
                digest == null ? ZooDefs.Ids.OPEN_ACL_UNSAFE : ZooDefs.Ids.CREATOR_ALL_ACL, Optional.empty()),
                connectTimeout);
    }

    private static int saturatedMillis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    private static RawZkOps connect(RawZkOps ops, Duration connectTimeout) throws InterruptedException {
        String hosts = ops.hosts;
        Session first;
        try {
            ops.lock.lock();
            try {
                first = ops.startSession(false);
            } finally {
                ops.lock.unlock();
            }
            if (!first.connected.await(connectTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw ZkConnectFailures.unreachable(hosts, connectTimeout, null);
            }
        } catch (RuntimeException | InterruptedException | Error e) {
            try {
                ops.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return ops;
    }

    /** Starts a new handle. Caller holds {@link #lock}. */
    private Session startSession(boolean replacement) {
        Session session = new Session(replacement);
        ZKClientConfig config = ZkSettings.clientConfig(tls); // this handle's own: no JAAS, no SASL; TLS if asked
        ZooKeeper handle;
        try {
            handle = new ZooKeeper(hosts, sessionTimeoutMs, session, false, config);
        } catch (IOException | IllegalArgumentException e) {
            throw new LockConnectionException("could not start a ZooKeeper client for " + hosts + ": "
                    + e.getMessage(), e);
        }
        if (digest != null) {
            handle.addAuthInfo("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        session.handle = handle;
        current = session;
        zk = handle;
        return session;
    }

    /** The default watcher of one handle: its connection state. */
    private final class Session implements Watcher {
        final boolean replacement;
        final CountDownLatch connected = new CountDownLatch(1);
        volatile ZooKeeper handle;
        private boolean everConnected;  // event thread only
        private boolean disconnected;   // event thread only

        Session(boolean replacement) {
            this.replacement = replacement;
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None) {
                return;
            }
            ConnectionListener l;
            lock.lock();
            try {
                if (closed || current != this) {
                    return; // an old handle's late events
                }
                l = listener;
            } finally {
                lock.unlock();
            }
            switch (event.getState()) {
                case SyncConnected:
                case ConnectedReadOnly:
                    up = true;
                    if (!everConnected) {
                        everConnected = true;
                        connected.countDown();
                        if (replacement && l != null) {
                            l.newSession();
                        }
                    } else if (disconnected) {
                        disconnected = false;
                        if (l != null) {
                            l.reconnected();
                        }
                    }
                    break;
                case Disconnected:
                    up = false;
                    if (everConnected && !disconnected) {
                        disconnected = true;
                        if (l != null) {
                            l.disconnected();
                        }
                    }
                    break;
                case Expired:
                    up = false;
                    expired(l);
                    break;
                default:
                    break; // AuthFailed, SaslAuthenticated, Closed: nothing for the recipe
            }
        }

        private void expired(ConnectionListener l) {
            watches.clear(); // the server dropped them with the session
            if (l != null) {
                l.sessionExpired();
            }
            lock.lock();
            try {
                if (closed || current != this) {
                    return;
                }
                closeQuietly(handle);
                startSession(true);
            } finally {
                lock.unlock();
            }
        }
    }

    /** Closes an expired handle from its own event thread: without waiting for that thread to end. */
    private static void closeQuietly(ZooKeeper handle) {
        try {
            handle.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing an expired ZooKeeper handle failed", e);
        }
    }

    private ZooKeeper zk() {
        if (closed) {
            throw new IllegalStateException("ZooKeeper client is closed: " + hosts);
        }
        return zk;
    }

    @Override
    public Node createEphemeralSequential(String pathPrefix) throws KeeperException, InterruptedException {
        return create(pathPrefix, CreateMode.EPHEMERAL_SEQUENTIAL, EMPTY);
    }

    @Override
    public Node createEphemeralSequential(String pathPrefix, byte[] data) throws KeeperException,
            InterruptedException {
        return create(pathPrefix, CreateMode.EPHEMERAL_SEQUENTIAL, data);
    }

    @Override
    public Node createEphemeral(String path) throws KeeperException, InterruptedException {
        return create(path, CreateMode.EPHEMERAL, EMPTY);
    }

    @Override
    public Node createEphemeral(String path, byte[] data) throws KeeperException, InterruptedException {
        return create(path, CreateMode.EPHEMERAL, data);
    }

    private Node create(String pathOrPrefix, CreateMode mode, byte[] data) throws KeeperException,
            InterruptedException {
        ZooKeeper handle = zk();
        for (int race = 0; ; race++) {
            Stat stat = new Stat();
            try {
                String path = handle.create(pathOrPrefix, data, acl, mode, stat);
                return new Node(path, stat.getCzxid());
            } catch (KeeperException.NoNodeException e) {
                if (race >= MAX_PARENT_RACES) {
                    throw e; // parents keep vanishing: report it rather than loop
                }
                createParents(handle, pathOrPrefix, acl);
            }
        }
    }

    /** Creates every missing ancestor of {@code path} as a container node with {@code acl}. */
    private static void createParents(ZooKeeper handle, String path, List<org.apache.zookeeper.data.ACL> acl)
            throws KeeperException, InterruptedException {
        int slash = path.indexOf('/', 1);
        while (slash > 0) {
            try {
                handle.create(path.substring(0, slash), EMPTY, acl, CreateMode.CONTAINER);
            } catch (KeeperException.NodeExistsException e) {
                // someone else's, or ours from before: fine
            }
            slash = path.indexOf('/', slash + 1);
        }
    }

    @Override
    public long czxid(String path) throws KeeperException, InterruptedException {
        Stat stat = zk().exists(path, false);
        return stat == null ? -1 : stat.getCzxid();
    }

    @Override
    public Stat stat(String path) throws KeeperException, InterruptedException {
        return zk().exists(path, false);
    }

    @Override
    public List<String> children(String path) throws KeeperException, InterruptedException {
        return zk().getChildren(path, false);
    }

    @Override
    public NodeData data(String path) throws KeeperException, InterruptedException {
        Stat stat = new Stat();
        try {
            return new NodeData(orEmpty(zk().getData(path, false, stat)), stat.getVersion());
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    @Override
    public void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
        zk().setData(path, data, version);
    }

    @Override
    public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
        // without a Stat: the client copies one through the server's DataTree, whose first load and initialisation
        // would pin every virtual thread waiting here at once (JDK 25)
        return watchedData(path, onChange, null) != null;
    }

    @Override
    public NodeData watchData(String path, Runnable onChange) throws KeeperException, InterruptedException {
        Stat stat = new Stat();
        byte[] data = watchedData(path, onChange, stat);
        return data == null ? null : new NodeData(data, stat.getVersion());
    }

    /**
     * Reads a node's data and sets this caller's data watch on it, filling {@code stat} if given.
     *
     * @return the data, empty for a node without; null if there is no node (and so no watch)
     */
    private byte[] watchedData(String path, Runnable onChange, Stat stat) throws KeeperException,
            InterruptedException {
        ZooKeeper handle = zk();
        WatchKey key = new WatchKey(path, onChange, Watcher.WatcherType.Data);
        CallbackWatcher watcher = watches.computeIfAbsent(key, CallbackWatcher::new);
        try {
            return orEmpty(handle.getData(path, watcher, stat));
        } catch (KeeperException.NoNodeException e) {
            watches.remove(key, watcher); // getData sets no watch on a missing node
            return null;
        } catch (KeeperException | InterruptedException | RuntimeException e) {
            watches.remove(key, watcher);
            throw e;
        }
    }

    /** @return the data, or empty for a node without (ZooKeeper answers null then) */
    private static byte[] orEmpty(byte[] data) {
        return data == null ? EMPTY : data;
    }

    @Override
    public List<String> watchChildren(String path, Runnable onChange) throws KeeperException, InterruptedException {
        ZooKeeper handle = zk();
        WatchKey key = new WatchKey(path, onChange, Watcher.WatcherType.Children);
        CallbackWatcher watcher = watches.computeIfAbsent(key, CallbackWatcher::new);
        try {
            return handle.getChildren(path, watcher);
        } catch (KeeperException | InterruptedException | RuntimeException e) {
            watches.remove(key, watcher);
            throw e;
        }
    }

    @Override
    public void unwatch(String path, Runnable onChange) {
        for (Watcher.WatcherType type : new Watcher.WatcherType[] {Watcher.WatcherType.Data,
                Watcher.WatcherType.Children}) {
            CallbackWatcher watcher = watches.remove(new WatchKey(path, onChange, type));
            if (watcher == null || closed) {
                continue;
            }
            // Never 'local' (removed here even if the server cannot be told): a local removal that a connection
            // loss fails queues a watch-removed event in the Disconnected state, after which the client's event
            // thread drops the real Disconnected event as a repeat (ZooKeeper 3.9 ClientCnxn.EventThread), and the
            // recipe would not hear of the outage. A watch left behind after a failed removal is harmless: its
            // callback is gone from 'watches', and it goes when it fires or with the session.
            if (!up) {
                // a request now would wait for the reconnection attempt to fail it (an acquisition that fails fast
                // must not): the client removes the watch when the request completes, in the background
                zk.removeWatches(path, watcher, type, false, (rc, p, ctx) -> { }, null);
                continue;
            }
            boolean interrupted = Thread.interrupted();
            try {
                zk.removeWatches(path, watcher, type, false);
            } catch (KeeperException e) {
                // NoWatcher: it fired meanwhile; anything else: it goes when it fires or with the session
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "removing a watch on " + path + " failed", e);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Override
    public void delete(String path) throws KeeperException, InterruptedException {
        zk().delete(path, -1);
    }

    @Override
    public void connectionListener(ConnectionListener l) {
        lock.lock();
        try {
            listener = l;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int sessionTimeoutMillis() {
        ZooKeeper handle = zk;
        return handle == null ? -1 : handle.getSessionTimeout();
    }

    @Override
    public String address() {
        return hosts;
    }

    @Override
    public void close() {
        ZooKeeper handle;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            handle = current == null ? null : current.handle;
        } finally {
            lock.unlock();
        }
        watches.clear();
        if (handle == null) {
            return;
        }
        boolean interrupted = Thread.interrupted();
        try {
            // closes the session (its ephemeral nodes go at once) and waits for the client's threads to end
            if (!handle.close(5_000)) {
                LOG.log(System.Logger.Level.WARNING, "ZooKeeper client threads for " + hosts
                        + " did not end within 5 s of close");
            }
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "RawZkOps[" + hosts + "]";
    }

    private record WatchKey(String path, Runnable callback, Watcher.WatcherType type) {
    }

    /** A one-shot watcher calling the recipe back on any change of its node. */
    private final class CallbackWatcher implements Watcher {
        private final WatchKey key;

        CallbackWatcher(WatchKey key) {
            this.key = key;
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                return; // connection state: the recipe hears of it from the session watcher
            }
            if (watches.remove(key, this)) {
                key.callback().run(); // not after unwatch: the acquisition that set it is over
            }
        }
    }
}
