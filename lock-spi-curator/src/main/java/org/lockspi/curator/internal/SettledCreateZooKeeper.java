package org.lockspi.curator.internal;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper handle of the provider's own Curator clients (Curator's default is a {@link ZooKeeperAdmin} too).
 * It changes one thing: an ephemeral create interrupted while its reply is outstanding waits for that reply, then
 * returns with the interrupt flag set. Otherwise the server creates the node and nobody learns its name, so an
 * interrupt during a recipe's create would leave a lock node behind until the session ends; this way the recipe
 * learns the name, meets the interrupt at its next wait, and deletes the node as it does for any interrupt.
 */
@SuppressWarnings("try") // ZooKeeper.close() declares InterruptedException; not ours to change
final class SettledCreateZooKeeper extends ZooKeeperAdmin {

    /** Makes these handles for Curator, with the client's {@link ZKClientConfig} when it has one (TLS). */
    static final ZookeeperFactory FACTORY = new ZookeeperFactory() {
        @Override
        public org.apache.zookeeper.ZooKeeper newZooKeeper(String connectString, int sessionTimeout,
                                                           Watcher watcher, boolean canBeReadOnly) throws IOException {
            return new SettledCreateZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly);
        }

        @Override
        public org.apache.zookeeper.ZooKeeper newZooKeeper(String connectString, int sessionTimeout,
                                                           Watcher watcher, boolean canBeReadOnly,
                                                           ZKClientConfig config) throws IOException {
            return config == null ? newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly)
                    : new SettledCreateZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, config);
        }
    };

    private SettledCreateZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
            throws IOException {
        super(connectString, sessionTimeout, watcher, canBeReadOnly);
    }

    private SettledCreateZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
                                   ZKClientConfig config) throws IOException {
        super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
    }

    @Override
    public String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat, long ttl)
            throws KeeperException, InterruptedException {
        if (!mode.isEphemeral()) {
            return super.create(path, data, acl, mode, stat, ttl);
        }
        CountDownLatch replied = new CountDownLatch(1);
        Object[] reply = new Object[3]; // code, name, stat; published by the latch
        super.create(path, data, acl, mode, (rc, p, ctx, name, s) -> {
            reply[0] = rc;
            reply[1] = name;
            reply[2] = s;
            replied.countDown();
        }, null, ttl);
        boolean interrupted = false;
        while (true) {
            try {
                replied.await(); // every request gets a reply: a result, a connection loss, or closing
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        KeeperException.Code code = KeeperException.Code.get((Integer) reply[0]);
        if (code != KeeperException.Code.OK) {
            throw KeeperException.create(code, path);
        }
        if (stat != null && reply[2] != null) {
            Stat s = (Stat) reply[2];
            stat.setCzxid(s.getCzxid());
            stat.setMzxid(s.getMzxid());
            stat.setCtime(s.getCtime());
            stat.setMtime(s.getMtime());
            stat.setVersion(s.getVersion());
            stat.setCversion(s.getCversion());
            stat.setAversion(s.getAversion());
            stat.setEphemeralOwner(s.getEphemeralOwner());
            stat.setDataLength(s.getDataLength());
            stat.setNumChildren(s.getNumChildren());
            stat.setPzxid(s.getPzxid());
        }
        return (String) reply[1];
    }
}
