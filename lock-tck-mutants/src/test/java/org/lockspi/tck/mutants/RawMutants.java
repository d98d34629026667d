package org.lockspi.tck.mutants;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.zookeeper.raw.RawZooKeeperLockProvider;
import org.lockspi.zookeeper.raw.internal.RawZkOps;
import org.lockspi.zookeeper.recipe.ZkConnectFailures;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkRecipeProvider;
import org.lockspi.zookeeper.recipe.ZkSettings;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;

/**
 * Broken variants of {@code zookeeper-raw}: at the SPI, or inside the recipe through the {@link ZkOps} it runs on
 * (a {@link ZkRecipeProvider} that wraps the plain client's operations).
 */
public final class RawMutants {
    private RawMutants() {
    }

    /** The recipe on the plain client's operations, wrapped by a mutant. */
    abstract static class OnRawOps extends ZkRecipeProvider {
        OnRawOps(String name) {
            super(name, ForwardingProvider.PRIORITY);
        }

        @Override
        protected final ZkOps connect(ZkSettings settings) {
            ZkOps real;
            try {
                real = RawZkOps.connect(settings.hosts(), settings.sessionTimeout(), settings.connectTimeout(),
                        settings.digest().orElse(null));
            } catch (InterruptedException e) {
                throw ZkConnectFailures.interrupted(settings.hosts(), e);
            }
            return wrap(real, settings);
        }

        abstract ZkOps wrap(ZkOps real, ZkSettings settings);
    }

    /** A timeout handed to the server's API in whole seconds, rounded up: a 100 ms wait lasts a second. */
    public static final class DeadlineWholeSeconds extends ForwardingProvider {
        /** For ServiceLoader. */
        public DeadlineWholeSeconds() {
            super("mutant-raw-deadline-whole-seconds", new RawZooKeeperLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            Deadline rounded = deadline.isInfinite() ? deadline
                    : Deadline.after(Duration.ofSeconds((deadline.remainingMillis() + 999) / 1000));
            return backend.acquire(request, rounded);
        }
    }

    /** The write half served by the read recipe: writers share with readers and with each other. */
    public static final class WriteAsRead extends ForwardingProvider {
        /** For ServiceLoader. */
        public WriteAsRead() {
            super("mutant-raw-write-as-read", new RawZooKeeperLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.kind() == LockKind.WRITE ? AcquireRequest.read(request.name(), null) : request;
        }
    }

    /** release() marks the lease released and forgets the delete: the node stays until the session ends. */
    public static final class ReleaseForgetsDelete extends ForwardingProvider {
        /** For ServiceLoader. */
        public ReleaseForgetsDelete() {
            super("mutant-raw-release-forgets-delete", new RawZooKeeperLockProvider());
        }

        @Override
        protected Lease lease(BackendLease real) {
            return new Lease(real) {
                @Override
                public void release() {
                    // the delete was forgotten
                }
            };
        }
    }

    /**
     * Loss never reported: the lease keeps the SPI's defaults ({@code isLost()} false, no confirmation or validity
     * deadline) and the session's expiry is not passed on, while LOST_NOTIFICATION is declared.
     */
    public static final class LossUnreported extends ForwardingProvider {
        /** For ServiceLoader. */
        public LossUnreported() {
            super("mutant-raw-loss-unreported", new RawZooKeeperLockProvider());
        }

        @Override
        protected Lease lease(BackendLease real) {
            return new Silent(real);
        }

        @Override
        protected void leaseLost(BackendEvents engine, BackendLease lease) {
            // not passed on
        }
    }

    /** The fencing token kept in an int: the low 32 bits of the czxid, which go down when the epoch goes up. */
    public static final class Token32Bits extends ForwardingProvider {
        /** For ServiceLoader. */
        public Token32Bits() {
            super("mutant-raw-token-32-bits", new RawZooKeeperLockProvider());
        }

        @Override
        protected Lease lease(BackendLease real) {
            return new Lease(real) {
                @Override
                public long fencingToken() {
                    return real.fencingToken() & 0xFFFF_FFFFL;
                }
            };
        }
    }

    /** The reconnection ("restored") not passed on: after a quick server restart the lease stays UNCERTAIN. */
    public static final class RestoreUnreported extends ForwardingProvider {
        /** For ServiceLoader. */
        public RestoreUnreported() {
            super("mutant-raw-restore-unreported", new RawZooKeeperLockProvider());
        }

