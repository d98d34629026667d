package org.lockspi.zookeeper.recipe.internal;

import org.apache.zookeeper.KeeperException;
import org.lockspi.LockException;
import org.lockspi.Locks;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The revoker's side of a revocation in Curator's layout (spec §27; the node data is {@link ZkLayout}'s): find the
 * holder's node by its fencing token as {@link ZkInspection} does, check the mark, write the request with a
 * conditional {@code setData}. It never deletes the node: the holder does, once its lease reads {@code LOST} (the
 * recipe's {@link RevocationWatch}). Over any client that can read and write node data: the raw and ZkClient
 * providers (through {@link ZkOps}) and the Curator provider.
 */
public final class ZkRevocation {

    /** The reads and the conditional write a revocation needs, from whichever client the provider has. */
    public interface Client extends ZkInspection.Reader {
        /**
         * @param path a full path
         * @return the node's data and version, or null if there is no such node
         * @throws KeeperException      as ZooKeeper reports it (NoAuth if the node's ACL forbids the read)
         * @throws InterruptedException if the thread was interrupted
         */
        ZkOps.NodeData data(String path) throws KeeperException, InterruptedException;

        /**
         * {@code setData(path, data, version)}.
         *
         * @throws KeeperException.BadVersionException if the node changed since {@code version} was read
         * @throws KeeperException.NoNodeException     if it is gone
         * @throws KeeperException      as ZooKeeper reports it otherwise (NoAuth if the ACL forbids the write)
         * @throws InterruptedException if the thread was interrupted
         */
        void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException;
    }

    private ZkRevocation() {
    }

    /**
     * Asks the holder of a lock whose fencing token is {@code token} to let go.
     *
     * @param client      the client's reads and writes
     * @param path        the lock's full path
     * @param token       the holder's fencing token
     * @param requestedBy who asks, as the engine checked it
     * @param address     the server address, for messages
     * @return true if the request is written now, or was already there; false if no holder has the token (nothing
     *         written)
     * @throws IllegalStateException if the holder's node does not carry the mark (its acquisition did not opt in,
     *                               or it is not a lockspi client's); nothing written
     * @throws LockException         if the ACL of the lock's node or of the holder's does not let this client read
     *                               or write it
     * @throws KeeperException       as ZooKeeper reports it otherwise (a lost connection: the request may or may
     *                               not have been written)
     * @throws InterruptedException  if the thread was interrupted
     */
    public static boolean request(Client client, String path, long token, String requestedBy, String address)
            throws KeeperException, InterruptedException {
        try {
            String node = ZkInspection.holderNode(client, path, token);
            if (node == null) {
                return false;
            }
            byte[] request = ZkLayout.revocationRequest(requestedBy);
            while (true) {
                ZkOps.NodeData data = client.data(node);
                if (data == null) {
                    return false; // let go meanwhile
                }
                if (ZkLayout.requestedBy(data.bytes()) != null) {
                    return true; // asked already; the holder reports the first request
                }
                if (!ZkLayout.isRevocableData(data.bytes())) {
                    throw new IllegalStateException("the holder with token " + token + " does not accept revocation:"
                            + " its service was opened without " + Locks.REVOCABLE_PARAMETER + "=true (or it is not"
                            + " a lockspi client)");
                }
                try {
                    client.setData(node, request, data.version());
                    return true;
                } catch (KeeperException.BadVersionException e) {
                    // the node changed since the read: read it again, never overwrite it
                } catch (KeeperException.NoNodeException e) {
                    return false;
                }
            }
        } catch (KeeperException.NoAuthException e) {
            throw new LockException("not allowed to revoke the holder with token " + token + " of " + path
                    + " at ZooKeeper " + address + ": the ACL of " + e.getPath() + " does not let this client's"
                    + " identity read and write it (" + e.code() + ")", e);
        }
    }
}
