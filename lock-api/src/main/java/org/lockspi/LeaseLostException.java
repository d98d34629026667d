package org.lockspi;

import java.util.Objects;

/**
 * A lease was asked to prove it is held ({@link Lease#checkValid()}) and could not: it is
 * {@link LeaseState#UNCERTAIN} (the client cannot tell whether another client may hold the lock now),
 * {@link LeaseState#LOST} or {@link LeaseState#RELEASED}. Work guarded by the lock must not go on.
 *
 * <p>The message names the lock and the state, for example
 * {@code lease of lock 'orders/42' is not held: LOST}.
 */
public class LeaseLostException extends LockException {
    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final LeaseState state;

    /**
     * @param lockName the name of the lease's lock
     * @param state    the lease's state when it was checked; never {@link LeaseState#HELD}
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code state} is {@code HELD}
     */
    public LeaseLostException(String lockName, LeaseState state) {
        super("lease of lock '" + Objects.requireNonNull(lockName, "lockName") + "' is not held: "
                + Objects.requireNonNull(state, "state"));
        if (state == LeaseState.HELD) {
            throw new IllegalArgumentException("a HELD lease is not lost: lock '" + lockName + "'");
        }
        this.lockName = lockName;
        this.state = state;
    }

    /** @return the name of the lease's lock */
    public String lockName() {
        return lockName;
    }

    /** @return the lease's state when it was checked: UNCERTAIN, LOST or RELEASED */
    public LeaseState state() {
        return state;
    }
}
