package org.lockspi.redis.recipe;

/**
 * The key layout. A lock name maps to a hash-tagged base key {@code <prefix>{<name>}}, so that every key of one
 * lock falls in one Redis Cluster slot and a Lua script may touch them together:
 * <ul>
 *   <li>{@code <prefix>{<name>}}: a string holding the exclusive holder's entry ({@link RedisEntry}: owner token,
 *       fencing token, grant time, kind), with the lease as its expiry (mutex, non-reentrant mutex, write half of
 *       a read-write lock);</li>
 *   <li>{@code <prefix>{<name>}:read}: a sorted set of reader entries scored by their expiry (server time,
 *       ms), with a key expiry at least as late as the latest member;</li>
 *   <li>{@code <prefix>{<name>}:sem}: the same for the permits of a semaphore;</li>
 *   <li>{@code <prefix>{<name>}:wwait}: a sorted set of the owner tokens of waiting writers, scored by expiry,
 *       refreshed by every attempt of the waiting writer; new readers wait while it is not empty;</li>
 *   <li>{@code <prefix>{<name>}:wait:<owner token>}: one key per waiting acquisition, refreshed by each of its
 *       attempts and expiring soon after the last (a waiter that dies leaves nothing for long); it makes waiters
 *       visible to operators and to the conformance kit;</li>
 *   <li>{@code <prefix>{<name>}:fence}: the fencing counter, expiring twice the lease time after the last grant
 *       (the server-clock floor keeps tokens growing when it is created again);</li>
 *   <li>{@code <prefix>{<name>}:queue} (first-come first-served only): a sorted set of the owner tokens of
 *       waiting acquisitions scored by their arrival (server time, us), expiring with the last waiter's mark; their
 *       waiter keys hold their kinds' letters; an entry whose waiter key is gone (a dead waiter) is dropped;</li>
 *   <li>{@code <prefix>{<name>}:revoke}: a hash of the revocation requests (spec §27) for the lock's revocable
 *       holders, field: the holder's owner token, value: the requester; the holder deletes its field when it lets
 *       go, and the key expires soon after the last holder asked could have lived;</li>
 * </ul>
 * and the pub/sub channel {@code <prefix>{<name>}:wake} (not a key), on which every release publishes; it carries
 * the same hash tag, so a sharded deployment can route it with the keys. One more channel serves every lock of the
 * prefix: {@code <prefix>revoke} ({@link #revokeChannel}), on which a revocation names the owner token it asks.
 * Backend keys cannot contain {@code ':'}, '{' or '}' (readable names and base64url), so no two locks share a key.
 */
final class RedisKeys {
    final String lock;
    final String readers;
    final String permits;
    final String fence;
    final String waitingWriters;
    final String queue;
    final String revocations;
    final String channel;

    /** @return the key that marks the acquisition with this owner token as waiting */
    String waiter(String ownerToken) {
        return lock + ":wait:" + ownerToken;
    }

    RedisKeys(String prefix, String name) {
        this.lock = prefix + "{" + name + "}";
        this.readers = lock + ":read";
        this.permits = lock + ":sem";
        this.fence = lock + ":fence";
        this.waitingWriters = lock + ":wwait";
        this.queue = lock + ":queue";
        this.revocations = lock + ":revoke";
        this.channel = channel(prefix, name);
    }

    /** @return the channel on which the releases of lock {@code name} publish */
    static String channel(String prefix, String name) {
        return prefix + "{" + name + "}:wake";
    }

    /**
     * @return the channel on which revocations name the owner token of the holder they ask to let go; every backend
     *         of the prefix listens on it (no lock's channel: those hold a brace)
     */
    static String revokeChannel(String prefix) {
        return prefix + "revoke";
    }
}
