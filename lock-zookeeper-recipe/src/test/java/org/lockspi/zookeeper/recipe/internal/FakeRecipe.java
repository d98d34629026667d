package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.apache.zookeeper.ZooDefs;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.zookeeper.recipe.ZkSettings;

/**
 * Recipe backends on one {@link FakeZooKeeper}, each on a client (a session) of its own, as separate lock services
 * would be; lock names live under {@value #ROOT}. Closes what it opened.
 */
final class FakeRecipe implements AutoCloseable {
    static final String ROOT = "/app";
    /** How long an operation waits for a lost connection (the connect timeout), and the release bound. */
    static final Duration CONNECT = Duration.ofMillis(500);

    final FakeZooKeeper zk = new FakeZooKeeper();
    private final List<LockBackend> opened = new ArrayList<>();

    /** One backend, its client and what it told the engine. */
    record Side(LockBackend backend, FakeZooKeeper.Client client, Events events) {
        /** Acquires on this thread. */
        ZkLease acquire(AcquireRequest request, Duration timeout) throws InterruptedException {
            return (ZkLease) backend.acquire(request, Deadline.after(timeout));
        }

        /** Acquires on a thread of its own. */
        CompletableFuture<ZkLease> acquireAsync(AcquireRequest request, Duration timeout) {
            CompletableFuture<ZkLease> result = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    result.complete(acquire(request, timeout));
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            }, "fake-acquire-" + request.name());
            t.setDaemon(true);
            t.start();
            return result;
        }
    }

    /** What a backend told the engine, in order: {@code suspended}, {@code restored}, {@code lost <path>}. */
    static final class Events implements BackendEvents {
        final BlockingQueue<String> told = new LinkedBlockingQueue<>();
        /** Runs when the backend reports the connection restored, on the thread that reports it. */
        volatile Runnable onRestored = () -> { };
        /** Why each lease was lost, in order, as {@code <path>: <why>}. */
        final BlockingQueue<String> why = new LinkedBlockingQueue<>();
        /** Runs when the backend reports a lease lost, on the thread that reports it, before it is recorded. */
        volatile Consumer<ZkLease> onLost = lease -> { };

        @Override
        public void connectionSuspended() {
            told.add("suspended");
        }

        @Override
        public void connectionRestored() {
            told.add("restored");
            onRestored.run();
        }

        @Override
        public void leaseLost(BackendLease lease, String why) {
            onLost.accept((ZkLease) lease);
            this.why.add(((ZkLease) lease).path() + ": " + why);
            leaseLost(lease);
        }

        @Override
        public void leaseLost(BackendLease lease) {
            told.add("lost " + ((ZkLease) lease).path());
        }
    }

    /** @return a new backend on a new client of the fake */
    Side open() {
        FakeZooKeeper.Client client = zk.client();
        Events events = new Events();
        ZkSettings settings = new ZkSettings("fake:2181", ROOT, Duration.ofSeconds(30), CONNECT, Optional.empty(),
                Duration.ofSeconds(15), ZooDefs.Ids.OPEN_ACL_UNSAFE, Optional.empty());
        LockBackend backend = ZkLockBackend.open(client, settings, events);
        opened.add(backend);
        return new Side(backend, client, events);
    }

    static AcquireRequest mutex(String name) {
        return AcquireRequest.exclusive(LockKind.MUTEX, name);
    }

    static AcquireRequest write(String name) {
        return AcquireRequest.exclusive(LockKind.WRITE, name);
    }

    static AcquireRequest read(String name) {
        return AcquireRequest.read(name, null);
    }

    /** @return the full path of a lock name */
    static String path(String name) {
        return ROOT + "/" + name;
    }

    /** @return the names of the lock's nodes, in creation order */
    List<String> nodes(String name) {
        return zk.children(path(name));
    }

    @Override
    public void close() {
        opened.forEach(LockBackend::close);
    }
}
