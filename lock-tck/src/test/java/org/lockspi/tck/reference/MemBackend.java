package org.lockspi.tck.reference;

import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;

/** One client's connection to a {@link MemServer}. */
final class MemBackend implements LockBackend {
    private final MemServer server;
    private final BackendEvents events;
    private final Defect defect;
    private final boolean waitsInIo;
    private volatile boolean closed;

    MemBackend(MemServer server, BackendEvents events, Defect defect, boolean waitsInIo) {
        this.server = server;
        this.events = events;
        this.defect = defect;
        this.waitsInIo = waitsInIo;
        server.connect(this);
        if (defect == Defect.LEAK_THREAD) {
            Thread keepAlive = new Thread(() -> {
                // Outlives close() on purpose; ends with the server so that the test JVM stays tidy.
                while (!server.isStopped()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
                }
            }, "mem-keepalive-" + server.namespace);
            keepAlive.setDaemon(true);
            keepAlive.start();
        }
    }

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        return server.acquire(this, request, deadline, defect);
    }

    boolean isClosed() {
        return closed;
    }

    BackendEvents events() {
        return events;
    }

    Defect defect() {
        return defect;
    }

    /** @return whether this client's waiters block in I/O (RUNNABLE) instead of parking */
    boolean waitsInIo() {
        return waitsInIo;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.disconnect(this);
    }

    @Override
    public String toString() {
        return "MemBackend[" + server.namespace + (closed ? ", closed" : "") + "]";
    }
}
