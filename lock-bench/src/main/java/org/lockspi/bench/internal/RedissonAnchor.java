package org.lockspi.bench.internal;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** The Redis anchor: Redisson's {@code RLock} used directly, one new lock object per locker. */
final class RedissonAnchor implements Variant {
    private final int port;

    RedissonAnchor(int port) {
        this.port = port;
    }

    @Override
    public String name() {
        return "Redisson RLock";
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public Role role() {
        return Role.ANCHOR;
    }

    @Override
    public Client open(String scope) {
        Config config = new Config();
        config.setThreads(2);
        config.setNettyThreads(4);
        config.useSingleServer()
                .setAddress("redis://127.0.0.1:" + port)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(32)
                .setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(4);
        RedissonClient redisson = Redisson.create(config);
        return new Client() {
            @Override
            public Locker locker(String lockName) {
                RLock lock = redisson.getLock(scope + "." + lockName);
                return () -> {
                    lock.lockInterruptibly();
                    return lock::unlock;
                };
            }

            @Override
            public String zkLockPath(String lockName) {
                return null;
            }

            @Override
            public void close() {
                redisson.shutdown();
            }
        };
    }
}
