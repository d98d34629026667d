package org.lockspi;

/**
 * The state of a {@link LockService}'s connection to its server, as {@link LockService#connectionState()}
 * reports it: the state the provider last announced, without asking the server.
 *
 * <p>The states move {@code CONNECTED <-> SUSPENDED}, either of them {@code -> CLOSED}; {@code CLOSED} is final.
 */
public enum ConnectionState {
    /**
     * The connection is up, as far as the provider last reported: leases that are confirmed in time are
     * {@link LeaseState#HELD}. The initial state of an open service.
     */
    CONNECTED,
    /**
     * The provider reported the connection suspended (ZooKeeper: disconnected, the session may still live;
     * Redis: a renewal or the connection failed): held leases are {@link LeaseState#UNCERTAIN} until the provider
     * reports the connection restored.
     */
    SUSPENDED,
    /** {@link LockService#close()} was called. Final. */
    CLOSED
}
