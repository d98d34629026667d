package org.lockspi.zkclient.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.I0Itec.zkclient.IZkConnection;
import org.I0Itec.zkclient.exception.ZkException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * ZkClient's connection, as ZkClient's own {@code ZkConnection} does it, with three differences:
 * <ul>
 *   <li>each handle is built with a {@link ZKClientConfig} of its own (TLS, SASL off without JAAS), which
 *       {@code ZkConnection} cannot take: it builds {@code new ZooKeeper(servers, timeout, watcher)}, configured by
 *       system properties only;</li>
 *   <li>the digest credentials are added to each handle as it is built, also to the one ZkClient builds after a
 *       session expiry, before any request can be sent on it;</li>
 *   <li>it remembers its last handle so that a close can wait for the handle's threads to end: ZkClient closes the
 *       handle (also when its constructor gives up connecting) but does not wait, and forgets it at once.</li>
 * </ul>
 */
final class LockZkConnection implements IZkConnection {
    private final String servers;
    private final int sessionTimeoutMillis;
    private final Supplier<ZKClientConfig> config;
    private final String digest;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile ZooKeeper zk;
    private volatile ZooKeeper last;

    /**
     * @param servers              the connect string
     * @param sessionTimeoutMillis the session timeout to ask for
     * @param config               a fresh configuration for each handle
     * @param digest               {@code user:password} for digest authentication, or null
     */
    LockZkConnection(String servers, int sessionTimeoutMillis, Supplier<ZKClientConfig> config, String digest) {
        this.servers = servers;
        this.sessionTimeoutMillis = sessionTimeoutMillis;
        this.config = config;
        this.digest = digest;
    }

    @Override
    public void connect(Watcher watcher) {
        lock.lock();
        try {
            if (zk != null) {
                throw new IllegalStateException("zk client has already been started");
            }
            ZooKeeper handle;
            try {
                handle = new ZooKeeper(servers, sessionTimeoutMillis, watcher, false, config.get());
            } catch (IOException e) {
                throw new ZkException("Unable to connect to " + servers, e);
            }
            if (digest != null) {
                handle.addAuthInfo("digest", digest.getBytes(StandardCharsets.UTF_8));
            }
            zk = handle;
            last = handle;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws InterruptedException {
        lock.lock();
        try {
            ZooKeeper handle = zk;
            if (handle != null) {
                handle.close();
                zk = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return the current handle, or null between a close and the next connect */
    ZooKeeper getZookeeper() {
        return zk;
    }

    /**
     * Closes the session, if ZkClient has not, and waits for the client's threads to end. Not for ZooKeeper's own
     * event thread (ZkClient replaces the handle on it after an expiry; it would wait for itself).
     *
     * @param waitMillis how long to wait for the threads
     * @return whether they ended in time
     * @throws InterruptedException if interrupted while waiting
     */
    boolean closeAndWait(int waitMillis) throws InterruptedException {
        close();
        ZooKeeper handle = last;
        return handle == null || handle.close(waitMillis);
    }

    @Override
    public String create(String path, byte[] data, CreateMode mode) throws KeeperException, InterruptedException {
        return zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode);
    }

    @Override
    public String create(String path, byte[] data, List<ACL> acl, CreateMode mode)
            throws KeeperException, InterruptedException {
        return zk.create(path, data, acl, mode);
    }

    @Override
    public void delete(String path) throws InterruptedException, KeeperException {
        zk.delete(path, -1);
    }

    @Override
    public void delete(String path, int version) throws InterruptedException, KeeperException {
        zk.delete(path, version);
    }

    @Override
    public boolean exists(String path, boolean watch) throws KeeperException, InterruptedException {
        return zk.exists(path, watch) != null;
    }

    @Override
    public List<String> getChildren(String path, boolean watch) throws KeeperException, InterruptedException {
        return zk.getChildren(path, watch);
    }

    @Override
    public byte[] readData(String path, Stat stat, boolean watch) throws KeeperException, InterruptedException {
        return zk.getData(path, watch, stat);
    }

    @Override
    public void writeData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
        zk.setData(path, data, version);
    }

    @Override
    public Stat writeDataReturnStat(String path, byte[] data, int version)
            throws KeeperException, InterruptedException {
        return zk.setData(path, data, version);
    }

    @Override
    public ZooKeeper.States getZookeeperState() {
        ZooKeeper handle = zk;
        return handle != null ? handle.getState() : null;
    }

    @Override
    public long getCreateTime(String path) throws KeeperException, InterruptedException {
        Stat stat = zk.exists(path, false);
        return stat != null ? stat.getCtime() : -1;
    }

    @Override
    public String getServers() {
        return servers;
    }

    @Override
    public List<OpResult> multi(Iterable<Op> ops) throws KeeperException, InterruptedException {
        return zk.multi(ops);
    }

    @Override
    public void addAuthInfo(String scheme, byte[] auth) {
        zk.addAuthInfo(scheme, auth);
    }

    @Override
    public void setAcl(String path, List<ACL> acl, int version) throws KeeperException, InterruptedException {
        zk.setACL(path, acl, version);
    }

    @Override
    public Map.Entry<List<ACL>, Stat> getAcl(String path) throws KeeperException, InterruptedException {
        Stat stat = new Stat();
        return new AbstractMap.SimpleEntry<>(zk.getACL(path, stat), stat);
    }
}
