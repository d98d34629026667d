package org.lockspi;

/**
 * Told when a {@link Lease} changes state other than by its own release: {@code HELD -> UNCERTAIN},
 * {@code UNCERTAIN -> HELD}, and {@code -> LOST}.
 *
 * <p>Listeners run on one event thread of the lease's {@link LockService}, one at a time and in the order the
 * changes happened; a listener must not block it for long. A listener that throws is logged and does not stop
 * the others.
 */
@FunctionalInterface
public interface LeaseListener {
    /**
     * Called after the lease's state changed.
     *
     * @param lease    the lease whose state changed
     * @param previous the state before the change
     * @param current  the state after the change, as it was when the change happened
     */
    void stateChanged(Lease lease, LeaseState previous, LeaseState current);
}
