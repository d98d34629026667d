package org.lockspi.zookeeper.recipe;

import java.util.List;
import org.apache.zookeeper.KeeperException;

/**
 * The few ZooKeeper operations the lock recipe (the backend a {@link ZkRecipeProvider} opens) needs, implemented
 * once per client library (the plain {@code org.apache.zookeeper.ZooKeeper} client, ZkClient, ...). The recipe does
 * the rest: node names, ordering, whom to wait for, retries after a connection loss, finding its own node again,
 * guaranteed deletes and lease bookkeeping.
 *
 * <p><b>Paths</b> are absolute ZooKeeper paths as the recipe builds them (no chroot games): {@code /app/orders/42}.
 *
 * <p><b>Blocking and threads.</b> Every operation is synchronous and runs on the calling thread; it is called
 * concurrently from many threads. Callbacks (watch callbacks and the {@link ConnectionListener}) may run on the
 * client's event thread; the recipe's callbacks never block, they only signal.
 *
 * <p><b>Errors</b> are ZooKeeper's own {@link KeeperException}s, so the recipe can tell them apart:
 * {@link KeeperException.ConnectionLossException} (the connection is down now; the session may survive),
 * {@link KeeperException.SessionExpiredException}, {@link KeeperException.NoNodeException}, and so on. An
 * implementation over a client that wraps them (ZkClient's {@code ZkException}) rethrows the wrapped
 * {@code KeeperException}, or builds one with {@link KeeperException#create(KeeperException.Code, String)}.
 * Operations do not retry on a connection loss themselves (a client that retries internally, as ZkClient does,
 * may, provided it does not hide an expired session); the recipe retries after {@link ConnectionListener#reconnected()}.
 * An operation on a closed client throws {@link IllegalStateException}.
 */
public interface ZkOps extends AutoCloseable {

    /**
     * A node the recipe created: its full path and the zxid of its creation (the fencing token).
     *
     * @param path  the full path, with the server's sequence suffix
     * @param czxid the zxid of the transaction that created it
     */
    record Node(String path, long czxid) {
    }

    /**
     * Creates an {@code EPHEMERAL_SEQUENTIAL} node with empty data at {@code pathPrefix} + the server's
     * 10-digit sequence number, first creating each missing parent as a {@code CONTAINER} node (a parent created
     * meanwhile by someone else is fine). The recipe passes a Curator-protected prefix such as
     * {@code /app/orders/_c_<uuid>-lock-}, so that after a connection loss during this call it can find the node
     * with {@link #children(String)} and {@link #czxid(String)}.
     *
     * @param pathPrefix the full path of the node without its sequence suffix
     * @return the created node
     * @throws KeeperException      as ZooKeeper reports it; a ConnectionLossException leaves it unknown
     *                              whether the node was created
     * @throws InterruptedException if the thread was interrupted
     */
    Node createEphemeralSequential(String pathPrefix) throws KeeperException, InterruptedException;

    /**
     * Creates an {@code EPHEMERAL} node (no sequence suffix) with empty data at {@code path}, first creating each
     * missing parent as a {@code CONTAINER} node, as {@link #createEphemeralSequential(String)} does. The recipe
     * uses it for a downgraded read node, which takes the sequence number of the write node it comes from (as
     * Curator's read lock does), and gives it a Curator-protected name so that it can find it again after a
     * connection loss.
     *
     * @param path the full path of the node
     * @return the created node
     * @throws KeeperException      as ZooKeeper reports it ({@link KeeperException.NodeExistsException} if there
     *                              is one); a ConnectionLossException leaves it unknown whether the node was created
     * @throws InterruptedException if the thread was interrupted
     */
    Node createEphemeral(String path) throws KeeperException, InterruptedException;

    /**
     * A node's data and its data version, as {@code getData} reads them.
     *
     * @param bytes   the data (never null; empty for none)
     * @param version the data version, for a conditional {@link #setData(String, byte[], int)}
     */
    record NodeData(byte[] bytes, int version) {
    }

