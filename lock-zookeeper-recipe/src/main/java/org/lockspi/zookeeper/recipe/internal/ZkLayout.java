package org.lockspi.zookeeper.recipe.internal;

import java.nio.charset.StandardCharsets;
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
 *
 * <p>A lock's node also has children that are not its lock nodes: the nodes of the locks whose names continue its
 * own ({@code <path>/0} is the lock {@code <name>/0}), and a semaphore's {@code locks} and {@code leases}. They are
 * neither ordered nor counted ({@link #isNode}): otherwise a lock {@code a/0}, whose node sorts before every
 * sequence number, would hold up the lock {@code a} until the server reaps it.
 *
 * <p><b>Node data and revocation</b> (spec §27, {@code LockFeature.REVOCATION}). A lock node's data is empty, as
 * today, unless its acquisition is revocable; this is the one place that defines the data otherwise, for every
 * ZooKeeper provider (raw, ZkClient, Curator), which must interoperate on it. All of it is UTF-8 text:
 * <ul>
 *   <li><b>The mark</b>, {@value #REVOCABLE_DATA}: the data with which a revocable acquisition creates the node that
 *       holds (a mutex node, a read or write node, a semaphore's lease node). The mark is written by the create
 *       itself, never afterwards. A node with any other data (empty: ours without the opt-in; a plain Curator
 *       application's: its client's address) is not revocable.</li>
 *   <li><b>The request</b>, {@value #REVOCATION_REQUEST_PREFIX} followed by the requester as the engine checked it
 *       (not blank, no line breaks, at most 200 characters), written by the revoker over the mark.</li>
 * </ul>
 * The revoker finds the node of the holder whose fencing token (czxid) matches, as {@link ZkInspection} finds the
 * holders; no such holder: {@code false}, nothing written. It reads the node's data and version: the mark, then it
 * writes the request with {@code setData} at that version (a changed node is read again, never overwritten); a
 * request already, then the holder has been asked and nothing is written; anything else, the holder did not opt in
 * ({@code IllegalStateException}, nothing written). The holder keeps a data watch on each revocable node of its
 * own (re-armed after every event); when it reads a request there it marks the lease lost, tells the engine
 * ({@code "revoked at the request of " + requester}) and only then deletes the node, as a release does. Nobody but
 * the holder ever deletes it. ZooKeeper ACLs apply: a revoker that may not read or write the node gets
 * {@code NoAuth}.
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
    /** The digits ZooKeeper appends to a sequential node's name. */
    public static final int SEQUENCE_DIGITS = 10;
    /** The data of a revocable acquisition's node (UTF-8), see the class comment. */
    public static final String REVOCABLE_DATA = "lockspi:revocable";
    /** What a revocation request's data starts with (UTF-8); the requester follows. See the class comment. */
    public static final String REVOCATION_REQUEST_PREFIX = "lockspi:revoke:";

    private ZkLayout() {
    }

    /**
     * @param id a fresh random id
     * @return the protected prefix {@code _c_<id>-}
     */
    public static String protectedPrefix(UUID id) {
        return PROTECTED_MARKER + id + "-";
    }

    /** @return the data of a revocable acquisition's node, {@value #REVOCABLE_DATA} in UTF-8 (a new array) */
    public static byte[] revocableData() {
        return REVOCABLE_DATA.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param data a node's data, or null
     * @return whether it is the mark of a revocable acquisition not yet asked to let go
     */
    public static boolean isRevocableData(byte[] data) {
        return data != null && REVOCABLE_DATA.equals(new String(data, StandardCharsets.UTF_8));
    }

    /**
     * @param requestedBy who asks, as the engine checked it
     * @return the data of a revocation request by {@code requestedBy}, in UTF-8
     */
    public static byte[] revocationRequest(String requestedBy) {
        return (REVOCATION_REQUEST_PREFIX + requestedBy).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param data a node's data, or null
     * @return the requester if the data is a revocation request, else null
     */
    public static String requestedBy(byte[] data) {
        if (data == null) {
            return null;
        }
        String text = new String(data, StandardCharsets.UTF_8);
        return text.startsWith(REVOCATION_REQUEST_PREFIX) ? text.substring(REVOCATION_REQUEST_PREFIX.length()) : null;
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
     * Whether a child of a lock's node is one of its lock nodes: after the last occurrence of one of the base names
     * comes a sequence number (ten digits, or ZooKeeper's signed form once the parent's counter passed 2^31). Any
     * other child (a node of a lock whose name continues this one's, a semaphore's {@code locks} or {@code leases})
     * is not the lock's, and is neither ordered nor counted. With no base name every child is a node.
     *
     * @param child     a child node's name
     * @param baseNames the base names of the lock kind
     * @return whether it is a lock node of that kind
     */
    public static boolean isNode(String child, String... baseNames) {
        if (baseNames.length == 0) {
            return true;
        }
        for (String base : baseNames) {
            int at = child.lastIndexOf(base);
            if (at >= 0 && isSequence(child, at + base.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return whether {@code s} from {@code from} on is a sequence number: ZooKeeper's {@code %010d} of the parent's
     *         32-bit counter (ten digits; a '-' and nine or ten digits once it passed 2^31)
     */
    private static boolean isSequence(String s, int from) {
        int length = s.length() - from;
        if (length != SEQUENCE_DIGITS && length != SEQUENCE_DIGITS + 1) {
            return false;
        }
        int digits = s.charAt(from) == '-' ? from + 1 : from;
        if (length == SEQUENCE_DIGITS + 1 && digits == from) {
            return false;
        }
        for (int i = digits; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
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
