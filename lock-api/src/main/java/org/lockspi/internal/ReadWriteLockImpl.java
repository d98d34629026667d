package org.lockspi.internal;

import org.lockspi.DistributedReadWriteLock;
import org.lockspi.spi.LockKind;

/** The two halves of a read-write lock; they consult each other for downgrade and upgrade refusal. */
final class ReadWriteLockImpl implements DistributedReadWriteLock, LocallyQueued {
    private final String name;
    private final ThreadOwnedLock read;
    private final ThreadOwnedLock write;

    ReadWriteLockImpl(EngineService service, String name) {
        this.name = name;
        this.read = new ThreadOwnedLock(service, name, LockKind.READ, this);
        this.write = new ThreadOwnedLock(service, name, LockKind.WRITE, this);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ThreadOwnedLock readLock() {
        return read;
    }

    @Override
    public ThreadOwnedLock writeLock() {
        return write;
    }

    /** Fails the writers waiting in the local queue (the service is closing). */
    @Override
    public void closeLocalQueues() {
        write.closeLocalQueues();
    }

    /** @return this service's writers waiting in the local queue, not yet at the server */
    @Override
    public int queuedLocally() {
        return write.queuedLocally();
    }

    @Override
    public String toString() {
        return "read-write lock '" + name + "'";
    }
}
