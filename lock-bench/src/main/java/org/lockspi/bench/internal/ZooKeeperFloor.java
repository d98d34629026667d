package org.lockspi.bench.internal;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The floor of a ZooKeeper lock cycle: the bare calls on the plain client, nothing else: create an
 * EPHEMERAL_SEQUENTIAL node, list the children, delete the node. Uncontended only.
 */
final class ZooKeeperFloor implements Variant {
    private final String connectString;

    ZooKeeperFloor(String connectString) {
        this.connectString = connectString;
    }

    @Override
    public String name() {
        return "ZooKeeper floor";
    }

    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    @Override
    public Role role() {
        return Role.FLOOR;
    }

    /** Connects a plain client and waits for the session. */
    static ZooKeeper connect(String connectString, int sessionTimeoutMs) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, sessionTimeoutMs, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IOException("no ZooKeeper session with " + connectString + " within 30 s");
        }
        return zk;
    }

    /** Creates a persistent path and its parents if missing. */
    static void ensurePath(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        StringBuilder at = new StringBuilder();
        for (String part : path.substring(1).split("/")) {
            at.append('/').append(part);
            try {
                zk.create(at.toString(), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException exists) {
                // fine
            }
        }
    }

    @Override
    public Client open(String scope) throws Exception {
        ZooKeeper zk = connect(connectString, 10_000);
        return new Client() {
            @Override
            public Locker locker(String lockName) throws Exception {
                String path = zkLockPath(lockName);
                ensurePath(zk, path);
                return () -> {
                    String node = zk.create(path + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.EPHEMERAL_SEQUENTIAL);
                    List<String> children = zk.getChildren(path, false);
                    if (children.size() != 1) {
                        throw new IllegalStateException("the floor is uncontended, yet " + path + " has "
                                + children);
                    }
                    return () -> zk.delete(node, -1);
                };
            }

            @Override
            public String zkLockPath(String lockName) {
                return "/bench/" + scope + "/" + lockName;
            }

            @Override
            public void close() {
                try {
                    zk.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
