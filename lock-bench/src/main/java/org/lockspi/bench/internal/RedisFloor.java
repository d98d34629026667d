package org.lockspi.bench.internal;

import java.util.List;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

/**
 * The floor of a Redis lock cycle on one Jedis connection: {@code SET key token NX PX 30000}, then the Lua
 * compare-and-delete by its SHA. Uncontended only (one connection, one thread). The fenced floor acquires with one
 * script by its SHA that also increments a fencing counter ({@code SET NX PX}, then {@code INCR}): the least a lock
 * with fencing tokens does in two round trips.
 */
final class RedisFloor implements Variant {
    static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
            + "return redis.call('del', KEYS[1]) else return 0 end";
    static final String FENCED_ACQUIRE = "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then "
            + "return redis.call('incr', KEYS[2]) else return 0 end";
    static final String NAME = "Redis floor";
    static final String FENCED_NAME = "Redis fenced floor";
    private final int port;
    private final boolean fenced;

    RedisFloor(int port, boolean fenced) {
        this.port = port;
        this.fenced = fenced;
    }

    @Override
    public String name() {
        return fenced ? FENCED_NAME : NAME;
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public Role role() {
        return Role.FLOOR;
    }

    @Override
    public Client open(String scope) {
        Jedis jedis = new Jedis("127.0.0.1", port);
        String sha = jedis.scriptLoad(RELEASE);
        String acquireSha = fenced ? jedis.scriptLoad(FENCED_ACQUIRE) : null;
        SetParams nxpx = SetParams.setParams().nx().px(30_000);
        return new Client() {
            private long counter;

            @Override
            public Locker locker(String lockName) {
                String key = scope + "." + lockName;
                List<String> keys = List.of(key, key + ".fence");
                return () -> {
                    String token = Long.toString(++counter);
                    boolean taken = fenced ? ((Long) jedis.evalsha(acquireSha, keys, List.of(token))) > 0
                            : "OK".equals(jedis.set(key, token, nxpx));
                    if (!taken) {
                        throw new IllegalStateException("the floor is uncontended, yet " + key + " is taken");
                    }
                    return () -> {
                        Object deleted = jedis.evalsha(sha, List.of(key), List.of(token));
                        if (!Long.valueOf(1).equals(deleted)) {
                            throw new IllegalStateException("compare-and-delete of " + key + " returned " + deleted);
                        }
                    };
                };
            }

            @Override
            public String zkLockPath(String lockName) {
                return null;
            }

            @Override
            public void close() {
                jedis.close();
            }
        };
    }
}
