package org.lockspi.zookeeper.recipe.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockInfo;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * Reads a lock's state in Curator's layout ({@link ZkLayout}) for {@code LockService.inspect} and {@code list},
 * over any client that can list children and read a node's stat: the raw and ZkClient providers (through
 * {@link ZkOps}) and the Curator provider. Reads only; sets no watch.
 *
 * <ul>
 *   <li>mutex: the first node in lock order holds, the others wait;</li>
 *   <li>read-write: each node holds or waits as {@link ZkPredicates} says (readers ahead of the first writer, or
 *       the writer, and its downgraded read);</li>
 *   <li>semaphore (and non-reentrant mutex): the nodes under {@code leases} hold a permit, the nodes under
 *       {@code locks} (its internal mutex) wait. The internal mutex's holder creates its lease node before it
 *       knows whether a permit is free: the newest lease node, if it belongs to the session of the first
 *       {@code locks} node and is younger than it, is that waiter's and is not counted as a holder.</li>
 * </ul>
 * A holder's fencing token is its node's czxid (the lease's own token), its time the node's ctime. A revocation
 * finds the node to ask by its token the same way ({@link #holderNode}).
 */
public final class ZkInspection {
    /** A node of the recipe: Curator's protected prefix, a random UUID, a base name and ten digits. */
    private static final Pattern LOCK_NODE = Pattern.compile("_c_[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-"
            + "(" + Pattern.quote(ZkLayout.MUTEX) + "|" + Pattern.quote(ZkLayout.READ) + "|"
            + Pattern.quote(ZkLayout.WRITE) + "|" + Pattern.quote(ZkLayout.LEASE) + ")\\d{10}");

    /** The reads the inspection needs, from whichever client the provider has. */
    public interface Reader {
        /**
         * @param path a full path
         * @return the names of its children, in any order; empty if there is no such node
         * @throws KeeperException      as ZooKeeper reports it
         * @throws InterruptedException if the thread was interrupted
         */
        List<String> children(String path) throws KeeperException, InterruptedException;

        /**
         * @param path a full path
         * @return its stat, or null if there is no such node
         * @throws KeeperException      as ZooKeeper reports it
         * @throws InterruptedException if the thread was interrupted
         */
        Stat stat(String path) throws KeeperException, InterruptedException;
    }

    private ZkInspection() {
    }

    /**
     * @param reader the client's reads
     * @param path   the lock's full path
     * @param name   the lock's name, for the view
     * @param own    whether a node (full path) is one of the asking client's live leases
     * @return the view; empty if the path holds no lock state
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    public static LockInfo inspect(Reader reader, String path, String name, Predicate<String> own)
            throws KeeperException, InterruptedException {
        View view = view(reader, path, own);
        if (view == null) {
            return LockInfo.empty(name);
        }
        List<LockInfo.Holder> holders = new ArrayList<>();
        view.holders().forEach(held -> holders.add(held.holder()));
        return new LockInfo(name, view.kind(), holders, view.waiters());
    }

    /**
     * The node of the holder of a lock whose fencing token (czxid) is {@code token}, found as
     * {@link #inspect} finds the holders: a waiting node with that token is no holder.
     *
     * @param reader the client's reads
     * @param path   the lock's full path
     * @param token  the fencing token
     * @return the holder's node (full path), or null if no holder has the token now
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    public static String holderNode(Reader reader, String path, long token)
            throws KeeperException, InterruptedException {
        View view = view(reader, path, node -> false);
        if (view != null) {
            for (Held held : view.holders()) {
                if (held.holder().fencingToken().orElse(-1) == token) {
                    return held.path();
                }
            }
        }
        return null;
    }

    /** A holder and its node's full path. */
    private record Held(LockInfo.Holder holder, String path) {
    }

    /** What a lock's nodes say: its kind, its holders in lock order, and how many wait. */
    private record View(LockInfo.Kind kind, List<Held> holders, int waiters) {
    }

    /** @return the lock's view; null if the path holds no lock state */
    private static View view(Reader reader, String path, Predicate<String> own)
            throws KeeperException, InterruptedException {
        List<String> children = reader.children(path);
        List<String> nodes = lockNodes(children, ZkLayout.MUTEX, ZkLayout.READ, ZkLayout.WRITE);
        if (nodes.isEmpty()) {
            // no mutex or read-write nodes: a semaphore, or only the nodes of names below this one
            boolean semaphore = children.contains(ZkLayout.SEMAPHORE_LEASES)
                    || children.contains(ZkLayout.SEMAPHORE_LOCKS);
            return semaphore ? semaphore(reader, path, own) : null;
        }
        boolean readWrite = nodes.stream().anyMatch(n -> n.contains(ZkLayout.READ) || n.contains(ZkLayout.WRITE));
        List<Held> holders = new ArrayList<>();
        int waiters = 0;
        for (String node : readWrite ? ZkLayout.sorted(nodes, ZkLayout.READ, ZkLayout.WRITE)
                : ZkLayout.sorted(nodes, ZkLayout.MUTEX)) {
            LockInfo.Mode mode;
            ZkPredicates.Verdict verdict;
            if (!readWrite) {
                mode = LockInfo.Mode.EXCLUSIVE;
                verdict = ZkPredicates.exclusive(nodes, node, ZkLayout.MUTEX);
            } else if (node.contains(ZkLayout.WRITE)) {
                mode = LockInfo.Mode.WRITE;
                verdict = ZkPredicates.exclusive(nodes, node, ZkLayout.READ, ZkLayout.WRITE);
            } else {
                mode = LockInfo.Mode.READ;
                verdict = ZkPredicates.read(nodes, node);
            }
            if (!verdict.holds()) {
                waiters++;
                continue;
            }
            String nodePath = ZkLayout.join(path, node);
            Stat stat = reader.stat(nodePath);
            if (stat != null) {
                holders.add(new Held(holder(mode, stat, own.test(nodePath)), nodePath));
            }
        }
        if (holders.isEmpty() && waiters == 0) {
            return null;
        }
        return new View(readWrite ? LockInfo.Kind.READ_WRITE : LockInfo.Kind.MUTEX, holders, waiters);
    }

    private static View semaphore(Reader reader, String path, Predicate<String> own)
            throws KeeperException, InterruptedException {
        String leasesPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LEASES);
        String locksPath = ZkLayout.join(path, ZkLayout.SEMAPHORE_LOCKS);
        List<String> locks = ZkLayout.sorted(lockNodes(reader.children(locksPath), ZkLayout.MUTEX), ZkLayout.MUTEX);
        List<String> leases = ZkLayout.sorted(lockNodes(reader.children(leasesPath), ZkLayout.LEASE),
                ZkLayout.LEASE);
        List<Stat> stats = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (String lease : leases) {
            String leasePath = ZkLayout.join(leasesPath, lease);
            Stat stat = reader.stat(leasePath);
            if (stat != null) {
                stats.add(stat);
                paths.add(leasePath);
            }
        }
        // The internal mutex's holder may have made a lease node while it waits for a permit: the newest one.
        if (!locks.isEmpty() && !stats.isEmpty()) {
            Stat first = reader.stat(ZkLayout.join(locksPath, locks.get(0)));
            Stat newest = stats.get(stats.size() - 1);
            if (first != null && newest.getEphemeralOwner() == first.getEphemeralOwner()
                    && newest.getCzxid() > first.getCzxid()) {
                stats.remove(stats.size() - 1);
                paths.remove(paths.size() - 1);
            }
        }
        if (stats.isEmpty() && locks.isEmpty()) {
            return null;
        }
        List<Held> holders = new ArrayList<>();
        for (int i = 0; i < stats.size(); i++) {
            holders.add(new Held(holder(LockInfo.Mode.PERMIT, stats.get(i), own.test(paths.get(i))), paths.get(i)));
        }
        return new View(LockInfo.Kind.SEMAPHORE, holders, locks.size());
    }

    private static LockInfo.Holder holder(LockInfo.Mode mode, Stat stat, boolean own) {
        return new LockInfo.Holder(mode, OptionalLong.of(stat.getCzxid()),
                Optional.of(Instant.ofEpochMilli(stat.getCtime())), own);
    }

    /** @return the children that are nodes of the recipe with one of the base names */
    private static List<String> lockNodes(Collection<String> children, String... baseNames) {
        List<String> nodes = new ArrayList<>();
        for (String child : children) {
            Matcher node = LOCK_NODE.matcher(child);
            if (node.matches() && List.of(baseNames).contains(node.group(2))) {
                nodes.add(child);
            }
        }
        return nodes;
    }

    /**
     * Walks the tree under the lock root and names each node that holds lock state (lock nodes of a mutex or
     * read-write lock, or a semaphore's {@code leases} with lease nodes), and the names below them: a semaphore's
     * {@code locks} and {@code leases} hold the nodes of names that continue its own too ({@code <name>/locks/0}).
     *
     * @param reader the client's reads
     * @param root   the full path under which names live ({@code "/"} or {@code "/app"})
     * @param prefix {@code ""} or the start of a name; the walk starts at its last whole segment
     * @return the names found, in walk order (may include some not starting with the prefix)
     * @throws KeeperException      as ZooKeeper reports it
     * @throws InterruptedException if the thread was interrupted
     */
    public static List<String> list(Reader reader, String root, String prefix)
            throws KeeperException, InterruptedException {
        int slash = prefix.lastIndexOf('/');
        String start = slash < 0 ? "" : prefix.substring(0, slash);
        List<String> names = new ArrayList<>();
        walk(reader, root, start, prefix, names, false);
        return names;
    }

    /**
     * @param internal whether the node is the {@code locks} of a semaphore: its mutex nodes are the semaphore's
     *                 internal mutex, not a lock of this name
     */
    private static void walk(Reader reader, String root, String name, String prefix, List<String> names,
                             boolean internal) throws KeeperException, InterruptedException {
        String path = name.isEmpty() ? root : ZkLayout.join(root, name);
        List<String> children = reader.children(path);
        boolean semaphore = children.contains(ZkLayout.SEMAPHORE_LEASES) && !lockNodes(
                reader.children(ZkLayout.join(path, ZkLayout.SEMAPHORE_LEASES)), ZkLayout.LEASE).isEmpty();
        if (!name.isEmpty() && (semaphore
                || !internal && !lockNodes(children, ZkLayout.MUTEX, ZkLayout.READ, ZkLayout.WRITE).isEmpty())) {
            names.add(name);
        }
        for (String child : children) {
            if (LOCK_NODE.matcher(child).matches()) {
                continue;
            }
            String childName = name.isEmpty() ? child : name + "/" + child;
            // descend only where a name with the prefix may lie
            if (childName.startsWith(prefix) || prefix.startsWith(childName + "/")) {
                walk(reader, root, childName, prefix, names, semaphore && child.equals(ZkLayout.SEMAPHORE_LOCKS));
            }
        }
    }
}