        @Override
        protected void connectionRestored(BackendEvents engine) {
            // not passed on
        }
    }

    /**
     * Lock nodes created PERSISTENT_SEQUENTIAL instead of EPHEMERAL_SEQUENTIAL: a holder's node outlives its
     * process, so a crashed holder's lock is never freed.
     */
    public static final class PersistentNodes extends OnRawOps {
        /** For ServiceLoader: the child JVM of §11 finds it by name. */
        public PersistentNodes() {
            super("mutant-raw-persistent-nodes");
        }

        @Override
        ZkOps wrap(ZkOps real, ZkSettings settings) {
            ZooKeeper plain = plainClient(real, settings);
            return new ForwardingZkOps(real) {
                @Override
                public Node createEphemeralSequential(String pathPrefix)
                        throws KeeperException, InterruptedException {
                    for (int race = 0; ; race++) {
                        Stat stat = new Stat();
                        try {
                            String path = plain.create(pathPrefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                    CreateMode.PERSISTENT_SEQUENTIAL, stat);
                            return new Node(path, stat.getCzxid());
                        } catch (KeeperException.NoNodeException e) {
                            if (race > 10) {
                                throw e;
                            }
                            createParents(plain, pathPrefix);
                        }
                    }
                }

                @Override
                public void close() {
                    try {
                        real.close();
                    } finally {
                        try {
                            plain.close(5_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
        }

        /** A second, plain client of the same server, for the persistent creates. */
        private static ZooKeeper plainClient(ZkOps real, ZkSettings settings) {
            CountDownLatch connected = new CountDownLatch(1);
            ZKClientConfig config = new ZKClientConfig();
            config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
            try {
                ZooKeeper plain = new ZooKeeper(settings.hosts(), (int) settings.sessionTimeout().toMillis(), e -> {
                    if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                        connected.countDown();
                    }
                }, false, config);
                if (!connected.await(settings.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                    plain.close();
                    throw new LockConnectionException("no second client for " + settings.hosts());
                }
                return plain;
            } catch (IOException | RuntimeException e) {
                real.close();
                throw new LockConnectionException("no second client for " + settings.hosts() + ": " + e, e);
            } catch (InterruptedException e) {
                real.close();
                throw ZkConnectFailures.interrupted(settings.hosts(), e);
            }
        }

        private static void createParents(ZooKeeper plain, String path) throws KeeperException, InterruptedException {
            for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
                try {
                    plain.create(path.substring(0, slash), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.CONTAINER);
                } catch (KeeperException.NodeExistsException e) {
                    // there
                }
            }
        }
    }

    /**
     * A waiter watches the lock's children instead of its predecessor: every change of the queue wakes every
     * waiter (a herd), and no watch sits on the entries.
     */
    public static final class WatchesChildren extends OnRawOps {
        /** For ServiceLoader. */
        public WatchesChildren() {
            super("mutant-raw-watches-children");
        }

        @Override
        ZkOps wrap(ZkOps real, ZkSettings settings) {
            return new ForwardingZkOps(real) {
                @Override
                public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
                    return watchChildrenInstead(real, path, onChange);
                }
            };
        }
    }

    /**
     * The semaphore's internal-lock waiters (the non-reentrant mutex's too, in Curator's layout) watch the children of
     * {@code locks} instead of their predecessor: each change of that queue wakes all of them (a herd on one waiting
     * path; the mutex and read-write waiters still watch their predecessor).
     */
    public static final class SemaphoreHerd extends OnRawOps {
        /** For ServiceLoader. */
        public SemaphoreHerd() {
            super("mutant-raw-semaphore-herd");
        }

        @Override
        ZkOps wrap(ZkOps real, ZkSettings settings) {
            return new ForwardingZkOps(real) {
                @Override
                public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
                    return ZkLayout.nodeName(parentOf(path)).equals(ZkLayout.SEMAPHORE_LOCKS)
                            ? watchChildrenInstead(real, path, onChange) : real.watchNode(path, onChange);
                }
            };
        }
    }

    /**
     * A create that meets a connection loss is made again as soon as the connection is back, without looking for the
     * node the lost one may have made (what a client library's retry loop does unless the create is protected): when
     * the server made it, the first node stays, ahead of the second, for as long as the session lives.
     */
    public static final class CreatesAgainBlind extends OnRawOps {
        /** For ServiceLoader. */
        public CreatesAgainBlind() {
            super("mutant-raw-creates-again-blind");
        }

        @Override
        ZkOps wrap(ZkOps real, ZkSettings settings) {
            return new ForwardingZkOps(real) {
                @Override
                public Node createEphemeralSequential(String pathPrefix) throws KeeperException, InterruptedException {
                    for (int attempt = 1; ; attempt++) {
                        try {
                            return real.createEphemeralSequential(pathPrefix); // waits while the client reconnects
                        } catch (KeeperException.ConnectionLossException e) {
                            if (attempt == 10) {
                                throw e;
                            }
                        }
                    }
                }
            };
        }
    }

    /**
     * A delete that meets a connection loss is left to a sweep one session timeout and a second later ("whatever
     * the connection loss left behind is swept up"), not sent again when the connection returns: the lock stays
     * taken past the release bound, though the server was reachable all along.
     */
    public static final class LostDeleteSweptLate extends OnRawOps {
        /** For ServiceLoader. */
        public LostDeleteSweptLate() {
            super("mutant-raw-lost-delete-swept-late");
        }

        @Override
        ZkOps wrap(ZkOps real, ZkSettings settings) {
            long sweepMillis = settings.sessionTimeout().toMillis() + 1_000;
            ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mutant-sweeper");
                t.setDaemon(true);
                return t;
            });
            return new ForwardingZkOps(real) {
                @Override
                public void delete(String path) throws KeeperException, InterruptedException {
                    try {
                        real.delete(path);
                    } catch (KeeperException.ConnectionLossException e) {
                        sweeper.schedule(() -> sweep(path), sweepMillis, TimeUnit.MILLISECONDS);
                    }
                }

                private void sweep(String path) {
                    try {
                        real.delete(path);
                    } catch (KeeperException.NoNodeException | KeeperException.SessionExpiredException e) {
                        // gone
                    } catch (KeeperException e) {
                        sweeper.schedule(() -> sweep(path), sweepMillis, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException | IllegalStateException e) {
                        // closing
                    }
                }

                @Override
                public void close() {
                    sweeper.shutdownNow();
                    real.close();
                }
            };
        }
    }

