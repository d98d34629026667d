package org.lockspi.tck.reference;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.lockspi.inmemory.internal.Space;
import org.lockspi.inmemory.internal.Spaces;
import org.lockspi.tck.TckBackend;

/**
 * A space of the in-memory provider ({@code lock-spi-inmemory}) as a {@link TckBackend}, kept in use from start to
 * {@link #close()}: it can be inspected and can take a lock from its holders. A restart tells every client that its
 * connection was suspended and then restored; the space keeps its locks (or, with {@code sessionsDie}, takes every
 * held lock from its holders meanwhile).
 */
public final class MemTckBackend implements TckBackend {
    /**
     * The rules the in-memory server cannot verify for the reference provider, by the capability it lacks, for
     * {@code unverifiedRulesAllowed()}: clients in other JVMs cannot reach it ({@code OTHER_PROCESSES}), it has
     * no TCP port to put a proxy in front of ({@code PARTITION}, {@code REQUEST_FAULTS}), no wire protocol, no
     * sessions to list ({@code SESSIONS}) and no restart that loses its data ({@code RESTART_WITHOUT_DATA}): the
     * cross-process, partition, restart and single-message rules of §10, §18, §20 and §24.
     */
    public static final Map<String, String> UNVERIFIABLE = Map.ofEntries(
            Map.entry("§10.1", "the in-memory server is not reachable from another JVM"),
            Map.entry("§10.2", "the in-memory server is not reachable from another JVM"),
            Map.entry("§17.5", "the in-memory server has no TCP port to cut a client off at"),
            Map.entry("§18.1", "the in-memory server has no TCP port to cut a client off at"),
            Map.entry("§18.2", "the in-memory server has no TCP port to cut a client off at"),
            Map.entry("§18.3", "the in-memory server is not reachable from another JVM"),
            Map.entry("§18.5", "the in-memory server has no restart that loses its data"),
            Map.entry("§20.2", "the in-memory server is not reachable from another JVM"),
            Map.entry("§20.4", "the in-memory server has no TCP port to cut a client off at"),
            Map.entry("§24.1", "the in-memory server has no wire protocol to lose one message of"),
            Map.entry("§24.2", "the in-memory server has no wire protocol to lose one message of"),
            Map.entry("§24.3", "the in-memory server has no wire protocol to lose one message of"),
            Map.entry("§24.4", "the in-memory server has no wire protocol to lose one message of"),
            Map.entry("§24.5", "the in-memory server has no TCP port to tell a client's sessions by"));

    private final Space space = Spaces.pin("tck-" + Long.toString(ThreadLocalRandom.current().nextLong()
            & Long.MAX_VALUE, 36));
    private final Set<Capability> capabilities;
    private final boolean sessionsDie;

    /** A server with every capability it can offer: INSPECT, FORCE_LOSS, RESTART, EMPTY_STATE_REMOVAL, COUNTERS_ABOVE_32_BITS. */
    public MemTckBackend() {
        this(EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART, Capability.EMPTY_STATE_REMOVAL,
                Capability.COUNTERS_ABOVE_32_BITS));
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
        return "in-memory space " + space.name();
    }

    @Override
    public String scheme() {
        return "mem";
    }

    @Override
    public String uri() {
        return "mem://" + space.name();
    }

    @Override
    public String unreachableUri() {
        return "mem://not-started-" + space.name();
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public List<String> residue(String lockName) {
        return space.residue(lockName);
    }

    @Override
    public void forceLoss(String lockName) {
        space.expire(lockName);
    }

    @Override
    public void restart() {
        stopServer();
        if (sessionsDie) {
            space.keys().forEach(space::expire);
        }
        startServer();
    }

    @Override
    public void stopServer() {
        space.clients().forEach(client -> client.events().connectionSuspended());
    }

    @Override
    public void startServer() {
        space.clients().forEach(client -> client.events().connectionRestored());
    }

    @Override
    public void removeEmptyState(String lockName) {
        // nothing to do: the space drops a lock's queue with its last entry, and keeps its fencing counter
    }

    @Override
    public void close() {
        space.shutDown();
        Spaces.unpin(space);
    }
}
