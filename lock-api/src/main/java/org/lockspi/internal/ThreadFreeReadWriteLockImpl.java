package org.lockspi.internal;

import org.lockspi.ThreadFreeReadWriteLock;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.LockKeys;
import org.lockspi.spi.LockKind;

/** The two thread-free halves of a read-write lock: plain server acquisitions, READ and WRITE. */
final class ThreadFreeReadWriteLockImpl implements ThreadFreeReadWriteLock, LocallyQueued {
    private final String name;
    private final LeaseLock read;
    private final LeaseLock write;

    ThreadFreeReadWriteLockImpl(EngineService service, String name) {
        this.name = name;
        String key = LockKeys.key(name); // what the backend stores the lock under, as for every other kind
        this.read = new LeaseLock(service, name, AcquireRequest.read(key, null));
        this.write = new LeaseLock(service, name, AcquireRequest.exclusive(LockKind.WRITE, key));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public LeaseLock readLock() {
        return read;
    }

    @Override
    public LeaseLock writeLock() {
        return write;
    }

    @Override
    public void closeLocalQueues() {
        read.closeLocalQueues();
        write.closeLocalQueues();
    }

    /** @return this service's acquisitions of either half waiting in the local queues, not yet at the server */
    @Override
    public int queuedLocally() {
        return read.queuedLocally() + write.queuedLocally();
    }

    @Override
    public String toString() {
        return "thread-free read-write lock '" + name + "'";
    }
}
