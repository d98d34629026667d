package org.lockspi.zkclient.internal;

import org.I0Itec.zkclient.ZkConnection;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * ZkClient's connection, remembering its last ZooKeeper handle so that a close can wait for the handle's threads
 * to end: ZkClient closes the handle (also when its constructor gives up connecting) but does not wait, and forgets
 * it at once.
 */
final class LockZkConnection extends ZkConnection {
    private volatile ZooKeeper last;

    LockZkConnection(String servers, int sessionTimeoutMillis) {
        super(servers, sessionTimeoutMillis);
    }

    @Override
    public void connect(Watcher watcher) {
        super.connect(watcher);
        last = getZookeeper();
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
}
