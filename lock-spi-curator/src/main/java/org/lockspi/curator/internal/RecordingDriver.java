package org.lockspi.curator.internal;

import java.util.List;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.ACLBackgroundPathAndBytesable;
import org.apache.curator.framework.recipes.locks.PredicateResults;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;
import org.lockspi.zookeeper.recipe.internal.ZkPredicates;

/**
 * The mutex driver of one acquisition: the same node (a protected ephemeral sequential {@code lock-} node under
 * the lock's path, Curator's default data), the same order and the same predecessor as Curator's standard driver,
 * with three differences that save work and nothing else.
 *
 * <ul>
 *   <li>It keeps the {@link Stat} the server returns with the create: the node's czxid (the fencing token) and
 *       ephemeral owner (its session) cost no extra request. When Curator found the node again after a connection
 *       loss during the create, that stat is empty ({@link #createStat()} null) and the caller reads it.</li>
 *   <li>It remembers the node it created: the mutex shows its node only to the owning thread after success, and the
 *       backend also needs it after a failed acquisition (to make sure the node is gone) and from other threads (to
 *       free it when the service closes).</li>
 *   <li>It answers {@link #getsTheLock} in one pass over the listing as the server returns it, with the recipe's
 *       own rule ({@link ZkPredicates#exclusive}: the predecessor is the child with the largest key below ours; a
 *       child whose key equals ours counts as behind). Curator sorts the listing by
 *       {@link #fixForSorting} before it asks; here every child gets the same key, so that sort is one linear pass
 *       that leaves the listing as it is, and a wake-up in a long queue costs the listing, not a sort of it.</li>
 * </ul>
 *
 * <p>It reports each answered request of the acquisition to {@code answered} with an instant before which it was
 * not sent (see {@code ZkContact.confirmed}): the create, and each listing, sent after the create returned or after
 * the previous verdict was given. The listing after a wait thus reports the instant before the wait, an early bound.
 */
final class RecordingDriver extends StandardLockInternalsDriver {
    /** The one sort key of every child: Curator's sort then keeps the server's order (see the class comment). */
    private static final String SAME_KEY = "";

    private final LongConsumer answered;
    private volatile String created;
    private volatile Stat createStat;
    /** System.nanoTime() before which the next listing cannot have been sent. */
    private volatile long listingSentAfter;

    /** @param answered told of each answered request: an instant before which it was not sent */
    RecordingDriver(LongConsumer answered) {
        this.answered = answered;
    }

    @Override
    public String createsTheLock(CuratorFramework client, String path, byte[] lockNodeBytes) throws Exception {
        Stat stat = new Stat();
        ACLBackgroundPathAndBytesable<String> create = client.create().storingStatIn(stat)
                .creatingParentContainersIfNeeded().withProtection().withMode(CreateMode.EPHEMERAL_SEQUENTIAL);
        long sent = System.nanoTime();
        String node = lockNodeBytes == null ? create.forPath(path) : create.forPath(path, lockNodeBytes);
        answered.accept(sent);
        created = node;
        createStat = stat.getCzxid() == 0 ? null : stat; // 0: Curator found the node by its prefix, no stat
        listingSentAfter = System.nanoTime();
        return node;
    }

    @Override
    public PredicateResults getsTheLock(CuratorFramework client, List<String> children, String sequenceNodeName,
                                        int maxLeases) throws Exception {
        answered.accept(listingSentAfter);
        if (maxLeases != 1) {
            return super.getsTheLock(client, ZkLayout.sorted(children, ZkLayout.MUTEX), sequenceNodeName, maxLeases);
        }
        String predecessor = predecessor(children, sequenceNodeName);
        if (predecessor == null) {
            return new PredicateResults(null, true);
        }
        listingSentAfter = System.nanoTime(); // the next listing follows the watch set on this predecessor
        return new PredicateResults(predecessor, false);
    }

    /**
     * @return the child just ahead of ours in lock order, or null if none is (ours holds the lock)
     * @throws KeeperException.NoNodeException if ours is not among the children (it is gone)
     */
    static String predecessor(List<String> children, String ours) throws KeeperException.NoNodeException {
        ZkPredicates.Verdict verdict = ZkPredicates.exclusive(children, ours, ZkLayout.MUTEX);
        if (verdict == null) {
            // Curator's driver says so too; its lock loop takes it for an expired session and creates anew
            throw new KeeperException.NoNodeException("Sequential path not found: " + ours);
        }
        return verdict.watch();
    }

    @Override
    public String fixForSorting(String str, String lockName) {
        return SAME_KEY;
    }

    /** @return the last node this driver created, or null */
    String created() {
        return created;
    }

    /** @return the stat the server returned with the last create, or null if Curator did not get one */
    Stat createStat() {
        return createStat;
    }
}
