package org.lockspi.zkclient.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.Callable;
import org.I0Itec.zkclient.ExceptionUtil;
import org.I0Itec.zkclient.ZkClient;
import org.I0Itec.zkclient.exception.ZkException;
import org.I0Itec.zkclient.exception.ZkInterruptedException;
import org.I0Itec.zkclient.exception.ZkNoNodeException;
import org.I0Itec.zkclient.serialize.BytesPushThroughSerializer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * ZkClient with four of its habits changed, through the extension points it offers (overridable methods):
 *
 * <ul>
 *   <li><b>No hidden retries.</b> ZkClient retries an operation after a connection loss until it succeeds, by
 *       default without bound, and retries a {@code create} blindly (a second sequential node). Here every operation
 *       makes one attempt, and fails at once with a {@code ConnectionLossException} while the client is not
 *       connected, so no call outlives its caller's deadline; the lock recipe waits for the connection itself.</li>
 *   <li><b>Data watches with {@code getData}.</b> ZkClient sets and re-arms data watches with {@code exists},
 *       which on a deleted node leaves a watch behind that never fires (a sequential node never comes back). Here
 *       they are set with {@code getData}, which sets none on a missing node.</li>
 *   <li><b>Child watches without a data watch.</b> ZkClient subscribes to children with {@code exists} plus
 *       {@code getChildren}; here with {@code getChildren} only.</li>
 *   <li><b>No re-read before a listener.</b> ZkClient re-reads a node on its event thread before it calls a
 *       listener (two requests per event, and the event is dropped when the read meets a lost connection); here
 *       the listener is called at once, as for a deletion.</li>
 * </ul>
 *
 * <p>Data passes through unchanged ({@link BytesPushThroughSerializer}), never Java serialisation.
 */
final class LockZkClient extends ZkClient {
    /** The class of ZkClient's event thread, which calls the listeners (package-private in ZkClient). */
    private static final String ZKCLIENT_EVENT_THREAD = "org.I0Itec.zkclient.ZkEventThread";

