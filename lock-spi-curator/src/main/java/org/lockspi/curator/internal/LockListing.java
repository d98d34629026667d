package org.lockspi.curator.internal;

import java.util.ArrayList;
import java.util.List;
import org.lockspi.spi.LockKind;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;

/**
 * Which children of a lock's node Curator's read-write lock and semaphore may see while the calling thread acquires
 * one: their lock nodes only. A lock's node holds the nodes of the locks whose names continue its own too
 * ({@code <path>/0} is the lock {@code <name>/0}), and Curator orders every child of a read-write lock, and counts
 * every child of a semaphore's {@code leases}: a name below would hold such a lock up (a child {@code 0} sorts
 * before every sequence number) until the server reaps its node. The provider's own ZooKeeper handle
 * ({@link SettledCreateZooKeeper}) passes each listing through {@link #filter}; the mutex's driver
 * ({@link RecordingDriver}) passes over such children itself, on any client.
 */
final class LockListing {
    private static final ThreadLocal<LockListing> CURRENT = new ThreadLocal<>();

    private final String path;
    private final LockKind kind;

    private LockListing(String path, LockKind kind) {
        this.path = path;
        this.kind = kind;
    }

    /**
     * Applies to the calling thread's listings until {@link #clear()}.
     *
     * @param path the lock's full path, as the ZooKeeper handle sees it
     * @param kind the kind being acquired
     */
    static void begin(String path, LockKind kind) {
        CURRENT.set(new LockListing(path, kind));
    }

    static void clear() {
        CURRENT.remove();
    }

    /**
     * @param listed   the node listed, a full path
     * @param children its children, as the server returned them
     * @return the children the recipe of the calling thread's acquisition may see
     */
    static List<String> filter(String listed, List<String> children) {
        LockListing listing = CURRENT.get();
        String[] baseNames = listing == null ? null : listing.baseNames(listed);
        if (baseNames == null) {
            return children;
        }
        List<String> nodes = new ArrayList<>(children.size());
        for (String child : children) {
            if (ZkLayout.isNode(child, baseNames)) {
                nodes.add(child);
            }
        }
        return nodes;
    }

    /** @return the base names of the lock nodes under {@code listed} for this acquisition, or null for any child */
    private String[] baseNames(String listed) {
        switch (kind) {
            case READ:
            case WRITE:
                return listed.equals(path) ? new String[] {ZkLayout.READ, ZkLayout.WRITE} : null;
            case SEMAPHORE:
            case NON_REENTRANT_MUTEX:
                if (listed.equals(ZkLayout.join(path, ZkLayout.SEMAPHORE_LOCKS))) {
                    return new String[] {ZkLayout.MUTEX};
                }
                return listed.equals(ZkLayout.join(path, ZkLayout.SEMAPHORE_LEASES))
                        ? new String[] {ZkLayout.LEASE} : null;
            default:
                return null; // the mutex: its driver passes over them
        }
    }
}
