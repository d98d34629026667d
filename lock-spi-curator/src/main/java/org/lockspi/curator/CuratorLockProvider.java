package org.lockspi.curator;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.curator.internal.CuratorBackend;
import org.lockspi.curator.internal.Settings;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockServices;
import org.lockspi.spi.LockUri;
import org.lockspi.zookeeper.recipe.ZkRecipeProvider;

/**
 * The lock provider on Apache Curator's recipes, named {@value #NAME}, for URIs of scheme {@code zookeeper}.
 *
 * <pre>{@code
 * try (LockService locks = Locks.open("zookeeper://zk1:2181,zk2:2181/app?sessionTimeout=30s", "curator")) { ... }
 * }</pre>
 *
 * <h2>Recipes</h2>
 * <ul>
 *   <li>mutex: {@code InterProcessMutex}; read-write lock: {@code InterProcessReadWriteLock} (write to read
 *       downgrade as Curator grants it); semaphore: {@code InterProcessSemaphoreV2}; non-reentrant mutex: a
 *       semaphore of one, the nodes of {@code InterProcessSemaphoreMutex}.</li>
 *   <li>Each lockspi hold is one acquisition by a fresh recipe object: Curator's thread reentrancy is not used
 *       (lockspi counts holds itself), so Curator's per-thread state never outlives a hold, not even a lost one.</li>
 *   <li>Fencing token: the czxid of the node that holds the lock or lease. The mutex's driver keeps the stat of its
 *       create, so an uncontended mutex acquisition is three requests (create, getChildren, delete), as for a
 *       plain {@code InterProcessMutex}; it finds the predecessor in one pass over the listing (no sort).</li>
 * </ul>
 *
 * <h2>Where the locks live</h2>
 * The lock named {@code orders/42} of {@code zookeeper://h:2181/app} is the absolute path {@code /app/orders/42}:
 * the URI path is a prefix, not a Curator namespace, so a plain Curator application shares the lock with
 * {@code new InterProcessMutex(client, "/app/orders/42")} on a client without namespace, or with
 * {@code "/orders/42"} on a client with namespace {@code app}. Nodes follow Curator's layout exactly.
 *
 * <h2>URI parameters</h2>
 * <table>
 *   <caption>Parameters and defaults</caption>
 *   <tr><th>parameter</th><th>default</th><th>range</th><th>meaning</th></tr>
 *   <tr><td>{@code sessionTimeout}</td><td>30s</td><td>100ms..1h</td><td>ZooKeeper session timeout (the
 *       server bounds it to 2..20 ticks); a crashed holder's lock is free after it</td></tr>
 *   <tr><td>{@code connectTimeout}</td><td>15s</td><td>10ms..10m</td><td>how long {@code open} waits for the
 *       first connection, and Curator's connection wait per operation</td></tr>
 *   <tr><td>{@code retryBaseSleep}</td><td>100ms</td><td>1ms..1m</td><td>first sleep of the exponential
 *       back-off between retries of an operation</td></tr>
 *   <tr><td>{@code retryMaxRetries}</td><td>3</td><td>0..29</td><td>retries of an operation after a connection
 *       loss</td></tr>
 *   <tr><td>{@code uncertainAfter}</td><td>sessionTimeout/2</td><td>more than 0, less than sessionTimeout</td>
 *       <td>how old the last confirmed contact with the server may be before a lease reads UNCERTAIN (a heartbeat
 *       confirms every uncertainAfter/2 while leases are held); past 90 % of the negotiated session timeout it
 *       reads LOST</td></tr>
 *   <tr><td>{@code acl}</td><td>{@code creator} with a user, {@code open} without</td><td>{@code creator},
 *       {@code open}</td><td>the ACL of every node the recipes create, parents included (an {@code ACLProvider}):
 *       {@code CREATOR_ALL_ACL} or {@code OPEN_ACL_UNSAFE}</td></tr>
 *   <tr><td>{@code tls}, {@code trustStore}, {@code trustStorePassword}, {@code keyStore},
 *       {@code keyStorePassword}</td><td>false, JVM trust store, none</td><td></td><td>TLS to the servers, on this
 *       client's own {@code ZKClientConfig} (see {@link org.lockspi.zookeeper.recipe.ZkTls})</td></tr>
 * </table>
 * A user and password in the URI are sent as ZooKeeper {@code digest} authentication; with them, the nodes get
 * {@code CREATOR_ALL_ACL} unless {@code acl=open}: no other identity can delete a holder's node or acquire past it
 * (its acquisition fails at once with {@code NOAUTH}). Plain Curator applications with the same credentials keep
 * sharing the locks.
 *
 * <h2>Connection loss</h2>
 * Curator's {@code SUSPENDED} makes leases UNCERTAIN; {@code LOST} (the session expired, or Curator's default
 * handling injected the expiry once the session timeout passed while suspended) makes them LOST; on
 * {@code RECONNECTED} leases whose node belongs to an earlier session are LOST and the rest HELD again. Before
 * any of these events, the local deadlines of the last confirmed contact make a lease UNCERTAIN, then LOST.
 * {@code release()} and {@code close()} wait at most {@code min(connectTimeout, sessionTimeout/2)} for the
 * server; the node is then deleted by a guaranteed delete when the connection returns, or with the session.
 *
 * <h2>Revocation</h2>
 * {@code LockService.revoke} ({@link LockFeature#REVOCATION}) in the node data every ZooKeeper provider shares, so
 * that a zookeeper-raw or zkclient client revokes a Curator holder and back (the format is {@code ZkLayout}'s):
 * <ul>
 *   <li>An acquisition of a service opened with {@code revocable=true} creates its node with the revocable mark as
 *       its data, through the recipes' own node data ({@code InterProcessMutex}'s lock node bytes, the read-write
 *       lock's lock data, the semaphore's node data); other nodes keep the data they had (a mutex's: Curator's
 *       default, the client's address).</li>
 *   <li>The revoker finds the holder's node by its fencing token as inspection does, and writes the request
 *       (carrying the requester) over the mark with a {@code setData} at the version it read; it never deletes the
 *       node. A node without the mark is refused with {@code IllegalStateException}, nothing written.</li>
 *   <li>The holder keeps a data watch on each revocable lease's node, set again after every change. When it reads
 *       a request, the lease turns LOST and its listeners are told, and only then is the node deleted as a release
 *       deletes it. The bound, with the holder connected: one watch notification and one read after the request,
 *       milliseconds on a healthy ensemble, well within the kit's default of half the lease span. A holder cut off
 *       from the server learns of the request when its connection returns (the watch outlives the reconnection),
 *       or keeps the lock until its session ends.</li>
 * </ul>
 * The nodes of a revocable semaphore all carry the same mark, so a lease node Curator leaves behind after an
 * interrupt is found by its session instead, while no other acquisition of this service is under way on that
 * semaphore (its acquisitions arriving during that search wait for its few requests). A service on an application's
 * client ({@link #open(CuratorFramework)}) takes no parameters and is not revocable.
 *
 * <h2>An application's own client</h2>
 * {@link #open(CuratorFramework)} builds a service on a started {@code CuratorFramework} and its namespace; closing
 * that service frees its locks but leaves the client open. Three guards apply only to the clients this provider builds
 * from a URI, because they are set when a client is built: an interrupt that lands while a lock node's create is
 * in flight is settled (the parent is listed after the create) so the node is known and deleted (on an application's client such a node stays
 * until its session ends), Curator's retries stop at an acquisition's deadline (an application's client retries
 * by its own policy, which may keep a timed acquisition past its deadline during an outage), and Curator's
 * read-write lock and semaphore see only their own lock nodes among their node's children (on an application's
 * client they count the nodes of a name below theirs, {@code <name>/0}, as plain Curator does, and wait for it).
 */
