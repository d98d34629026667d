package com.example.locks;

import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;

/** One client of an {@link ExampleServer}: one lock service, one session. */
final class ExampleBackend implements LockBackend {
    private final ExampleServer server;
    private final BackendEvents events;
    private volatile boolean closed;

    ExampleBackend(ExampleServer server, BackendEvents events) {
        this.server = server;
        this.events = events;
        server.connected(this);
    }

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        if (closed) {
            throw new IllegalStateException("the lock service is closed");
        }
        return server.acquire(this, request.name(), deadline);
    }

    ExampleServer server() {
        return server;
    }

    BackendEvents events() {
        return events;
    }

    boolean isClosed() {
        return closed;
    }

    void suspended() {
        events.connectionSuspended();
    }

    void restored() {
        events.connectionRestored();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            server.disconnected(this);
        }
    }
}
