package org.lockspi.curator.internal;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;

/**
 * Curator's {@link InterProcessReadWriteLock}, with its halves' lock paths readable by the backend. One instance
 * serves one write acquisition and any read acquired under it by the same thread (Curator grants that read at once
 * only because this instance's write half is owned by the calling thread), or one plain read acquisition.
 */
final class ReadWriteHalves extends InterProcessReadWriteLock {

    static final class Write extends WriteLock {
        Write(CuratorFramework client, String path, byte[] data) {
            super(client, path, data);
        }

        /** @return the node held by the calling thread, or null */
        String node() {
            return getLockPath();
        }
    }

    static final class Read extends ReadLock {
        Read(CuratorFramework client, String path, byte[] data, WriteLock write) {
            super(client, path, data, write);
        }

        /** @return the node held by the calling thread, or null */
        String node() {
            return getLockPath();
        }
    }

    private ReadWriteHalves(Write write, CuratorFramework client, String path, byte[] data) {
        super(write, new Read(client, path, data, write));
    }

    /**
     * @param data the data of both halves' nodes (Curator's lock data), or null for the client's default
     */
    static ReadWriteHalves create(CuratorFramework client, String path, byte[] data) {
        return new ReadWriteHalves(new Write(client, path, data), client, path, data);
    }

    Write write() {
        return (Write) writeLock();
    }

    Read read() {
        return (Read) readLock();
    }
}