public final class CuratorLockProvider implements LockProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "curator";
    /** The provider's version: the project's, as every ZooKeeper provider has it. */
    public static final String VERSION = ZkRecipeProvider.VERSION;

    private static final Set<LockFeature> FEATURES = Set.copyOf(EnumSet.of(
            LockFeature.REENTRANT_MUTEX, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE,
            LockFeature.SEMAPHORE, LockFeature.FAIR, LockFeature.FENCING_TOKENS, LockFeature.LEASE_RENEWAL,
            LockFeature.LOST_NOTIFICATION, LockFeature.CRASH_RELEASE,
            LockFeature.SURVIVES_RESTART, LockFeature.INSPECTION, LockFeature.REVOCATION));

    /** For {@link java.util.ServiceLoader}. */
    public CuratorLockProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public Set<String> schemes() {
        return Set.of("zookeeper");
    }

    /**
     * Everything but {@link LockFeature#HERD_FREE}: Curator's read lock waits for the <em>first</em> writer ahead of
     * it, not the nearest, so one writer's release also wakes readers queued behind a later writer.
     */
    @Override
    public Set<LockFeature> features() {
        return FEATURES;
    }

    @Override
    public Set<String> parameters() {
        return Settings.PARAMETERS;
    }

    /** @return 20 */
    @Override
    public int priority() {
        return 20;
    }

    @Override
    public LockBackend open(LockUri uri, BackendEvents events) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(events, "events");
        return CuratorBackend.connect(uri, events);
    }

    /**
     * A lock service on an application's started client, with lock names directly under the client's namespace.
     *
     * @param client a started client
     * @return the service; closing it frees its locks and leaves the client open
     * @throws NullPointerException                if {@code client} is null
     * @throws IllegalArgumentException            if the client is not started
     * @throws org.lockspi.LockConnectionException if the client does not connect within its connection timeout
     */
    public static LockService open(CuratorFramework client) {
        return open(client, "/");
    }

    /**
     * A lock service on an application's started client, with lock names under {@code basePath} within the
     * client's namespace.
     *
     * @param client   a started client
     * @param basePath an absolute ZooKeeper path such as {@code "/locks"}, or {@code "/"}
     * @return the service; closing it frees its locks and leaves the client open
     * @throws NullPointerException                if an argument is null
     * @throws IllegalArgumentException            if the client is not started or the path is not a valid path
     * @throws org.lockspi.LockConnectionException if the client does not connect within its connection timeout
     */
    public static LockService open(CuratorFramework client, String basePath) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(basePath, "basePath");
        PathUtils.validatePath(basePath);
        return LockServices.create(new CuratorLockProvider(), CuratorBackend.describe(client, basePath),
                events -> CuratorBackend.onClient(client, basePath, events));
    }

    @Override
    public String toString() {
        return NAME + " " + VERSION + " (Apache Curator)";
    }
}
