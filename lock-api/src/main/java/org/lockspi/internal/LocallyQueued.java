package org.lockspi.internal;

/**
 * A lock handle of a service whose acquisitions may wait in a {@link LocalGate} in front of the server: the service
 * counts them for its own {@code inspect} and fails them when it closes, whatever the handle's kind.
 */
interface LocallyQueued {

    /** @return this service's acquisitions of the lock waiting in its local queues, not yet at the server */
    int queuedLocally();

    /** Fails the acquisitions waiting in the local queues (the service is closing). */
    void closeLocalQueues();
}