    /**
     * A watch whose {@code getData} meets a connection loss is taken as set ("the client re-registers its watches
     * when it reconnects", true only of watches the server confirmed): the waiter waits for a wake-up that never
     * comes.
     */
    public static final class WatchLossIgnored extends OnRawOps {
        /** For ServiceLoader. */
        public WatchLossIgnored() {
            super("mutant-raw-watch-loss-ignored");
        }

        @Override
        ZkOps wrap(ZkOps real, ZkSettings settings) {
            return new ForwardingZkOps(real) {
                @Override
                public boolean watchNode(String path, Runnable onChange) throws KeeperException, InterruptedException {
                    try {
                        return real.watchNode(path, onChange);
                    } catch (KeeperException.ConnectionLossException e) {
                        return true; // taken as set
                    }
                }
            };
        }
    }

    /**
     * No confirmation threshold: a lease's confirmation counts as long as its validity, so a cut-off lease reads
     * {@code HELD} until the client library reports the disconnect (two thirds of the session timeout) instead of
     * turning {@code UNCERTAIN} at {@code uncertainAfter}.
     */
    public static final class NoConfirmationThreshold extends ForwardingProvider {
        /** For ServiceLoader. */
        public NoConfirmationThreshold() {
            super("mutant-raw-no-confirmation-threshold", new RawZooKeeperLockProvider());
        }

        @Override
        protected Lease lease(BackendLease real) {
            return new Lease(real) {
                @Override
                public long confirmedUntilNanos() {
                    return real.validUntilNanos();
                }
            };
        }
    }

    /**
     * Watches the children of a node's parent where its data was to be watched: any change of the queue fires it.
     *
     * @return whether the node was there (as {@code watchNode} answers)
     */
    static boolean watchChildrenInstead(ZkOps real, String path, Runnable onChange)
            throws KeeperException, InterruptedException {
        List<String> children;
        try {
            children = real.watchChildren(ForwardingZkOps.parentOf(path), onChange);
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
        return children.contains(ZkLayout.nodeName(path));
    }
}
