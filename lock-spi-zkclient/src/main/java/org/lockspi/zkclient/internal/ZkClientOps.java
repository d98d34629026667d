package org.lockspi.zkclient.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.I0Itec.zkclient.IZkStateListener;
import org.I0Itec.zkclient.exception.ZkInterruptedException;
import org.I0Itec.zkclient.exception.ZkTimeoutException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.zookeeper.recipe.ZkConnectFailures;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkSettings;
import org.lockspi.zookeeper.recipe.ZkTls;

/**
 * {@link ZkOps} on I0Itec ZkClient: its API for every operation, its listeners for the one-shot watches
 * ({@link OneShotWatches}), {@link IZkStateListener} for the connection, and its reconnection after a session
 * expiry. See {@link LockZkClient} for the ZkClient habits changed so that no call outlives a deadline and no watch
 * is left behind.
 */
public final class ZkClientOps implements ZkOps {
    private static final byte[] NO_DATA = new byte[0];
    private static final int CLOSE_WAIT_MILLIS = 5_000;

    private final String address;
    private final List<ACL> acl;
    private final LockZkConnection connection;
    private final LockZkClient client;
    private final OneShotWatches watches;
    private final Object lifecycle = new Object();
    private volatile ConnectionListener listener;
    private long sessionId;        // only on ZkClient's event thread after construction
    private boolean expired;       // only on ZkClient's event thread
    private boolean closed;        // guarded by lifecycle

