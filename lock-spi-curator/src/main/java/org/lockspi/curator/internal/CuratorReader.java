package org.lockspi.curator.internal;

import java.util.List;
import java.util.function.BiFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.zookeeper.recipe.ZkOps;
import org.lockspi.zookeeper.recipe.internal.ZkInspection;
import org.lockspi.zookeeper.recipe.internal.ZkRevocation;

/**
 * The reads of the shared inspection ({@link ZkInspection}) and the reads and conditional write of the shared
 * revocation ({@link ZkRevocation}) through a Curator client: its namespace, its retries.
 */
final class CuratorReader implements ZkRevocation.Client {
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

    @Override
    public ZkOps.NodeData data(String path) throws KeeperException, InterruptedException {
        Stat stat = new Stat();
        try {
            byte[] bytes = client.getData().storingStatIn(stat).forPath(path);
            return new ZkOps.NodeData(bytes == null ? new byte[0] : bytes, stat.getVersion());
        } catch (KeeperException.NoNodeException e) {
            return null;
        } catch (KeeperException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw failure.apply("could not read " + path, e);
        }
    }

    @Override
    public void setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
        try {
            client.setData().withVersion(version).forPath(path, data);
        } catch (KeeperException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw failure.apply("could not write " + path, e);
        }
    }
}
