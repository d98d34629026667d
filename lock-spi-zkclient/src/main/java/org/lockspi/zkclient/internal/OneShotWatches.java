package org.lockspi.zkclient.internal;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.I0Itec.zkclient.IZkChildListener;
import org.I0Itec.zkclient.IZkDataListener;
import org.I0Itec.zkclient.exception.ZkException;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * The recipe's one-shot watches ({@code ZkOps.watchNode}, {@code watchChildren}, {@code unwatch}) on ZkClient's
 * listeners. ZkClient's listeners are permanent and re-armed by ZkClient after every event; here each watch is a
 * listener that unsubscribes itself when it fires. ZkClient calls listeners on its own event thread, and its read
 * before the call can fail while the connection is down, which would drop the event; so every pending watch also
 * fires after a reconnection or an expiry ({@link #fireAll()}; spurious calls are harmless to the recipe).
 *
 * <p>A watch is identified by its path, its callback and its kind; setting one again replaces it. Setting and
 * dropping watches is serialised per path (striped locks), so that dropping one never drops another's; when the
 * last watch of ours on a path goes, the client's watches there are removed from the server too (ZkClient re-arms a
 * watch before it calls a listener, and a timed-out waiter leaves one on a live node).
 */
final class OneShotWatches {
    private static final int STRIPES = 32;

    private final LockZkClient client;
    /** Pending one-shot watches by path and callback. */
    private final Map<WatchKey, Watch> watches = new ConcurrentHashMap<>();
    /** Serialises setting and dropping watches per path, so that dropping one never drops another's. */
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    OneShotWatches(LockZkClient client) {
        this.client = client;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** As {@code ZkOps.watchNode}: false, and no watch left, if the node is gone. */
    boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
        DataWatch watch = new DataWatch(new WatchKey(path, onChange, false));
        try {
            return arm(watch, () -> {
                client.subscribeDataChanges(path, watch);
                return true;
            });
        } catch (KeeperException.NoNodeException e) {
            return false; // getData set no watch on the missing node
        }
    }

    /** As {@code ZkOps.watchChildren}: the children; NoNodeException, and no watch left, if the node is gone. */
    List<String> watchChildren(String path, Runnable onChange) throws KeeperException, InterruptedException {
        ChildWatch watch = new ChildWatch(new WatchKey(path, onChange, true));
        return arm(watch, () -> {
            List<String> children = client.subscribeChildChanges(path, watch);
            if (children == null) { // no such node, and no watch set on it
                throw ZkException.create(KeeperException.create(KeeperException.Code.NONODE, path));
            }
            return children;
        });
    }

    /** Subscribes the watch's listener, replacing an earlier watch of the same key; drops it again on a failure. */
    private <T> T arm(Watch watch, LockZkClient.Call<T> subscribe) throws KeeperException, InterruptedException {
        ReentrantLock stripe = stripe(watch.key().path);
        stripe.lock();
        try {
            replace(watch);
            try {
                return client.call(subscribe);
            } catch (KeeperException | InterruptedException | RuntimeException e) {
                drop(watch);
                throw e;
            }
        } finally {
            stripe.unlock();
        }
    }

    /** As {@code ZkOps.unwatch}: best effort, never throws. */
    void unwatch(String path, Runnable onChange) {
        ReentrantLock stripe = stripe(path);
        stripe.lock();
        try {
            Watch data = watches.get(new WatchKey(path, onChange, false));
            if (data != null) {
                drop(data);
            }
            Watch child = watches.get(new WatchKey(path, onChange, true));
            if (child != null) {
                drop(child);
            }
            if (watches.keySet().stream().noneMatch(k -> k.path.equals(path))) {
                removeServerWatches(path);
            }
        } finally {
            stripe.unlock();
        }
    }

    /**
     * Drops this client's watches on a path that none of our listeners needs any more: ZkClient re-arms a
     * watch before it calls a listener, and a timed-out waiter leaves one on a live node. Best effort.
     */
    private void removeServerWatches(String path) {
        ZooKeeper zk = client.zooKeeper();
        if (zk == null) {
            return;
        }
        if (!client.isConnected()) {
            // a request now would wait for the reconnection attempt to fail it (an acquisition that fails fast must
            // not): the client removes the watches when the request completes, in the background. Never 'local'
            // (removed here even if the server cannot be told): a local removal that a connection loss fails queues
            // a watch-removed event in the Disconnected state, after which the client's event thread drops the real
            // Disconnected event as a repeat (ZooKeeper 3.9 ClientCnxn.EventThread), and ZkClient would not hear of
            // the outage; watches left after a failed removal go when they fire or with the session
            zk.removeAllWatches(path, Watcher.WatcherType.Any, false, (rc, p, ctx) -> { }, null);
            return;
        }
        boolean interrupted = Thread.interrupted();
        try {
            zk.removeAllWatches(path, Watcher.WatcherType.Any, false);
        } catch (KeeperException | RuntimeException e) {
            // none there (NoWatcherException), or the connection dropped: the session ends it
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void replace(Watch watch) {
        Watch old = watches.put(watch.key(), watch);
        if (old != null) {
            old.unsubscribe();
        }
    }

    private void drop(Watch watch) {
        watches.remove(watch.key(), watch);
        watch.unsubscribe();
    }

    private ReentrantLock stripe(String path) {
        return stripes[Math.floorMod(path.hashCode(), STRIPES)];
    }

    /** Fires every pending watch once: the recipe looks again. */
    void fireAll() {
        for (Watch watch : watches.values()) {
            watch.fire();
        }
    }

    /** Forgets every watch without firing it (the client closes). */
    void clear() {
        watches.clear();
    }

    /** A watch's identity: the path, the recipe's callback, and whether it watches children. */
    private static final class WatchKey {
        final String path;
        final Runnable onChange;
        final boolean children;

        WatchKey(String path, Runnable onChange, boolean children) {
            this.path = Objects.requireNonNull(path, "path");
            this.onChange = Objects.requireNonNull(onChange, "onChange");
            this.children = children;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof WatchKey && ((WatchKey) o).path.equals(path) && ((WatchKey) o).onChange == onChange
                    && ((WatchKey) o).children == children;
        }

        @Override
        public int hashCode() {
            return path.hashCode() * 31 + System.identityHashCode(onChange) + (children ? 1 : 0);
        }
    }

    /** One subscribed ZkClient listener that runs the recipe's callback once. */
    private abstract class Watch {
        private final WatchKey key;

        Watch(WatchKey key) {
            this.key = key;
        }

        WatchKey key() {
            return key;
        }

        abstract void unsubscribe();

        /** Runs the callback if this watch is still pending, and unsubscribes it. */
        void fire() {
            if (watches.remove(key, this)) {
                unsubscribe();
                key.onChange.run();
            }
        }
    }

    private final class DataWatch extends Watch implements IZkDataListener {
        DataWatch(WatchKey key) {
            super(key);
        }

        @Override
        void unsubscribe() {
            client.unsubscribeDataChanges(key().path, this);
        }

        @Override
        public void handleDataChange(String dataPath, Object data) {
            fire();
        }

        @Override
        public void handleDataDeleted(String dataPath) {
            fire();
        }
    }

    private final class ChildWatch extends Watch implements IZkChildListener {
        ChildWatch(WatchKey key) {
            super(key);
        }

        @Override
        void unsubscribe() {
            client.unsubscribeChildChanges(key().path, this);
        }

        @Override
        public void handleChildChange(String parentPath, List<String> currentChildren) {
            fire();
        }
    }
}
