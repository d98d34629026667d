package org.lockspi.zookeeper.recipe.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * The node layout of the ZooKeeper locks, the same as Apache Curator's so that the providers exclude each other
 * and any plain Curator application on the same path:
 *
 * <ul>
 *   <li>mutex ({@code InterProcessMutex}): {@code <path>/_c_<uuid>-lock-<10 digits>};</li>
 *   <li>read-write lock ({@code InterProcessReadWriteLock}): {@code <path>/_c_<uuid>-__READ__<10 digits>} and
 *       {@code <path>/_c_<uuid>-__WRIT__<10 digits>}, in one ordering; a read taken by the thread that holds the
 *       write (a downgrade) is a plain ephemeral node carrying the write node's 10 digits, so it sorts where the
 *       write does (Curator since CURATOR-621);</li>
 *   <li>semaphore ({@code InterProcessSemaphoreV2}) and non-reentrant mutex ({@code InterProcessSemaphoreMutex},
 *       a semaphore of one): an internal mutex under {@code <path>/locks} and the leases
 *       {@code <path>/leases/_c_<uuid>-lease-<10 digits>}.</li>
 * </ul>
 *
 * <p>{@code _c_<uuid>-} is Curator's "protected" prefix: a client that loses the connection while creating a
 * node finds it again by that prefix. Nodes are ordered by what follows the last occurrence of their base name
 * (the sequence number); a child without the base name sorts by its whole name, as in Curator.
 */
public final class ZkLayout {
    /** Curator's protected-node marker. */
    public static final String PROTECTED_MARKER = "_c_";
    /** Base name of mutex nodes (and of the semaphore's internal mutex). */
    public static final String MUTEX = "lock-";
    /** Base name of read nodes; the same length as {@link #WRITE}. */
    public static final String READ = "__READ__";
    /** Base name of write nodes. */
    public static final String WRITE = "__WRIT__";
    /** Base name of semaphore lease nodes. */
    public static final String LEASE = "lease-";
    /** The child of a semaphore's path holding its internal mutex. */
    public static final String SEMAPHORE_LOCKS = "locks";
    /** The child of a semaphore's path holding its leases. */
    public static final String SEMAPHORE_LEASES = "leases";

    private ZkLayout() {
    }

    /**
     * @param id a fresh random id
     * @return the protected prefix {@code _c_<id>-}
     */
    public static String protectedPrefix(UUID id) {
        return PROTECTED_MARKER + id + "-";
    }

    /**
     * @param parent a full path ({@code "/"} for the root)
     * @param child  a node name
     * @return the child's full path
     */
    public static String join(String parent, String child) {
        return parent.endsWith("/") ? parent + child : parent + "/" + child;
    }

    /**
     * @param path a full path
     * @return its last segment
     */
    public static String nodeName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * The key a child sorts by: what follows the last occurrence of each base name in turn, as Curator's
     * {@code StandardLockInternalsDriver.fixForSorting} (and, for read-write locks, its chained form) does.
     *
     * @param child     a child node's name
     * @param baseNames the base names of the lock kind, e.g. {@link #MUTEX}, or {@link #READ} and {@link #WRITE}
     * @return the sort key
     */
    public static String sortKey(String child, String... baseNames) {
        String key = child;
        for (String base : baseNames) {
            int at = key.lastIndexOf(base);
            if (at >= 0) {
                key = key.substring(at + base.length());
            }
        }
        return key;
    }

    /**
     * @param children  child node names, in any order
     * @param baseNames the base names of the lock kind
     * @return the children in lock order (a new list)
     */
    public static List<String> sorted(Collection<String> children, String... baseNames) {
        List<String> list = new ArrayList<>(children);
        list.sort(Comparator.comparing(child -> sortKey(child, baseNames)));
        return list;
    }
}
