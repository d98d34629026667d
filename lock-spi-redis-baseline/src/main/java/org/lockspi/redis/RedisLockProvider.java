package org.lockspi.redis;

import org.lockspi.redis.internal.JedisConnector;
import org.lockspi.redis.recipe.RedisRecipeProvider;

/**
 * The Redis baseline provider, {@code redis-baseline}: locks on Redis with {@code SET key token NX PX lease} and
 * a fencing counter in one Lua script, an owner-checked release in Lua, lease renewal by a watchdog and waiters
 * woken by the releases (pub/sub), on Jedis (6.0 to 8.0), with the Redis lock recipe ({@code lock-redis-recipe}) that
 * the Lettuce providers share, so a Jedis and a Lettuce client exclude each other on one lock. It serves one instance ({@code redis}, {@code rediss}), Redis
 * Sentinel ({@code redis-sentinel}, {@code rediss-sentinel}) and Redis Cluster ({@code redis-cluster},
 * {@code rediss-cluster}); the double {@code s} means TLS to every server. {@link RedisFairLockProvider}
 * ({@code redis-fair}) serves them too, first come first served.
 *
 * <h2>URI</h2>
 * <ul>
 *   <li>{@code redis://[user:password@]host[:port][/db][?leaseTime=30s&connectTimeout=5s&...]}; port 6379 and
 *       database 0 by default;</li>
 *   <li>{@code redis-sentinel://[user:password@]s1[:port],s2[:port],.../<master name>[/db]}: the sentinels (port
 *       26379 by default) and the name they monitor the master under; the user and password are the data
 *       nodes', {@code sentinelUser} and {@code sentinelPassword} the sentinels';</li>
 *   <li>{@code redis-cluster://[user:password@]n1[:port],n2[:port],...}: seed nodes of the cluster, database 0
 *       only.</li>
 * </ul>
 * Parameters:
 * <table>
 *   <caption>parameters</caption>
 *   <tr><th>name</th><th>default</th><th>range</th><th>meaning</th></tr>
 *   <tr><td>leaseTime</td><td>30s</td><td>500ms..24h</td><td>expiry of a lock key; a holder that stops
 *       renewing (crash, pause, partition) loses the lock after this long. Renewed every third of it.</td></tr>
 *   <tr><td>connectTimeout</td><td>5s</td><td>100ms..10m</td><td>TCP connect, and the wait for a pooled
 *       connection</td></tr>
 *   <tr><td>socketTimeout</td><td>2s, or leaseTime/3 if shorter</td><td>100ms..10m, at most leaseTime/3
 *       </td><td>how long one command may take. A renewal is sent every leaseTime/3 and must fail within that
 *       third, leaving a third for a retry before the key can expire: a value set above leaseTime/3 is refused
 *       with an {@code IllegalArgumentException}; unset, it shrinks to leaseTime/3.</td></tr>
 *   <tr><td>confirmThreshold</td><td>leaseTime/2</td><td>above leaseTime/3..leaseTime</td><td>how long a
 *       confirmed renewal counts: {@code confirmedUntilNanos()} is its send time plus this, after which the lease
 *       is {@code UNCERTAIN} unless confirmed again. {@code validUntilNanos()} is the send time plus leaseTime
 *       less a drift margin of leaseTime/100 + 2 ms.</td></tr>
 *   <tr><td>keyPrefix</td><td>{@code lockspi:}</td><td>printable ASCII without spaces and braces, 128 at
 *       most</td><td>prefix of every key</td></tr>
 *   <tr><td>retryInitial</td><td>10ms</td><td>1ms..10s</td><td>first pause between attempts of a waiting
 *       acquisition</td></tr>
 *   <tr><td>retryMax</td><td>250ms</td><td>retryInitial..1m</td><td>longest pause; pauses double from
 *       retryInitial up to it, each with half of it random (jitter)</td></tr>
 *   <tr><td>poolSize</td><td>16</td><td>1..1024</td><td>connections in the pool (per node of a
 *       cluster)</td></tr>
 *   <tr><td>sentinelUser, sentinelPassword</td><td>none</td><td>Sentinel URIs only</td><td>the sentinels'
 *       credentials</td></tr>
 *   <tr><td>trustStore, trustStoreType, trustStorePassword</td><td>the JVM's trust; PKCS12</td><td>TLS URIs
 *       only</td><td>the certificates to trust</td></tr>
 *   <tr><td>keyStore, keyStoreType, keyStorePassword</td><td>none; PKCS12</td><td>TLS URIs only</td><td>the
 *       client's key and certificate (the password is also the key's)</td></tr>
 *   <tr><td>verifyHostname</td><td>true</td><td>TLS URIs only</td><td>whether the server certificate must name
 *       the host connected to</td></tr>
 * </table>
 * Credentials never appear in messages or {@code toString()}, nor does the value of a parameter whose name ends
 * in {@code password}.
 *
 * <h2>Keys</h2>
 * A lock named {@code N} uses {@code <keyPrefix>{N}} (the exclusive holder's owner token, expiring with the
 * lease), {@code <keyPrefix>{N}:read} and {@code <keyPrefix>{N}:sem} (sorted sets of owner tokens scored by
 * expiry, for readers and semaphore permits), {@code <keyPrefix>{N}:wwait} (waiting writers, which new readers
 * let pass), {@code <keyPrefix>{N}:wait:<owner token>} (one short-lived key per waiting acquisition) and
 * {@code <keyPrefix>{N}:fence} (the fencing counter, which expires leaseTime + 2 retryMax after the last grant:
 * tokens keep growing past that by their server-clock floor) and, while a revocation is pending,
 * {@code <keyPrefix>{N}:revoke} (a hash: the revoked holder's owner token and who asked). Scripts are sent by SHA-1
 * ({@code EVALSHA}), loaded once per server run. The braces are a Redis Cluster hash tag:
 * all keys of one lock share a slot.
 *
 * <h2>Guarantees, and what they depend on</h2>
 * <ul>
 *   <li><b>Exclusion</b> holds while the server holding the lock's key keeps its data: acquisition is one atomic
 *       Lua script, release and renewal compare the owner token first. It does <em>not</em> hold across a
 *       Sentinel or Cluster failover to a replica that had not received the acquisition (replication is
 *       asynchronous: a lock key not yet replicated is lost with the primary; the lease then turns LOST at its
 *       first renewal on the new master), nor across
 *       a restart without persistence, nor for a holder paused longer than the lease time (its key expires and
 *       another client takes the lock while it still believes it holds it). For such cases pass the
 *       {@linkplain org.lockspi.Lease#fencingToken() fencing token} to the guarded resource, or use a ZooKeeper
 *       provider.</li>
 *   <li><b>Fencing tokens</b> are {@code max(counter + 1, server clock in microseconds)}, issued by the script
 *       that acquires. They strictly increase for one lock while the counter key survives (with
 *       {@code appendonly yes} and {@code appendfsync always}; {@code everysec} can lose the last second), and
 *       also after the counter was lost (a restart without persistence, a failover to a lagging replica) as long
 *       as the serving server's clock is ahead of the clock that issued the last token: a clock stepped back, or
 *       a replica whose clock is behind the old primary's, can break it.</li>
 *   <li><b>Crash release</b>: a dead holder's key expires after at most the lease time.</li>
 *   <li><b>Lease loss</b> is reported, never silent: a renewal that finds the key gone or owned by another
 *       client (a restart without persistence, noticed at once through an idle watch connection) marks the lease
 *       lost at once; any failed call makes the leases uncertain at once, and they are lost at their
 *       {@code validUntilNanos()}. Release and close wait for the server at most connectTimeout +
 *       socketTimeout per try; what they cannot delete expires by its TTL.</li>
 *   <li><b>Waiting</b>: a release publishes on the lock's channel {@code <keyPrefix>{N}:wake}, and the waiters,
 *       subscribed through one connection per service, try again at once; they also poll with a bounded, jittered
 *       exponential back-off, so a lost message costs at most {@code retryMax}. No fairness (FIFO: see
 *       {@link RedisFairLockProvider}) and no herd-free wake-up (a release wakes every waiter of the lock).</li>
 *   <li><b>Revocation</b> ({@link org.lockspi.LockFeature#REVOCATION}, of a holder whose service was opened with
 *       {@code revocable=true}, whose entry then carries a mark): {@code LockService.revoke} runs one script that
 *       finds the live holder by its fencing token, refuses one without the mark, writes the request into
 *       {@code <keyPrefix>{N}:revoke} and names the holder's owner token on the channel {@code <keyPrefix>revoke},
 *       which every service of the prefix listens on through its watch connection. The holder's service then
 *       renews that lease at once; the renewal finds the request, the lease turns LOST and its listeners are told,
 *       and only then does the holder release it as {@code release()} would (waking the waiters). The bound, with
 *       the holder connected: the message and two round trips (the renewal that finds the request, the release;
 *       {@code RevocationInteropTest} prints the figures); if the message is lost, the next renewal, within
 *       leaseTime/3; the TCK holds it to its default, leaseTime/2. A holder that hears nothing (cut off,
 *       paused) keeps the lock until its key expires, as any holder that stopped renewing; a revocation never
 *       deletes the holder's key.</li>
 * </ul>
 */
public final class RedisLockProvider extends RedisRecipeProvider {
    /** The provider's name: {@value}. */
    public static final String NAME = "redis-baseline";

    /**
     * For {@link java.util.ServiceLoader}; cheap, connects nothing. A service's Jedis client is a pool for one
     * instance, a Sentinel-managed pool, or a cluster client.
     */
    public RedisLockProvider() {
        super(NAME, 0, false, JedisConnector::open);
    }
}
