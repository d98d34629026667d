package org.lockspi.bench.internal;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The ZooKeeper anchor: Curator's {@code InterProcessMutex} used directly, one new instance per locker. */
final class CuratorAnchor implements Variant {
    private final String connectString;

    CuratorAnchor(String connectString) {
        this.connectString = connectString;
    }

    @Override
    public String name() {
        return "Curator InterProcessMutex";
    }

    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    @Override
    public Role role() {
        return Role.ANCHOR;
    }

    @Override
    public Client open(String scope) throws Exception {
        CuratorFramework curator = CuratorFrameworkFactory.newClient(connectString, 30_000, 15_000,
                new ExponentialBackoffRetry(100, 3));
        curator.start();
        if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
            curator.close();
            throw new IOException("Curator did not connect to " + connectString + " within 30 s");
        }
        return new Client() {
            @Override
            public Locker locker(String lockName) {
                InterProcessMutex mutex = new InterProcessMutex(curator, zkLockPath(lockName));
                return () -> {
                    mutex.acquire();
                    return mutex::release;
                };
            }

            @Override
            public String zkLockPath(String lockName) {
                return "/bench/" + scope + "/" + lockName;
            }

            @Override
            public void close() {
                curator.close();
            }
        };
    }
}
