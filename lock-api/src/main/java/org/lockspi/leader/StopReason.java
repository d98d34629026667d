package org.lockspi.leader;

/**
 * Why a {@link Term} ended, as told to {@link LeaderListener#stopLeading(Term, StopReason)} and carried by
 * {@link NotLeaderException}.
 */
public enum StopReason {
    /**
     * The term's lease turned {@link org.lockspi.LeaseState#UNCERTAIN}: the connection is suspended or the last
     * confirmation from the server is overdue, so another participant may be elected soon. The term ends at once;
     * it does not come back if the lease turns {@code HELD} again (the participant releases the lease and asks
     * again: a new term needs a new acquisition).
     */
    UNCERTAIN,
    /** The term's lease turned {@link org.lockspi.LeaseState#LOST}: the session or lease ended. */
    LOST,
    /** {@link Participant#stepDown()} was called. */
    STEPPED_DOWN,
    /** {@link Participant#close()} was called, or the participant's {@link org.lockspi.LockService} was closed. */
    CLOSED
}
