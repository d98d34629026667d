package org.lockspi.spi;

/**
 * How a backend tells the engine about its connection and its leases. Implemented by the engine and handed to
 * {@link LockProvider#open(LockUri, BackendEvents)}.
 *
 * <p>Every method may be called from any thread, including the client library's event thread: it never
 * blocks and never calls back into the backend. Listener callbacks run later on the service's own event thread.
 */
public interface BackendEvents {

    /** The connection is suspended: every lease that is HELD turns UNCERTAIN. */
    void connectionSuspended();

    /**
     * The connection is back and the session survived: every lease that is UNCERTAIN turns HELD again. A backend
     * whose session did not survive reports {@link #leaseLost(BackendLease)} for each lease first.
     */
    void connectionRestored();

    /**
     * A confirmation moved forward: some {@link BackendLease#confirmedUntilNanos()} grew, for example after a
     * heartbeat answered once the previous confirmation had run out. Leases that are {@code UNCERTAIN} only
     * because their confirmation was overdue turn {@code HELD} again (if the connection is not suspended and the
     * new instant is still ahead). A backend that never lets its confirmations run out need not call it.
     */
    default void leasesConfirmed() {
    }

    /**
     * One lease is gone from the server. Call it after {@link BackendLease#isLost()} answers true. Calls for
     * leases the engine does not (or no longer) know are ignored.
     *
     * @param lease the lost lease
     */
    void leaseLost(BackendLease lease);

    /**
     * One lease is gone from the server, and why: {@link #leaseLost(BackendLease)} with the reason the engine logs
     * in its one warning about the loss (for example {@code "its session expired"}). By default the reason is
     * dropped.
     *
     * @param lease the lost lease
     * @param why   why it is gone, in a few words, without credentials
     */
    default void leaseLost(BackendLease lease, String why) {
        leaseLost(lease);
    }
}
