package org.lockspi.micrometer.internal;

/** Where an instrumented view gets the probe of each lock: the meters of a binding, or its observations. */
public interface Probes {

    /**
     * @param name the lock's name (a multi-lock's: its parts' names joined by {@code " + "})
     * @param kind {@code mutex}, {@code non_reentrant_mutex}, {@code read}, {@code write}, {@code semaphore},
     *             {@code multi}
     * @return the probe of that lock; the same one for the same name and kind, or an equivalent
     */
    LockProbe lock(String name, String kind);

    /** The view's service is being closed: holds still open end now. */
    default void serviceClosed() {
    }
}
