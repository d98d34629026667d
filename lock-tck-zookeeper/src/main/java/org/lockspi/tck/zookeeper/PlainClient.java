package org.lockspi.tck.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.EphemeralType;

/** A short-lived plain ZooKeeper client for the backends' server-side operations, and what they share. */
final class PlainClient {
    private static final long WAIT_MS = 10_000;
    /** A sequential node's name ends with ten digits. */
    private static final Pattern SEQUENTIAL = Pattern.compile("\\d{10}$");

    private PlainClient() {
    }

    /** Work done with a connected client. */
    interface Work {
        void run(ZooKeeper zk) throws KeeperException, InterruptedException;
    }

    /**
     * Runs {@code work} with a new client on {@code connectString} (no chroot) and closes it.
     *
     * @param connectString the servers, {@code host:port[,host:port...]}
     * @param server        the backend's description, for failure messages
     * @param work          the work
     * @throws IllegalStateException if the client cannot connect within 10 s, an operation fails, or the thread
     *                               is interrupted (its flag is set again)
     * @throws UncheckedIOException  if the client cannot be created
     */
    static void run(String connectString, String server, Work work) {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = null;
        try {
            zk = new ZooKeeper(connectString, 10_000, e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            if (!connected.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("cannot connect to " + server + " within " + WAIT_MS + " ms");
            }
            work.run(zk);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + server, e);
        } catch (KeeperException e) {
            throw new IllegalStateException("ZooKeeper operation failed on " + server + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while working on " + server, e);
        } finally {
            if (zk != null) {
                try {
                    zk.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * @param name           a node's name (last path segment)
     * @param ephemeralOwner its ephemeral owner from its stat
     * @return whether it is a lock or lease node: ephemeral, or named with a sequence number
     */
    static boolean isLockNode(String name, long ephemeralOwner) {
        return EphemeralType.get(ephemeralOwner) == EphemeralType.NORMAL || SEQUENTIAL.matcher(name).find();
    }

    /**
     * Adds to {@code found} every lock node strictly below {@code path}, as the client sees the tree.
     *
     * @param zk    a connected client, synchronised with the leader if reads must be current
     * @param path  the full path
     * @param found receives full paths
     */
    static void lockNodes(ZooKeeper zk, String path, List<String> found) throws KeeperException, InterruptedException {
        List<String> children;
        try {
            children = zk.getChildren(path, false);
        } catch (KeeperException.NoNodeException e) {
            return;
        }
        for (String child : children) {
            String childPath = path + "/" + child;
            Stat stat = zk.exists(childPath, false);
            if (stat == null) {
                continue; // deleted meanwhile
            }
            if (isLockNode(child, stat.getEphemeralOwner())) {
                found.add(childPath);
            }
            lockNodes(zk, childPath, found);
        }
    }
}
