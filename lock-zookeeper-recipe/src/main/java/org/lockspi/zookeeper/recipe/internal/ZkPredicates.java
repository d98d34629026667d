package org.lockspi.zookeeper.recipe.internal;

import java.util.Collection;

/**
 * "Do I hold it, and whom do I wait for?" over a lock's children as the server lists them (any order), the same
 * answers as Curator's lock drivers give over the sorted children. Each answer is one pass over the children with
 * the keys of {@link ZkLayout#sortKey} compared in place, no sorting and no allocation: a wake-up costs the listing
 * and a linear scan, not a sort of the whole queue. Pure functions.
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
        // Keys are compared in place (offsets into the names): a listing of a long queue costs no allocation.
        int ourKey = keyStart(ours, baseNames);
        boolean present = false;
        String target = null;
        int targetKey = 0;
        for (String child : children) {
            if (child.equals(ours)) {
                present = true;
                continue;
            }
            if (reader && !child.contains(ZkLayout.WRITE)) {
                continue;
            }
            int key = keyStart(child, baseNames);
            if (compareKeys(child, key, ours, ourKey) >= 0) {
                continue; // behind us
            }
            if (target == null || (reader ? compareKeys(child, key, target, targetKey) < 0
                    : compareKeys(child, key, target, targetKey) > 0)) {
                target = child;
                targetKey = key;
            }
        }
        if (!present) {
            return null;
        }
        return target == null ? Verdict.HOLDS : new Verdict(false, target);
    }

    /**
     * @return where the child's sort key starts: {@link ZkLayout#sortKey} is {@code child.substring} of it (the last
     *         occurrence of each base name in turn, each searched after the one before)
     */
    static int keyStart(String child, String... baseNames) {
        int start = 0;
        for (String base : baseNames) {
            int at = child.lastIndexOf(base);
            if (at >= start) {
                start = at + base.length();
            }
        }
        return start;
    }

    /** {@code a.substring(aStart).compareTo(b.substring(bStart))}, without the substrings. */
    static int compareKeys(String a, int aStart, String b, int bStart) {
        int aLength = a.length() - aStart;
        int bLength = b.length() - bStart;
        int common = Math.min(aLength, bLength);
        for (int i = 0; i < common; i++) {
            int d = a.charAt(aStart + i) - b.charAt(bStart + i);
            if (d != 0) {
                return d;
            }
        }
        return aLength - bLength;
    }
}
