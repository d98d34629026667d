package org.lockspi.tck.reference;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lockspi.tck.TckBackend;

/** The in-memory server as a {@link TckBackend}: it can be inspected, and can take a lock from its holders. */
public final class MemTckBackend implements TckBackend {
    /**
     * The rules the in-memory server cannot verify for the reference provider, by the capability it lacks, for
     * {@code unverifiedRulesAllowed()}: clients in other JVMs cannot reach it ({@code OTHER_PROCESSES}), it has
     * no TCP port to put a proxy in front of ({@code PARTITION}) and no restart that loses its data
     * ({@code RESTART_WITHOUT_DATA}): the cross-process, partition and restart rules of §10, §18 and §20.
     */
    public static final Map<String, String> UNVERIFIABLE = Map.of(
            "§10.1", "the in-memory server is not reachable from another JVM",
            "§10.2", "the in-memory server is not reachable from another JVM",
            "§18.1", "the in-memory server has no TCP port to cut a client off at",
            "§18.2", "the in-memory server has no TCP port to cut a client off at",
            "§18.3", "the in-memory server is not reachable from another JVM",
            "§18.5", "the in-memory server has no restart that loses its data",
            "§20.2", "the in-memory server is not reachable from another JVM",
            "§20.4", "the in-memory server has no TCP port to cut a client off at");

    private final MemServer server = MemServer.start();
    private final Set<Capability> capabilities;
    private final boolean sessionsDie;

    /** A server with every capability it can offer: INSPECT, FORCE_LOSS, RESTART, PARENT_REMOVAL, HIGH_COUNTERS. */
    public MemTckBackend() {
        this(EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART, Capability.PARENT_REMOVAL,
                Capability.HIGH_COUNTERS));
    }

    /**
     * A server that offers only some capabilities, as a third party's backend might.
     *
     * @param capabilities what it claims to offer
     */
    public MemTckBackend(Set<Capability> capabilities) {
        this(capabilities, false);
    }

    /**
     * @param capabilities what it claims to offer
     * @param sessionsDie  whether {@link #restart()} ends every held lease, as a server whose sessions die with
     *                     it (PostgreSQL advisory locks, Redis without persistence)
     */
    public MemTckBackend(Set<Capability> capabilities, boolean sessionsDie) {
        this.capabilities = Set.copyOf(capabilities);
        this.sessionsDie = sessionsDie;
    }

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
        return capabilities;
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
        server.restart(sessionsDie);
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
