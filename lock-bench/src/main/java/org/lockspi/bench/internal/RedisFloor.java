package org.lockspi.bench.internal;

import java.util.List;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

/**
 * The floor of a Redis lock cycle on one Jedis connection: {@code SET key token NX PX 30000}, then the Lua
 * compare-and-delete by its SHA. Uncontended only (one connection, one thread).
 */
final class RedisFloor implements Variant {
    static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
            + "return redis.call('del', KEYS[1]) else return 0 end";
    private final int port;

    RedisFloor(int port) {
        this.port = port;
    }

    @Override
    public String name() {
        return "Redis floor";
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
        SetParams nxpx = SetParams.setParams().nx().px(30_000);
        return new Client() {
            private long counter;

            @Override
            public Locker locker(String lockName) {
                String key = scope + "." + lockName;
                return () -> {
                    String token = Long.toString(++counter);
                    if (!"OK".equals(jedis.set(key, token, nxpx))) {
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
