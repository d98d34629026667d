package org.lockspi.zkclient.internal;

import java.util.List;
import java.util.concurrent.Callable;
import org.I0Itec.zkclient.ExceptionUtil;
import org.I0Itec.zkclient.ZkClient;
import org.I0Itec.zkclient.exception.ZkException;
import org.I0Itec.zkclient.exception.ZkInterruptedException;
import org.I0Itec.zkclient.exception.ZkNoNodeException;
import org.I0Itec.zkclient.serialize.BytesPushThroughSerializer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * ZkClient with three of its habits changed, through the extension points it offers:
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
 * </ul>
 *
 * <p>Data passes through unchanged ({@link BytesPushThroughSerializer}), never Java serialisation.
 */
final class LockZkClient extends ZkClient {
    private final LockZkConnection connection;
    private volatile boolean closed;

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

    /** @return whether the current handle is connected */
    boolean isConnected() {
        ZooKeeper zk = zooKeeper();
        return zk != null && zk.getState().isConnected();
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
        try {
            if (!isConnected()) {
                throw new KeeperException.ConnectionLossException();
            }
            return callable.call();
        } catch (KeeperException e) {
            throw ZkException.create(e);
        } catch (InterruptedException e) {
            throw new ZkInterruptedException(e);
        } catch (Exception e) {
            throw ExceptionUtil.convertToRuntimeException(e);
        }
    }

    /** A data watch with {@code getData}: none is left on a missing node. */
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