    private ZkClientOps(String address, LockZkConnection connection, LockZkClient client, List<ACL> acl) {
        this.address = address;
        this.acl = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(acl)); // not List.copyOf: ZooKeeper asks contains(null)
        this.connection = connection;
        this.client = client;
        this.watches = new OneShotWatches(client);
        ZooKeeper zk = client.zooKeeper();
        this.sessionId = zk == null ? 0 : zk.getSessionId();
        client.subscribeStateChanges(new StateListener());
    }

    /**
     * Opens a ZkClient as the settings say (credentials, the ACL of created nodes, TLS) and waits until it is
     * connected.
     *
     * @param settings the URI's settings
     * @return the connected operations
     * @throws LockConnectionException if not connected within the connect timeout, or interrupted (the interrupt
     *         flag is kept); no thread of the client is left running then
     */
    public static ZkClientOps connect(ZkSettings settings) {
        return connect(settings.hosts(), settings.sessionTimeout(), settings.connectTimeout(),
                settings.digest().orElse(null), settings.acl(), settings.tls());
    }

    /**
     * Opens a ZkClient without TLS and waits until it is connected; nodes are created with {@code CREATOR_ALL_ACL}
     * when {@code digest} is given, {@code OPEN_ACL_UNSAFE} otherwise (the defaults of {@link ZkSettings#ACL}).
     *
     * @param hosts          the ZooKeeper connect string, {@code host:port,...}
     * @param sessionTimeout the session timeout to ask for
     * @param connectTimeout how long to wait for the connection
     * @param digest         {@code user:password} for ZooKeeper digest authentication, or null
     * @return the connected operations
     * @throws LockConnectionException if not connected within {@code connectTimeout}, or interrupted (the interrupt
     *         flag is kept); no thread of the client is left running then
     */
    public static ZkClientOps connect(String hosts, Duration sessionTimeout, Duration connectTimeout,
                                      String digest) {
        return connect(hosts, sessionTimeout, connectTimeout, digest,
                digest == null ? ZooDefs.Ids.OPEN_ACL_UNSAFE : ZooDefs.Ids.CREATOR_ALL_ACL, Optional.empty());
    }

    private static ZkClientOps connect(String hosts, Duration sessionTimeout, Duration connectTimeout,
                                       String digest, List<ACL> acl, Optional<ZkTls> tls) {
        Objects.requireNonNull(hosts, "hosts");
        // digest credentials go on every handle as it is built, also after a session expiry
        LockZkConnection connection = new LockZkConnection(hosts, saturatedMillis(sessionTimeout),
                () -> ZkSettings.clientConfig(tls), digest);
        LockZkClient client;
        try {
            client = new LockZkClient(connection, saturatedMillis(connectTimeout));
        } catch (ZkTimeoutException e) {
            closeQuietly(connection, e);
            throw ZkConnectFailures.unreachable(hosts, connectTimeout, e);
        } catch (ZkInterruptedException e) {
            closeQuietly(connection, e);
            throw ZkConnectFailures.interrupted(hosts, e);
        } catch (RuntimeException e) {
            // e.g. no host of the connect string resolves
            closeQuietly(connection, e);
            throw new LockConnectionException("cannot connect to ZooKeeper at " + hosts + ": " + e.getMessage(), e);
        }
        return new ZkClientOps(hosts, connection, client, acl);
    }

    private static int saturatedMillis(Duration d) {
        long ms = d.toMillis();
        return ms > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.max(ms, 1);
    }

    /**
     * Closes the ZooKeeper handle a failed ZkClient may have left open (it skips that when interrupted) and waits
     * for its threads to end.
     */
    private static void closeQuietly(LockZkConnection connection, Throwable failure) {
        boolean interrupted = Thread.interrupted();
        try {
            connection.closeAndWait(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException | RuntimeException e) {
            failure.addSuppressed(e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- operations ------------------------------------------------------------------------------------------

    @Override
    public Node createEphemeralSequential(String pathPrefix) throws KeeperException, InterruptedException {
        return create(pathPrefix, CreateMode.EPHEMERAL_SEQUENTIAL, NO_DATA);
    }

    @Override
    public Node createEphemeralSequential(String pathPrefix, byte[] data) throws KeeperException,
            InterruptedException {
        return create(pathPrefix, CreateMode.EPHEMERAL_SEQUENTIAL, data);
    }

    @Override
    public Node createEphemeral(String path) throws KeeperException, InterruptedException {
        return create(path, CreateMode.EPHEMERAL, NO_DATA);
    }

    @Override
    public Node createEphemeral(String path, byte[] data) throws KeeperException, InterruptedException {
        return create(path, CreateMode.EPHEMERAL, data);
    }

    private Node create(String pathOrPrefix, CreateMode mode, byte[] data) throws KeeperException,
            InterruptedException {
        Stat stat = new Stat(); // filled in by the create: the czxid costs no further request
        String path;
        try {
            path = client.call(() -> client.create(pathOrPrefix, data, acl, mode, stat));
        } catch (KeeperException.NoNodeException e) {
            createContainers(parentOf(pathOrPrefix));
            path = client.call(() -> client.create(pathOrPrefix, data, acl, mode, stat));
        }
        return new Node(path, stat.getCzxid());
    }

    /** Creates {@code path} and its missing ancestors as container nodes; existing ones are fine. */
    private void createContainers(String path) throws KeeperException, InterruptedException {
        if (path.equals("/")) {
            return;
        }
        try {
            client.call(() -> client.create(path, NO_DATA, acl, CreateMode.CONTAINER));
        } catch (KeeperException.NodeExistsException e) {
            // made meanwhile
        } catch (KeeperException.NoNodeException e) {
            createContainers(parentOf(path));
            try {
                client.call(() -> client.create(path, NO_DATA, acl, CreateMode.CONTAINER));
            } catch (KeeperException.NodeExistsException again) {
                // made meanwhile
            }
        }
    }

    @Override
    public long czxid(String path) throws KeeperException, InterruptedException {
        try {
            return client.call(() -> client.stat(path)).getCzxid();
        } catch (KeeperException.NoNodeException e) {
            return -1;
        }
    }

    @Override
    public org.apache.zookeeper.data.Stat stat(String path) throws KeeperException, InterruptedException {
        try {
            return client.call(() -> client.stat(path));
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** ZkClient reads the data as it is ({@code BytesPushThroughSerializer}); none is an empty array. */
    @Override
    public NodeData data(String path) throws KeeperException, InterruptedException {
        Stat stat = new Stat();
        try {
            byte[] data = client.call(() -> client.<byte[]>readData(path, stat));
            return new NodeData(data == null ? NO_DATA : data, stat.getVersion());
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    @Override
    public void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
        client.call(() -> client.writeDataReturnStat(path, data, version));
    }

    @Override
    public List<String> children(String path) throws KeeperException, InterruptedException {
        return client.call(() -> client.children(path));
    }

    @Override
    public void delete(String path) throws KeeperException, InterruptedException {
        boolean deleted = client.call(() -> client.delete(path));
        if (!deleted) {
            throw KeeperException.create(KeeperException.Code.NONODE, path); // ZkClient answers false
        }
    }

    @Override
    public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
        return watches.watchNode(path, onChange);
    }

    @Override
    public List<String> watchChildren(String path, Runnable onChange) throws KeeperException, InterruptedException {
        return watches.watchChildren(path, onChange);
    }

    @Override
    public void unwatch(String path, Runnable onChange) {
        watches.unwatch(path, onChange);
    }

    @Override
    public void connectionListener(ConnectionListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public int sessionTimeoutMillis() {
        ZooKeeper zk = client.zooKeeper();
        return zk == null ? -1 : zk.getSessionTimeout();
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
        }
        watches.clear();
        boolean interrupted = Thread.interrupted();
        RuntimeException failure = null;
        try {
            client.unsubscribeAll();
            client.close();
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            // ZkClient skips closing the handle when its event thread does not stop in time or it is interrupted
            try {
                if (!connection.closeAndWait(CLOSE_WAIT_MILLIS)) {
                    System.getLogger(ZkClientOps.class.getName()).log(System.Logger.Level.WARNING,
                            "ZooKeeper client threads for " + address + " did not end within 5 s of close");
                }
            } catch (InterruptedException | RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure != null && !(failure instanceof ZkInterruptedException)) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "ZkClientOps[" + address + "]";
    }

    // ---- ZkClient calls --------------------------------------------------------------------------------------

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    // ---- connection state --------------------------------------------------------------------------------------

    /**
     * ZkClient's state events, on its event thread in order. On {@code Expired} ZkClient opens a new session by
     * itself (and calls {@code handleNewSession} before it is connected); the next {@code SyncConnected} with a
     * session id other than the last one is that new session.
     */
    private final class StateListener implements IZkStateListener {
        @Override
        public void handleStateChanged(Watcher.Event.KeeperState state) {
            ConnectionListener l = listener;
            switch (state) {
                case Disconnected:
                    if (l != null) {
                        l.disconnected();
                    }
                    break;
                case SyncConnected:
                case ConnectedReadOnly: {
                    ZooKeeper zk = client.zooKeeper();
                    long id = zk == null ? sessionId : zk.getSessionId();
                    boolean fresh = expired || id != sessionId;
                    if (fresh && !expired && l != null) {
                        l.sessionExpired(); // a new session without an Expired event first: the old one is gone
                    }
                    sessionId = id;
                    expired = false;
                    if (l != null) {
                        if (fresh) {
                            l.newSession();
                        } else {
                            l.reconnected();
                        }
                    }
                    watches.fireAll();
                    break;
                }
                case Expired:
                    expired = true;
                    if (l != null) {
                        l.sessionExpired();
                    }
                    watches.fireAll();
                    break;
                default:
                    break; // AuthFailed, SaslAuthenticated, Closed: nothing for the recipe
            }
        }

        @Override
        public void handleNewSession() {
            // ZkClient made a new handle (LockZkConnection gave it the credentials); the SyncConnected that
            // follows reports the session to the recipe
        }

        @Override
        public void handleSessionEstablishmentError(Throwable error) {
            // ZkClient could not make a new handle after an expiry; operations fail with ConnectionLoss from now on
            System.getLogger(ZkClientOps.class.getName()).log(System.Logger.Level.WARNING,
                    "ZkClient could not open a new session with ZooKeeper at " + address, error);
        }
    }
}
