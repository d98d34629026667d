package org.lockspi.curator.internal;

import java.io.IOException;
import java.util.List;
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
 * It changes two things. The listings of an acquisition show Curator's read-write lock and semaphore only their
 * lock nodes ({@link LockListing}), not the nodes of names below theirs. And an ephemeral create interrupted while
 * its reply is outstanding settles what the server did, then returns with the interrupt flag set. Otherwise the server creates the node and nobody learns its name, so an
 * interrupt during a recipe's create would leave a lock node behind until the session ends; this way the recipe
 * learns the name, meets the interrupt at its next wait, and deletes the node as it does for any interrupt.
 *
 * <p>The create itself is the plain synchronous one (its reply wakes the caller directly, not through the event
 * thread). Only when it is interrupted does the handle list the parent: the server answers a session's requests in
 * order, so the listing shows whether the create made a node; the node is recognised by its name, unique for
 * Curator's protected names ({@code _c_<uuid>-}).
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

    /** The digits ZooKeeper appends to a sequential node's name. */
    private static final int SEQUENCE_DIGITS = 10;

    private SettledCreateZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
            throws IOException {
        super(connectString, sessionTimeout, watcher, canBeReadOnly);
    }

    private SettledCreateZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
                                   ZKClientConfig config) throws IOException {
        super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
    }

    @Override
    public List<String> getChildren(String path, Watcher watcher, Stat stat)
            throws KeeperException, InterruptedException {
        return LockListing.filter(path, super.getChildren(path, watcher, stat));
    }

    @Override
    public List<String> getChildren(String path, boolean watch, Stat stat)
            throws KeeperException, InterruptedException {
        return LockListing.filter(path, super.getChildren(path, watch, stat));
    }

    @Override
    public String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat, long ttl)
            throws KeeperException, InterruptedException {
        if (!mode.isEphemeral()) {
            return super.create(path, data, acl, mode, stat, ttl);
        }
        try {
            return super.create(path, data, acl, mode, stat, ttl);
        } catch (InterruptedException e) {
            return settle(path, mode, e);
        }
    }

    /**
     * After an interrupted create: the node it made, with the interrupt flag set again; or the interrupt, if the
     * listing shows no such node (nothing was made). A failed listing leaves the outcome unknown, as a connection
     * loss does: that failure is thrown with the interrupt flag set, and Curator's protected create looks for the
     * node if it retries.
     */
    private String settle(String path, CreateMode mode, InterruptedException interrupt)
            throws KeeperException, InterruptedException {
        int slash = path.lastIndexOf('/');
        String parent = slash == 0 ? "/" : path.substring(0, slash);
        String name = path.substring(slash + 1);
        List<String> children = null;
        KeeperException failure = null;
        while (children == null && failure == null) {
            try {
                children = getChildren(parent, false); // the interrupt flag is clear: InterruptedException cleared it
            } catch (KeeperException.NoNodeException e) {
                children = List.of(); // no parent, no node
            } catch (KeeperException e) {
                failure = e;
            } catch (InterruptedException again) {
                // one more interrupt: the flag is set again at the end either way
            }
        }
        if (failure != null) {
            Thread.currentThread().interrupt();
            failure.addSuppressed(interrupt);
            throw failure;
        }
        String made = null;
        for (String child : children) {
            if (mode.isSequential() ? isSequenced(child, name) : child.equals(name)) {
                if (made != null) {
                    throw interrupt; // two candidates (a name that is not protected): cannot tell which is ours
                }
                made = child;
            }
        }
        if (made == null) {
            throw interrupt;
        }
        Thread.currentThread().interrupt();
        return slash == 0 ? "/" + made : parent + "/" + made;
    }

    private static boolean isSequenced(String child, String name) {
        if (child.length() != name.length() + SEQUENCE_DIGITS || !child.startsWith(name)) {
            return false;
        }
        for (int i = name.length(); i < child.length(); i++) {
            if (!Character.isDigit(child.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
