package org.lockspi.tck.redis;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.lockspi.tck.TckBackend;

/**
 * What the Sentinel and Cluster backends share: a {@link RedisInspector} that finds the master serving a key, the
 * capabilities that follow from it (INSPECT, FORCE_LOSS, OTHER_PROCESSES), and the refusals of what no topology of
 * several servers offers here (no restart of a single server in place, no watches, no parent nodes).
 */
abstract class TopologyBackend implements TckBackend {

    /** @return the inspector that reaches the master serving a lock's keys */
    abstract RedisInspector inspector();

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.OTHER_PROCESSES,
                Capability.EMPTY_STATE_REMOVAL, Capability.ENDS_SILENT_SESSIONS);
    }

    @Override
    public List<String> residue(String lockName) {
        return inspector().residue(lockName);
    }

    @Override
    public void forceLoss(String lockName) {
        inspector().forceLoss(lockName);
    }

    /** Deletes the lock's fencing counter, as its expiry does, once nobody holds or waits for the lock. */
    @Override
    public void removeEmptyState(String lockName) {
        inspector().removeEmptyState(lockName);
    }

    /**
     * Runs one command on the master serving its first argument (a key), on a connection of its own.
     *
     * @param command the command and its arguments
     * @return the reply as {@link RedisInspector#command(String...)} decodes it
     */
    public Object command(String... command) {
        return inspector().command(command);
    }

    @Override
    public void restart() {
        throw new UnsupportedOperationException("capability RESTART: " + description());
    }
}