    /**
     * {@link #createEphemeralSequential(String)} with data: the node is created with {@code data} in the same
     * request (a revocable acquisition's mark, {@code ZkLayout.REVOCABLE_DATA}), never written afterwards. The
     * default creates nodes without data only; a client that supports revocation overrides it.
     *
     * @param pathPrefix the full path of the node without its sequence suffix
     * @param data       the node's data; empty for none
     * @return the created node
     * @throws KeeperException      as {@link #createEphemeralSequential(String)}
     * @throws InterruptedException if the thread was interrupted
     * @throws UnsupportedOperationException by default, if {@code data} is not empty
     */
    default Node createEphemeralSequential(String pathPrefix, byte[] data) throws KeeperException,
            InterruptedException {
        if (data.length == 0) {
            return createEphemeralSequential(pathPrefix);
        }
        throw new UnsupportedOperationException(getClass().getName() + " cannot create nodes with data");
    }

    /**
     * {@link #createEphemeral(String)} with data, as {@link #createEphemeralSequential(String, byte[])}.
     *
     * @param path the full path of the node
     * @param data the node's data; empty for none
     * @return the created node
     * @throws KeeperException      as {@link #createEphemeral(String)}
     * @throws InterruptedException if the thread was interrupted
     * @throws UnsupportedOperationException by default, if {@code data} is not empty
     */
    default Node createEphemeral(String path, byte[] data) throws KeeperException, InterruptedException {
        if (data.length == 0) {
            return createEphemeral(path);
        }
        throw new UnsupportedOperationException(getClass().getName() + " cannot create nodes with data");
    }

