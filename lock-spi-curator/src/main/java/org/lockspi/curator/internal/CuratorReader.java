package org.lockspi.curator.internal;

import java.util.List;
import java.util.function.BiFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.zookeeper.recipe.internal.ZkInspection;

/** The reads of the shared inspection ({@link ZkInspection}) through a Curator client: its namespace, its retries. */
final class CuratorReader implements ZkInspection.Reader {
    private final CuratorFramework client;
    private final BiFunction<String, Exception, LockConnectionException> failure;

    CuratorReader(CuratorFramework client, BiFunction<String, Exception, LockConnectionException> failure) {
        this.client = client;
        this.failure = failure;
    }

    @Override
    public List<String> children(String path) throws KeeperException, InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (KeeperException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw failure.apply("could not list the children of " + path, e);
        }
    }

    @Override
    public Stat stat(String path) throws KeeperException, InterruptedException {
        try {
            return client.checkExists().forPath(path);
        } catch (KeeperException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw failure.apply("could not read " + path, e);
        }
    }
}
