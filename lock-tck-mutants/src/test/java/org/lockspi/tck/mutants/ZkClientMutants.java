package org.lockspi.tck.mutants;

import java.util.EnumSet;
import java.util.Set;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockFeature;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.LockKind;
import org.lockspi.zkclient.ZkClientLockProvider;
import org.lockspi.zkclient.internal.ZkClientOps;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkRecipeProvider;
import org.lockspi.zookeeper.recipe.ZkSettings;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;

/**
 * Broken variants of {@code zkclient}: at the SPI, or inside the recipe through the {@link ZkOps} it runs on.
 */
public final class ZkClientMutants {
    private ZkClientMutants() {
    }

    /** The recipe on ZkClient's operations, wrapped by a mutant. */
    abstract static class OnZkClientOps extends ZkRecipeProvider {
        OnZkClientOps(String name) {
            super(name, ForwardingProvider.PRIORITY);
        }

        @Override
        protected final ZkOps connect(ZkSettings settings) {
            return wrap(ZkClientOps.connect(settings.hosts(), settings.sessionTimeout(), settings.connectTimeout(),
                    settings.digest().orElse(null)));
        }

        abstract ZkOps wrap(ZkOps real);
    }

    /** The mutex served by the read recipe: a copy-paste slip that lets every client in. */
    public static final class MutexAsRead extends ForwardingProvider {
        /** For ServiceLoader. */
        public MutexAsRead() {
            super("mutant-zkclient-mutex-as-read", new ZkClientLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.kind() == LockKind.MUTEX ? AcquireRequest.read(request.name(), null) : request;
        }
    }

    /** The held write of a downgrade ignored: the read queues behind its own thread's write. */
    public static final class DowngradeIgnored extends ForwardingProvider {
        /** For ServiceLoader. */
        public DowngradeIgnored() {
            super("mutant-zkclient-downgrade-ignored", new ZkClientLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.heldWrite() != null ? AcquireRequest.read(request.name(), null) : request;
        }
    }

    /**
     * features() returns the provider's own modifiable set: a caller that removes a feature from the set it got
     * (to "switch it off" for itself) changes what the provider declares to everyone.
     */
    public static final class MutableFeatures extends ForwardingProvider {
        private static final Set<LockFeature> FEATURES = EnumSet.copyOf(new ZkClientLockProvider().features());

        /** For ServiceLoader. */
        public MutableFeatures() {
            super("mutant-zkclient-mutable-features", new ZkClientLockProvider());
        }

        @Override
        public Set<LockFeature> features() {
            return FEATURES;
        }
    }

    /**
     * An acquisition that gives up (timeout, interrupt) does not delete its node: only release() deletes (on the
     * recipe's cleaner thread). The semaphore's internal mutex, released on the acquiring thread, is still deleted.
     */
    public static final class LeakOnTimeout extends OnZkClientOps {
        /** For ServiceLoader. */
        public LeakOnTimeout() {
            super("mutant-zkclient-leak-on-timeout");
        }

        @Override
        ZkOps wrap(ZkOps real) {
            return new ForwardingZkOps(real) {
                @Override
                public void delete(String path) throws KeeperException, InterruptedException {
                    boolean releasing = Thread.currentThread().getName().startsWith("lockspi-zk-cleaner");
                    boolean internalMutex = ZkLayout.nodeName(parentOf(path)).equals(ZkLayout.SEMAPHORE_LOCKS);
                    if (releasing || internalMutex) {
                        real.delete(path);
                    }
                }
            };
        }
    }

    /** The fencing token taken from the node's sequence suffix, which starts again when the parent is reaped. */
    public static final class SequenceToken extends OnZkClientOps {
        /** For ServiceLoader. */
        public SequenceToken() {
            super("mutant-zkclient-sequence-token");
        }

        @Override
        ZkOps wrap(ZkOps real) {
            return new ForwardingZkOps(real) {
                @Override
                public Node createEphemeralSequential(String pathPrefix)
                        throws KeeperException, InterruptedException {
                    Node node = real.createEphemeralSequential(pathPrefix);
                    String path = node.path();
                    return new Node(path, Long.parseLong(path.substring(path.length() - 10)));
                }
            };
        }
    }
}
