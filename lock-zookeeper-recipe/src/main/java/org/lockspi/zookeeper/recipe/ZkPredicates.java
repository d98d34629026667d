package org.lockspi.zookeeper.recipe;

import java.util.List;

/**
 * "Do I hold it, and whom do I wait for?" over a sorted list of a lock's children (see {@link ZkLayout#sorted}),
 * the same answers as Curator's lock drivers give. Pure functions.
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
     * Exclusive (mutex, write lock, the semaphore's internal mutex): the first node holds; every other waits for
     * the node just ahead of it, whatever its kind (Curator's standard driver with one lease).
     *
     * @param sorted the children in lock order
     * @param ours   our node's name
     * @return the verdict, or null if our node is not among the children (it is gone)
     */
    public static Verdict exclusive(List<String> sorted, String ours) {
        int index = sorted.indexOf(ours);
        if (index < 0) {
            return null;
        }
        return index == 0 ? Verdict.HOLDS : new Verdict(false, sorted.get(index - 1));
    }

    /**
     * Shared (read lock): a reader holds when no write node is ahead of it; otherwise it waits for the first write
     * node ahead of it (Curator's read-lock driver).
     *
     * @param sorted the children in lock order
     * @param ours   our node's name
     * @return the verdict, or null if our node is not among the children (it is gone)
     */
    public static Verdict read(List<String> sorted, String ours) {
        String firstWriter = null;
        for (String child : sorted) {
            if (child.equals(ours)) {
                return firstWriter == null ? Verdict.HOLDS : new Verdict(false, firstWriter);
            }
            if (firstWriter == null && child.contains(ZkLayout.WRITE)) {
                firstWriter = child;
            }
        }
        return null;
    }
}
