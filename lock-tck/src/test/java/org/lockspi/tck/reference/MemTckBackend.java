package org.lockspi.tck.reference;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.lockspi.tck.TckBackend;

/** The in-memory server as a {@link TckBackend}: it can be inspected, and can take a lock from its holders. */
public final class MemTckBackend implements TckBackend {
    private final MemServer server = MemServer.start();

    @Override
    public String description() {
        return "in-memory reference server " + server.namespace;
    }

    @Override
    public String scheme() {
        return "mem";
    }

    @Override
    public String uri() {
        return "mem://local/" + server.namespace;
    }

    @Override
    public String unreachableUri() {
        return "mem://local/not-started-" + server.namespace;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART, Capability.PARENT_REMOVAL);
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
        server.restart();
    }

    @Override
    public void stopServer() {
        server.suspendAll();
    }

    @Override
    public void startServer() {
        server.restoreAll();
    }

    @Override
    public int watchCount(String lockName) {
        throw new UnsupportedOperationException("the in-memory server has no watches");
    }

    @Override
    public void removeEmptyParents(String lockName) {
        server.removeEmptyParents(lockName);
    }

    @Override
    public void close() {
        server.stop();
    }
}