    /**
     * Reads a node's data and version without setting a watch. The default does not read data; a client that
     * supports revocation overrides it.
     *
     * @param path a full path
     * @return the data and version, or null if there is no such node
     * @throws KeeperException      as ZooKeeper reports it ({@link KeeperException.NoAuthException} if the node's
     *                              ACL does not let this client read it)
     * @throws InterruptedException if the thread was interrupted
     * @throws UnsupportedOperationException by default
     */
    default NodeData data(String path) throws KeeperException, InterruptedException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot read node data");
    }

    /**
     * Reads a node's data and sets a one-shot data watch on it, as {@code getData(path, watcher)}: {@code onChange}
     * runs at least once after the data changes or the node is deleted, as for {@link #watchNode}; setting it again
     * with the same {@code onChange} while it is pending leaves one watch. The default sets the watch with
     * {@link #watchNode} and then reads with {@link #data} (a change in between fires the watch: harmless).
     *
     * @param path     the node to read and watch
     * @param onChange what to run; must not block
     * @return the data and version, or null if the node is gone (no watch is left behind then)
     * @throws KeeperException      as ZooKeeper reports it (never NoNodeException: that is {@code null})
     * @throws InterruptedException if the thread was interrupted
     */
    default NodeData watchData(String path, Runnable onChange) throws KeeperException, InterruptedException {
        if (!watchNode(path, onChange)) {
            return null;
        }
        NodeData data = data(path);
        if (data == null) {
            unwatch(path, onChange);
        }
        return data;
    }

    /**
     * Writes a node's data if its data version is still {@code version}, as {@code setData(path, data, version)}.
     * The default does not write data; a client that supports revocation overrides it.
     *
     * @param path    the node
     * @param data    the new data
     * @param version the data version read before
     * @throws KeeperException.BadVersionException if the node changed since
     * @throws KeeperException.NoNodeException     if it is gone
     * @throws KeeperException.NoAuthException     if its ACL does not let this client write it
     * @throws KeeperException      as ZooKeeper reports it otherwise
     * @throws InterruptedException if the thread was interrupted
     * @throws UnsupportedOperationException by default
     */
    default void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot write node data");
    }

    /**
     * @param path a full path
     * @return the node's creation zxid, or {@code -1} if there is no such node
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    long czxid(String path) throws KeeperException, InterruptedException;

    /**
     * The node's stat, for inspection (its czxid, ctime and ephemeral owner). The default knows the czxid only
     * (ctime 0); a client that has the whole stat returns it.
     *
     * @param path a full path
     * @return the stat, or null if there is no such node
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    default org.apache.zookeeper.data.Stat stat(String path) throws KeeperException, InterruptedException {
        long czxid = czxid(path);
        if (czxid < 0) {
            return null;
        }
        org.apache.zookeeper.data.Stat stat = new org.apache.zookeeper.data.Stat();
        stat.setCzxid(czxid);
        return stat;
    }

    /**
     * @param path a full path
     * @return the names (not paths) of the node's children, in no particular order
     * @throws KeeperException.NoNodeException if there is no such node
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    List<String> children(String path) throws KeeperException, InterruptedException;

    /**
     * Sets a one-shot data watch on a node with {@code getData} (not {@code exists}, which would leave a watch
     * behind on a node that never comes). {@code onChange} runs at least once after the node is deleted, and may
     * run for other reasons too (its data changed, the session expired): the recipe re-checks each time, so
     * spurious calls are harmless, missed ones are not. A watch set on a live session survives a reconnection
     * of that session (the client re-registers it).
     *
     * @param path     the node to watch
     * @param onChange what to run; must not block
     * @return true if the watch is set; false if the node is already gone (no watch is left behind then)
     * @throws KeeperException      as ZooKeeper reports it (never NoNodeException: that is {@code false})
     * @throws InterruptedException if the thread was interrupted
     */
    boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException;

    /**
     * Lists a node's children and sets a one-shot child watch on it, as {@code getChildren(path, watcher)}.
     * {@code onChange} runs at least once after the set of children changes, and may run spuriously.
     *
     * @param path     the parent node
     * @param onChange what to run; must not block
     * @return the names of the children, in no particular order
     * @throws KeeperException.NoNodeException if there is no such node (no watch is left behind)
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    List<String> watchChildren(String path, Runnable onChange) throws KeeperException, InterruptedException;

    /**
     * Drops a watch set by {@link #watchNode} or {@link #watchChildren} with this very {@code onChange}, on the
     * server if the client can (ZooKeeper 3.5+ {@code removeWatches}), otherwise locally only. Best effort:
     * never throws, does nothing if there is no such watch.
     *
     * @param path     the watched node
     * @param onChange the callback given when the watch was set
     */
    void unwatch(String path, Runnable onChange);

    /**
     * Deletes a node, any version.
     *
     * @param path the node
     * @throws KeeperException.NoNodeException if it is already gone
     * @throws KeeperException      as ZooKeeper reports it; the recipe retries a ConnectionLossException after
     *                              {@link ConnectionListener#reconnected()}
     * @throws InterruptedException if the thread was interrupted
     */
    void delete(String path) throws KeeperException, InterruptedException;

    /**
     * Sets the one listener of connection changes. Called once by the recipe, before its first operation.
     *
     * @param listener the listener
     */
    void connectionListener(ConnectionListener listener);

    /**
     * @return the session timeout the server granted to the current session in milliseconds, or {@code -1}
     *         while it is not known; answers from memory
     */
    default int sessionTimeoutMillis() {
        return -1;
    }

    /** @return the server address for messages, e.g. {@code zk1:2181,zk2:2181}; never credentials */
    String address();

    /**
     * Closes the session and ends every thread the client started. Watches are dropped without their callbacks
     * being required to run. Idempotent.
     */
    @Override
    void close();

    /**
     * Connection changes, in the order they happened, from one thread at a time. Implementations never block.
     */
    interface ConnectionListener {

        /** The connection dropped; the session may still be alive (ZooKeeper {@code Disconnected}). */
        void disconnected();

        /** The connection is back with the same session; its ephemeral nodes and watches survived. */
        void reconnected();

        /**
         * The session expired: its ephemeral nodes and watches are gone. The implementation then establishes a
         * new session on its own and reports {@link #newSession()} when it is connected.
         */
        void sessionExpired();

        /** Connected with a new session after {@link #sessionExpired()}. */
        void newSession();
    }
}
