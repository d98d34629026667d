package org.lockspi.zookeeper.recipe;

import java.util.Collection;

/**
 * "Do I hold it, and whom do I wait for?" over a lock's children as the server lists them (any order), the same
 * answers as Curator's lock drivers give over the sorted children. Each answer is one pass over the children with
 * {@link ZkLayout#sortKey} and no sorting: a wake-up costs the listing and a linear scan, not a sort of the whole
 * queue. Pure functions.
 */
public final class ZkPredicates {

    /**
     * The answer for one node.
     *
     * @param holds whether our node holds the lock
     * @param watch the name of the node to wait for, when it does not; null when it does
     */
    public record Verdict(boolean holds, String watch) {
        static final Verdict HOLDS = new Verdict(true, null);
    }

    private ZkPredicates() {
    }

    /**
     * Exclusive (mutex, write lock, the semaphore's internal mutex): the first node in lock order holds; every
     * other waits for the node just ahead of it, whatever its kind (Curator's standard driver with one lease).
     *
     * @param children  the children, in any order
     * @param ours      our node's name
     * @param baseNames the base names that order the lock's children (see {@link ZkLayout#sortKey}); none orders
     *                  them by their whole names
     * @return the verdict, or null if our node is not among the children (it is gone)
     */
    public static Verdict exclusive(Collection<String> children, String ours, String... baseNames) {
        return nearestAhead(children, ours, false, baseNames);
    }

    /**
     * Shared (read lock): a reader holds when no write node is ahead of it; otherwise it waits for the first write
     * node ahead of it in lock order (Curator's read-lock driver; the order is that of {@link ZkLayout#READ} and
     * {@link ZkLayout#WRITE}).
     *
     * @param children the children, in any order
     * @param ours     our node's name
     * @return the verdict, or null if our node is not among the children (it is gone)
     */
    public static Verdict read(Collection<String> children, String ours) {
        return nearestAhead(children, ours, true, ZkLayout.READ, ZkLayout.WRITE);
    }

    /**
     * One pass: among the children that sort before ours (and, for a reader, are write nodes), the last one
     * (exclusive: our predecessor) or the first one (reader: the first writer ahead).
     */
    private static Verdict nearestAhead(Collection<String> children, String ours, boolean reader,
            String... baseNames) {
        String ourKey = ZkLayout.sortKey(ours, baseNames);
        boolean present = false;
        String target = null;
        String targetKey = null;
        for (String child : children) {
            if (child.equals(ours)) {
                present = true;
                continue;
            }
            if (reader && !child.contains(ZkLayout.WRITE)) {
                continue;
            }
            String key = ZkLayout.sortKey(child, baseNames);
            if (key.compareTo(ourKey) >= 0) {
                continue; // behind us
            }
            if (targetKey == null || (reader ? key.compareTo(targetKey) < 0 : key.compareTo(targetKey) > 0)) {
                target = child;
                targetKey = key;
            }
        }
        if (!present) {
            return null;
        }
        return target == null ? Verdict.HOLDS : new Verdict(false, target);
    }
}
