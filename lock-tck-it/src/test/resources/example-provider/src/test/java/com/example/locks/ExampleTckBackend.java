package com.example.locks;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.lockspi.tck.TckBackend;

/**
 * The kit's view of an {@link ExampleServer}: what the server holds for a lock, taking a lock from its holder as a
 * session expiry would, and a restart (every client's connection down, then back with its session).
 */
public final class ExampleTckBackend implements TckBackend {
    private final ExampleServer server = ExampleServer.start();

    @Override
    public String description() {
        return "example lock server in this JVM at 127.0.0.1:" + server.port();
    }

    @Override
    public String scheme() {
        return "example";
    }

    @Override
    public String uri() {
        return "example://127.0.0.1:" + server.port();
    }

    @Override
    public String unreachableUri() {
        return "example://127.0.0.1:" + ExampleServer.freePort();
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART,
                Capability.EMPTY_STATE_REMOVAL, Capability.COUNTERS_ABOVE_32_BITS);
    }

    @Override
    public List<String> residue(String lockName) {
        return server.residue(lockName);
    }

    @Override
    public void forceLoss(String lockName) {
        server.forceLoss(lockName);
    }

    @Override
    public void restart() {
        stopServer();
        startServer();
    }

    @Override
    public void stopServer() {
        server.suspendClients();
    }

    @Override
    public void startServer() {
        server.restoreClients();
    }

    /** Nothing to remove: the server keeps nothing of a lock nobody holds or waits for (one counter for all). */
    @Override
    public void removeEmptyState(String lockName) {
    }

    @Override
    public void close() {
        server.stop();
    }
}
