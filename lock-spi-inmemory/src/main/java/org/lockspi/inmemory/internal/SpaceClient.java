package org.lockspi.inmemory.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.LockInfo;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;

/**
 * One service's connection to a {@link Space}: a client of the space, whose locks exclude those of every other
 * client. Lock names live under the URI's path, if it has one. Closing it frees its entries and, if it was the
 * last user, ends the space.
 */
public final class SpaceClient implements LockBackend {
    private final Space space;
    private final String prefix;
    private final BackendEvents events;
    private final Conduct conduct;
    private final AtomicBoolean closed = new AtomicBoolean();

    SpaceClient(Space space, String prefix, BackendEvents events, Conduct conduct) {
        this.space = space;
        this.prefix = prefix;
        this.events = events;
        this.conduct = conduct;
    }

    @Override
    public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
        return space.acquire(this, key(request.name()), request, deadline);
    }

    @Override
    public LockInfo inspect(String name) {
        checkOpen();
        return space.inspect(this, key(name), name);
    }

    @Override
    public boolean revoke(String name, long fencingToken, String requestedBy) {
        checkOpen();
        return space.revoke(this, key(name), fencingToken, requestedBy);
    }

    /** @return the names under this client's path with entries now that start with {@code prefix} */
    @Override
    public List<String> list(String prefix) {
        checkOpen();
        String under = prefix.isEmpty() ? this.prefix : key(prefix);
        String start = this.prefix.isEmpty() ? "" : this.prefix + "/";
        List<String> names = new ArrayList<>();
        for (String key : space.keys()) {
            if (key.startsWith(start) && key.startsWith(under)) {
                names.add(key.substring(start.length()));
            }
        }
        return names;
    }

    private void checkOpen() {
        if (isClosed()) {
            throw new IllegalStateException("in-memory client is closed: " + this);
        }
    }

    /** @return the space this client is connected to */
    public Space space() {
        return space;
    }

    /** @return where this client reports connection and lease events */
    public BackendEvents events() {
        return events;
    }

    Conduct conduct() {
        return conduct;
    }

    /** @return the key of a lock name in the space: the name under the URI's path */
    String key(String name) {
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed.get();
    }

    /** Frees every entry of this client, held or waiting (its waiting acquisitions fail); idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            space.disconnect(this);
            Spaces.detach(space);
        }
    }

    @Override
    public String toString() {
        return "SpaceClient[mem://" + space.name() + (prefix.isEmpty() ? "" : "/" + prefix)
                + (isClosed() ? ", closed" : "") + "]";
    }
}
