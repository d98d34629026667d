package org.lockspi.zkclient;

import org.lockspi.zkclient.internal.ZkClientOps;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.ZkRecipeProvider;
import org.lockspi.zookeeper.recipe.ZkSettings;

/**
 * The {@code zkclient} lock provider: ZooKeeper locks on I0Itec ZkClient (its listeners, its connection-state
 * events and its reconnection after a session expiry), in Apache Curator's node layout, so it excludes and is
 * excluded by the other ZooKeeper providers and by plain Curator applications on the same paths.
 *
 * <p>URI: {@code zookeeper://h1:2181,h2:2181/app?sessionTimeout=30s&connectTimeout=15s}. The path is the root under
 * which lock names live ({@code /app/<name>}); it and every lock's parent nodes are created as container nodes
 * when needed. Parameters:
 * <ul>
 *   <li>{@code sessionTimeout} (default 30s, 1s..1h): the ZooKeeper session timeout asked of the server; a crashed
 *       holder's locks are freed after it, and a longer outage loses every lease;</li>
 *   <li>{@code connectTimeout} (default 15s, 100ms..10m): how long {@code open} waits for the first connection,
 *       and how long an operation waits for a lost connection to return;</li>
 *   <li>{@code uncertainAfter} (default half the session timeout, more than 0 and less than it): how old the last
 *       confirmed contact with the server may be before a lease reads UNCERTAIN; past 90 % of the negotiated
 *       session timeout it reads LOST (see {@link org.lockspi.zookeeper.recipe.ZkSettings});</li>
 *   <li>{@code acl} ({@code creator} or {@code open}) and {@code tls}, {@code trustStore},
 *       {@code trustStorePassword}, {@code keyStore}, {@code keyStorePassword}: the ACL of created nodes and TLS
 *       to the servers, see {@link org.lockspi.zookeeper.recipe.ZkSettings} and
 *       {@link org.lockspi.zookeeper.recipe.ZkTls}. ZkClient's own {@code ZkConnection} cannot take a client
 *       configuration, so this provider builds the ZooKeeper handles itself, each with its own.</li>
 * </ul>
 * {@code release()} and {@code close()} wait at most {@code min(connectTimeout, sessionTimeout/2)} for the server;
 * the node is deleted when the connection returns, or with the session. An unknown host name fails at once.
 * A user and password in the URI are sent as ZooKeeper {@code digest} authentication (again on every new session),
 * and the nodes this provider creates (lock nodes and missing parents) then get {@code CREATOR_ALL_ACL}: no other
 * identity can delete them or acquire past them. Without a user (or with {@code acl=open}) they are open, as
 * Curator's defaults make them.
 *
 * <p>ZkClient retries every operation until the connection returns, without bound by default; this provider
 * makes each call once and lets the lock recipe wait for the connection, never past the caller's deadline. Node
 * data passes through ZkClient unchanged (no Java serialisation).
 *
 * <p>Revocation ({@code LockService.revoke}, {@link org.lockspi.LockFeature#REVOCATION}): a service opened with
 * {@code revocable=true} creates each lock node with the data {@code lockspi:revocable}; other nodes keep empty data,
 * as before. {@code revoke} finds the holder's node by its fencing token (its czxid), as inspection does, and writes
 * {@code lockspi:revoke:<requester>} over the mark with a conditional {@code setData} (never over a changed node;
 * a node without the mark is refused with {@code IllegalStateException}); it never deletes the node. The holder's
 * client keeps a one-shot data watch on each revocable node it holds, set again after every event; on a request it
 * turns the lease {@code LOST}, tells its listeners, and only then deletes the node as {@code release()} does, so the
 * next waiter gets the lock with a greater token. The bound, with the holder connected: one watch notification and
 * one read after the write (tens of milliseconds in the kit; the kit checks half the session timeout). A holder that
 * never hears of it (cut off, paused, dead) keeps the lock until its session ends. The request is an ordinary
 * write, so the ACL decides who may revoke: with {@code CREATOR_ALL_ACL} only the holder's own identity; another
 * one gets a {@code LockException} naming the node ({@code NOAUTH}). The zookeeper-raw and zkclient providers
 * revoke each other's leases (one recipe).
 *
 * <p>Features: reentrant and non-reentrant mutex, read-write lock, semaphore, FIFO fairness, herd-free waiting,
 * fencing tokens (the czxid of the holder's node), lease renewal (session heartbeats), lost notification,
 * crash release (ephemeral nodes), inspection and revocation (above). Priority 10 among the providers of the
 * {@code zookeeper} scheme.
 */
public final class ZkClientLockProvider extends ZkRecipeProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "zkclient";

    /** Public no-argument constructor for {@link java.util.ServiceLoader}; cheap, connects nothing. */
    public ZkClientLockProvider() {
        super(NAME, 10);
    }

    @Override
    protected ZkOps connect(ZkSettings settings) {
        return ZkClientOps.connect(settings);
    }
}
