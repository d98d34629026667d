package org.lockspi.tck.mutants;

import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * A client library's {@link ZkOps}, forwarded as they are: the ZooKeeper recipe of the raw and ZkClient providers
 * runs on this seam, so a mutant that overrides one operation breaks the real recipe at exactly one point.
 */
public class ForwardingZkOps implements ZkOps {
    /** the real client's operations */
    protected final ZkOps real;

    /** @param real the real client's operations */
    public ForwardingZkOps(ZkOps real) {
        this.real = real;
    }

    @Override
    public Node createEphemeralSequential(String pathPrefix) throws KeeperException, InterruptedException {
        return real.createEphemeralSequential(pathPrefix);
    }

    @Override
    public Node createEphemeral(String path) throws KeeperException, InterruptedException {
        return real.createEphemeral(path);
    }

    @Override
    public Node createEphemeralSequential(String pathPrefix, byte[] data) throws KeeperException,
            InterruptedException {
        // without data through the one-argument form, which a mutant may override; a revocable mark as it is
        return data.length == 0 ? createEphemeralSequential(pathPrefix)
                : real.createEphemeralSequential(pathPrefix, data);
    }

    @Override
    public Node createEphemeral(String path, byte[] data) throws KeeperException, InterruptedException {
        return data.length == 0 ? createEphemeral(path) : real.createEphemeral(path, data);
    }

    @Override
    public NodeData data(String path) throws KeeperException, InterruptedException {
        return real.data(path);
    }

    @Override
    public NodeData watchData(String path, Runnable onChange) throws KeeperException, InterruptedException {
        return real.watchData(path, onChange);
    }

    @Override
    public void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
        real.setData(path, data, version);
    }

    @Override
    public long czxid(String path) throws KeeperException, InterruptedException {
        return real.czxid(path);
    }

    @Override
    public org.apache.zookeeper.data.Stat stat(String path) throws KeeperException, InterruptedException {
        return real.stat(path);
    }

    @Override
    public List<String> children(String path) throws KeeperException, InterruptedException {
        return real.children(path);
    }

    @Override
    public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
        return real.watchNode(path, onChange);
    }

    @Override
    public List<String> watchChildren(String path, Runnable onChange) throws KeeperException, InterruptedException {
        return real.watchChildren(path, onChange);
    }

    @Override
    public void unwatch(String path, Runnable onChange) {
        real.unwatch(path, onChange);
    }

    @Override
    public void delete(String path) throws KeeperException, InterruptedException {
        real.delete(path);
    }

    @Override
    public void connectionListener(ConnectionListener listener) {
        real.connectionListener(listener);
    }

    @Override
    public int sessionTimeoutMillis() {
        return real.sessionTimeoutMillis();
    }

    @Override
    public String address() {
        return real.address();
    }

    @Override
    public void close() {
        real.close();
    }

    /** @return the parent of a full path */
    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }
}
