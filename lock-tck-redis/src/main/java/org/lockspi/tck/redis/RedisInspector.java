package org.lockspi.tck.redis;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.lockspi.tck.TckBackend;

/**
 * Looks behind the {@code redis-baseline} provider's back, on connections of its own (one per call, so a server
 * restart leaves nothing stale). Knows the provider's key layout with the default {@code keyPrefix}
 * {@value #KEY_PREFIX}: a lock whose backend key ({@code LockKeys.key(name)}) is {@code N} owns {@code lockspi:{N}} (the
 * exclusive holder's entry, which begins with its owner token),
 * {@code lockspi:{N}:read} (readers), {@code lockspi:{N}:sem} (semaphore permits), {@code lockspi:{N}:wwait}
 * (waiting writers), {@code lockspi:{N}:wait:<owner token>} (one per waiting acquisition) and
 * {@code lockspi:{N}:fence} (the fencing counter); {@code redis-fair} adds {@code lockspi:{N}:queue}, the order
 * of the waiters (an index over their {@code :wait:} keys, expiring with them). Keys have no {@code '}'}, so
 * {@code lockspi:{N}*} matches no other lock's keys.
 */
public final class RedisInspector {
    /** The provider's default key prefix, which this layout assumes: {@value}. */
    public static final String KEY_PREFIX = "lockspi:";

    /** Where a key lives: one server, the current master of a Sentinel deployment, the node of a key's slot. */
    private final Function<String, InetSocketAddress> nodeOf;

    /**
     * @param host the server's host
     * @param port the server's port
     */
    public RedisInspector(String host, int port) {
        InetSocketAddress address = InetSocketAddress.createUnresolved(Objects.requireNonNull(host, "host"), port);
        this.nodeOf = key -> address;
    }

    /**
     * @param nodeOf the server that holds a key (for a cluster, the master of its slot), asked at each call; the
     *               key is {@code ""} for calls about no key
     */
    public RedisInspector(Function<String, InetSocketAddress> nodeOf) {
        this.nodeOf = Objects.requireNonNull(nodeOf, "nodeOf");
    }

    /**
     * @param lockName a lock name
     * @return the base key of the lock, {@code lockspi:{name}}
     */
    public static String baseKey(String lockName) {
        return KEY_PREFIX + "{" + Objects.requireNonNull(lockName, "lockName") + "}";
    }

    Resp connect(String key) {
        return Resp.connect(nodeOf.apply(key));
    }

    /**
     * @param lockName a lock name
     * @return every key of the lock except its fencing counter and the waiter queue (whose waiters residue shows by
     *         their own {@code :wait:} keys, one per waiter), sorted
     */
    public List<String> residue(String lockName) {
        String base = baseKey(lockName);
        List<String> keys = new ArrayList<>();
        try (Resp redis = connect(base)) {
            List<?> found = (List<?>) redis.call("KEYS", base.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "*");
            for (Object each : found) {
                String key = Resp.utf8(each);
                if (!key.equals(base + ":fence") && !key.equals(base + ":queue")) {
                    keys.add(key);
                }
            }
        }
        Collections.sort(keys);
        return keys;
    }

    /**
     * Deletes the lock's holder keys (not its fencing counter, nor waiters): every holder's next renewal finds
     * them gone, as after a lease expiry.
     *
     * @param lockName a lock name
     */
    public void forceLoss(String lockName) {
        String base = baseKey(lockName);
        try (Resp redis = connect(base)) {
            redis.call("DEL", base, base + ":read", base + ":sem");
        }
    }

    /**
     * Deletes the lock's fencing counter if nobody holds or waits for the lock, as its expiry would: the next
     * holder's token must still be greater than every earlier one.
     *
     * @param lockName a lock name
     * @throws IllegalStateException if the lock has holders or waiters
     */
    public void removeEmptyState(String lockName) {
        List<String> residue = residue(lockName);
        if (!residue.isEmpty()) {
            throw new IllegalStateException("lock '" + lockName + "' is in use, its state is not empty: " + residue);
        }
        String base = baseKey(lockName);
        try (Resp redis = connect(base)) {
            redis.call("DEL", base + ":fence", base + ":queue");
        }
    }

    /**
     * Runs one command, on the server of its first argument's key.
     *
     * @param command the command and its arguments, e.g. {@code "GET", "lockspi:{orders}"}
     * @return the reply: simple and bulk strings as {@code byte[]}, integers as {@link Long}, arrays as lists,
     *         null replies as {@code null}
     * @throws IllegalStateException if the server answers with an error
     */
    public Object command(String... command) {
        try (Resp redis = connect(command.length > 1 ? command[1] : "")) {
            return redis.call(command);
        }
    }

    /**
     * The client connections the server has open ({@code CLIENT LIST}), this one left out.
     *
     * @return each connection's id and its client's address ({@code addr})
     */
    public List<TckBackend.Session> sessions() {
        List<TckBackend.Session> sessions = new ArrayList<>();
        try (Resp redis = connect("")) {
            String own = redis.text("CLIENT", "ID");
            for (String line : redis.text("CLIENT", "LIST").split("\r?\n")) {
                String id = field(line, "id");
                if (!id.isEmpty() && !id.equals(own)) {
                    sessions.add(new TckBackend.Session(id, field(line, "addr")));
                }
            }
        }
        return sessions;
    }

    /**
     * Closes a client connection server-side ({@code CLIENT KILL ID}); its keys stay. Nothing happens if it is gone.
     *
     * @param session one of {@link #sessions()}
     */
    public void kill(TckBackend.Session session) {
        try (Resp redis = connect("")) {
            redis.call("CLIENT", "KILL", "ID", session.id());
        }
    }

    /** @return the value of {@code name=} in a line of {@code CLIENT LIST}, or {@code ""} */
    private static String field(String line, String name) {
        for (String pair : line.split(" ")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return "";
    }

    /**
     * @param field a field of {@code INFO server}, e.g. {@code redis_version}
     * @return its value, or {@code "?"}
     */
    public String info(String field) {
        try (Resp redis = connect("")) {
            for (String line : redis.info("server").split("\r?\n")) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1).strip();
                }
            }
        } catch (RuntimeException e) {
            return "?";
        }
        return "?";
    }
}
