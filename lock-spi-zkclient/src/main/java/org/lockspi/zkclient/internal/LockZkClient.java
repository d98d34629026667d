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
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
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
 *   <li><b>No dropped events.</b> ZkClient re-reads a node before it calls a listener and drops the event when
 *       that read meets a lost connection; here the listener is called anyway (as for a deletion).</li>
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

    /**
     * A data watch with {@code getData}: none is left on a missing node. On ZkClient's event thread, which calls
     * this to re-arm a watch before it calls a listener, a connection problem answers "no node" instead of
     * failing, so that the listener still hears of the event (see {@link #readData(String, Stat, boolean)}).
     */
    @Override
    protected boolean exists(String path, boolean watch) {
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

    /**
     * ZkClient re-reads a node on its event thread before it calls a data listener, and drops the event (logging
     * an error) when that read fails, as it does while the connection is down or after a session expiry. There the
     * failure is turned into "no node", which ZkClient reports as a deletion: the listener is called, and the lock
     * recipe looks again (a spurious call is harmless to it, a missed one is not).
     */
    @Override
    protected <T extends Object> T readData(String path, Stat stat, boolean watch) {
        try {
            return super.readData(path, stat, watch);
        } catch (ZkException e) {
            throw onEventThread(e);
        }
    }

    /** As {@link #readData(String, Stat, boolean)}, for ZkClient's re-read of children before a child listener. */
    @Override
    protected List<String> getChildren(String path, boolean watch) {
        try {
            return super.getChildren(path, watch);
        } catch (ZkException e) {
            throw onEventThread(e);
        }
    }

    /** On ZkClient's event thread, a connection problem becomes "no node"; anything else stays as it is. */
    private static ZkException onEventThread(ZkException e) {
        boolean connectionProblem = e.getCause() instanceof KeeperException.ConnectionLossException
                || e.getCause() instanceof KeeperException.SessionExpiredException;
        if (connectionProblem && ZKCLIENT_EVENT_THREAD.equals(Thread.currentThread().getClass().getName())) {
            return new ZkNoNodeException("connection lost while ZkClient re-read the node; reported as gone",
                    (KeeperException) e.getCause());
        }
        return e;
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
