package org.lockspi.zookeeper.recipe.internal;

import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.lockspi.spi.Deadline;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * Creating our nodes, and finding one again after a connection loss by its Curator-protected name
 * ({@code _c_<uuid>-}, {@link ZkLayout#protectedPrefix}): a create whose answer was lost may or may not have made
 * the node, and a blind second create would queue a second node of ours.
 */
final class Nodes {
    private final ZkOps ops;
    private final SessionGate gate;

    Nodes(ZkOps ops, SessionGate gate) {
        this.ops = ops;
        this.gate = gate;
    }

    /**
     * Creates {@code parent/name<sequence>}: with the server's next sequence number when {@code sequence} is null,
     * else with the one given (a downgraded read node). After a connection loss during the create, looks for it by
     * its protected name before creating again.
     *
     * @param name our node's protected name without its sequence, {@code _c_<uuid>-<base name>}
     * @param data the node's data, written by the create ({@link ZkLayout#revocableData()} or empty)
     * @return the node
     * @throws SessionLost if session {@code gen} ended
     */
    ZkOps.Node create(String parent, String name, String sequence, byte[] data, Deadline deadline, long gen)
            throws InterruptedException, SessionLost {
        String prefixPath = ZkLayout.join(parent, name);
        boolean[] uncertain = {false};
        return gate.call(() -> {
            if (uncertain[0]) {
                ZkOps.Node found = find(parent, name);
                if (found != null) {
                    return found;
                }
            }
            uncertain[0] = true;
            return sequence == null ? ops.createEphemeralSequential(prefixPath, data)
                    : ops.createEphemeral(prefixPath + sequence, data);
        }, deadline, gen);
    }

    private ZkOps.Node find(String parent, String name) throws KeeperException, InterruptedException {
        for (String child : childrenOrEmpty(ops, parent)) {
            if (child.startsWith(name)) {
                String path = ZkLayout.join(parent, child);
                long czxid = ops.czxid(path);
                if (czxid >= 0) {
                    return new ZkOps.Node(path, czxid);
                }
            }
        }
        return null;
    }

    /** @return the children of {@code path}; none if there is no such node */
    static List<String> childrenOrEmpty(ZkOps ops, String path) throws KeeperException, InterruptedException {
        try {
            return ops.children(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    /** @return the parent of a full path ({@code "/"} for a child of the root) */
    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }
}
