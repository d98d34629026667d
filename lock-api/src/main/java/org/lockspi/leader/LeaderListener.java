package org.lockspi.leader;

/**
 * Told when its {@link Participant} is elected and when it must stop leading.
 *
 * <p><b>Threads.</b> Both methods run on the participant's own thread (one per participant, named
 * {@code lockspi-leader-<election>-<id>}), one call at a time, never concurrently, in order: every
 * {@link #elected(Term)} is followed by exactly one {@link #stopLeading(Term, StopReason)} for the same term before
 * the next {@code elected}. They must return promptly: while a callback runs, the participant cannot deliver the
 * next one (the term itself still turns inactive at once: {@link Term#isActive()} does not wait for callbacks). Do
 * the leader's work on threads of your own, guarded by {@link Term#checkValid()}. A callback that throws is logged
 * and the participant goes on.
 */
public interface LeaderListener {

    /**
     * This participant leads, from now until {@link #stopLeading} for this term (or {@link Term#isActive()} is
     * false, whichever is first).
     *
     * @param term the new term; its {@linkplain Term#fencingToken() fencing token} is greater than every earlier
     *             term's
     */
    void elected(Term term);

    /**
     * This participant no longer leads in {@code term}; stop acting for it (it has already ended:
     * {@link Term#isActive()} is false). After {@link StopReason#UNCERTAIN}, {@link StopReason#LOST} and
     * {@link StopReason#STEPPED_DOWN} the participant asks again and may be elected in a later term; after
     * {@link StopReason#CLOSED} it is done.
     *
     * @param term   the term that ended
     * @param reason why it ended
     */
    void stopLeading(Term term, StopReason reason);
}
