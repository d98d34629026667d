package org.lockspi.curator.internal;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;

/**
 * Curator's standard mutex driver, unchanged, except that it remembers the node it created: the mutex exposes
 * its node only to the owning thread after success, and the backend also needs it after a failed acquisition
 * (to make sure the node is gone) and from other threads (to free it when the service closes).
 */
final class RecordingDriver extends StandardLockInternalsDriver {
    private volatile String created;

    @Override
    public String createsTheLock(CuratorFramework client, String path, byte[] lockNodeBytes) throws Exception {
        String node = super.createsTheLock(client, path, lockNodeBytes);
        created = node;
        return node;
    }

    /** @return the last node this driver created, or null */
    String created() {
        return created;
    }
}