    private final LockZkConnection connection;
    private volatile boolean closed;
    /**
     * The connection as this client last knew it: bit 0 connected, the rest a count of ZooKeeper's state events.
     * Written by ZkClient on ZooKeeper's event thread, also during the super constructor, so it has no initializer.
     * The handle's own state lags behind: it stays CONNECTED for up to a second after a disconnection, and a call
     * made then waits in the handle's queue for the next connect attempt; so a call that meets a connection loss
     * marks the connection down at once, unless a state event came meanwhile.
     */
    private volatile long state;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(LockZkClient.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Connects, waiting at most {@code connectTimeoutMillis}.
     *
     * @throws org.I0Itec.zkclient.exception.ZkTimeoutException if not connected in time (ZkClient has closed the
     *         connection then, unless the thread was interrupted)
     */
    LockZkClient(LockZkConnection connection, int connectTimeoutMillis) {
        // operationRetryTimeout 0: ZkClient's own retry loop is replaced below anyway
        super(connection, connectTimeoutMillis, new BytesPushThroughSerializer(), 0L);
        this.connection = connection;
    }

    /** @return the current ZooKeeper handle (ZkClient replaces it after a session expiry), or null */
    ZooKeeper zooKeeper() {
        return connection.getZookeeper();
    }

    /** @return whether the connection is up as far as this client knows, and the current handle agrees */
    boolean isConnected() {
        return isConnected(state);
    }

    private boolean isConnected(long observed) {
        ZooKeeper zk = zooKeeper();
        return (observed & 1) == 1 && zk != null && zk.getState().isConnected();
    }

    @Override
    public void setCurrentState(Watcher.Event.KeeperState keeperState) {
        boolean connected = keeperState == Watcher.Event.KeeperState.SyncConnected
                || keeperState == Watcher.Event.KeeperState.ConnectedReadOnly
                || keeperState == Watcher.Event.KeeperState.SaslAuthenticated;
        long observed;
        long next;
        do {
            observed = state;
            next = (((observed >>> 1) + 1) << 1) | (connected ? 1 : 0);
        } while (!STATE.compareAndSet(this, observed, next));
        super.setCurrentState(keeperState);
    }

    /**
     * One attempt, as ZkClient's operations call it. Not connected, it fails at once with a ConnectionLoss.
     * Errors come as ZkClient's own exceptions ({@link ZkException} wrapping the {@link KeeperException}).
     */
    @Override
    public <T> T retryUntilConnected(Callable<T> callable) {
        if (closed) {
            throw new IllegalStateException("ZkClient already closed");
        }
        long observed = state;
        try {
            if (!isConnected(observed)) {
                throw new KeeperException.ConnectionLossException();
            }
            return callable.call();
        } catch (KeeperException.ConnectionLossException e) {
            STATE.compareAndSet(this, observed, observed & ~1L); // down until ZooKeeper says it is back
            throw ZkException.create(e);
        } catch (KeeperException e) {
            throw ZkException.create(e);
        } catch (InterruptedException e) {
            throw new ZkInterruptedException(e);
        } catch (Exception e) {
            throw ExceptionUtil.convertToRuntimeException(e);
        }
    }

    /** One ZkClient call, as {@link #call} runs it. */
    @FunctionalInterface
    interface Call<T> {
        T run();
    }

    /**
     * Runs a ZkClient call, handing back ZooKeeper's own exception that ZkClient wrapped, as the recipe's
     * operations interface wants them.
     *
     * @throws KeeperException      what ZooKeeper reported (ConnectionLoss at once while not connected)
     * @throws InterruptedException if the thread was interrupted; its interrupt flag is clear then
     */
    <T> T call(Call<T> call) throws KeeperException, InterruptedException {
        try {
            return call.run();
        } catch (ZkInterruptedException e) {
            Thread.interrupted(); // ZkClient set the flag again; the InterruptedException carries it now
            InterruptedException ie = new InterruptedException("interrupted in ZooKeeper call at "
                    + connection.getServers());
            ie.initCause(e);
            throw ie;
        } catch (ZkException e) {
            if (e.getCause() instanceof KeeperException) {
                throw (KeeperException) e.getCause();
            }
            throw e;
        }
    }

    /**
     * A data watch with {@code getData}: none is left on a missing node. On ZkClient's event thread, where ZkClient
     * calls this to re-arm a watch before it calls a listener, it asks nothing (see {@link #onEventThread()}).
     */
    @Override
    protected boolean exists(String path, boolean watch) {
        if (onEventThread()) {
            return false;
        }
        if (!watch) {
            return super.exists(path, false);
        }
        try {
            readData(path, null, true);
            return true;
        } catch (ZkNoNodeException e) {
            return false;
        }
    }

    /** As ZkClient's, except on its event thread (see {@link #onEventThread()}): "no node" without asking. */
    @Override
    protected <T extends Object> T readData(String path, Stat stat, boolean watch) {
        if (onEventThread()) {
            throw new ZkNoNodeException("not re-read on ZkClient's event thread; reported as gone: " + path);
        }
        return super.readData(path, stat, watch);
    }

    /** As ZkClient's, except on its event thread (see {@link #onEventThread()}): "no node" without asking. */
    @Override
    protected List<String> getChildren(String path, boolean watch) {
        if (onEventThread()) {
            throw new ZkNoNodeException("not re-read on ZkClient's event thread; reported as gone: " + path);
        }
        return super.getChildren(path, watch);
    }

    /**
     * ZkClient re-reads a node (and re-arms its permanent watch) on its event thread before it calls a data or
     * child listener, two requests in a row on one thread for every event, and drops the event when that read
     * meets a lost connection. The lock recipe's watches are one-shot and it looks at the lock itself when called,
     * so no listener here needs the read or the re-armed watch: on that thread every read answers "no node"
     * without a request, which ZkClient reports as a deletion (a data listener) or as no children (a child
     * listener). A spurious call is harmless to the recipe, a missed one is not. Nothing else of ours reads on
     * that thread: the recipe's callbacks only signal.
     */
    private static boolean onEventThread() {
        return ZKCLIENT_EVENT_THREAD.equals(Thread.currentThread().getClass().getName());
    }

    /**
     * Arms the data watch of {@link #subscribeDataChanges} with {@code getData}.
     *
     * @throws ZkNoNodeException if the node does not exist (no watch is set then)
     */
    @Override
    public void watchForData(String path) {
        readData(path, null, true);
    }

    /** Arms the child watch of {@link #subscribeChildChanges}: the children, or null if there is no such node. */
    @Override
    public List<String> watchForChilds(String path) {
        try {
            return getChildren(path, true);
        } catch (ZkNoNodeException e) {
            return null;
        }
    }

    /**
     * ZkClient's {@code create}, on the same handle and through the same {@link #retryUntilConnected} attempt, with
     * ZooKeeper's overload that also fills in the new node's stat: ZkClient's own returns the path only, and the
     * czxid would cost another request.
     *
     * @param path the node's path, or its prefix for a sequential mode
     * @param data the node's data
     * @param acl  the node's ACL
     * @param mode the create mode
     * @param stat filled in with the new node's stat
     * @return the path created
     * @throws ZkException as ZkClient's {@code create} (ConnectionLoss at once while not connected)
     */
    String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat) {
        return retryUntilConnected(() -> {
            ZooKeeper zk = zooKeeper();
            if (zk == null) {
                throw new KeeperException.ConnectionLossException();
            }
            return zk.create(path, data, acl, mode, stat);
        });
    }

    /**
     * @param path a node
     * @return its stat, without setting a watch
     * @throws ZkNoNodeException if there is no such node
     */
    Stat stat(String path) {
        Stat stat = new Stat();
        readData(path, stat, false);
        return stat;
    }

    /**
     * @param path a node
     * @return its children, without setting a watch
     * @throws ZkNoNodeException if there is no such node
     */
    List<String> children(String path) {
        return getChildren(path, false);
    }

    @Override
    public void close() {
        closed = true;
        super.close();
    }
}
