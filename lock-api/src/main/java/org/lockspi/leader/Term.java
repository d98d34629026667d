package org.lockspi.leader;

import java.time.Duration;
import java.util.Optional;

/**
 * One period in which one participant leads an election: from its election (a new acquisition of the election's
 * leader lock) to the first moment its lease is not {@link org.lockspi.LeaseState#HELD}, or its step-down or close.
 * A term never comes back once ended: a participant that leads again does so in a new term, with a greater
 * {@linkplain #fencingToken() fencing token}.
 *
 * <p><b>Guarded actions.</b> Call {@link #checkValid()} just before each action only the leader may take, and pass
 * the fencing token with it, so that the resource can refuse a superseded leader: the check narrows the window in
 * which a deposed leader still acts to the time between the check and the action; the token closes it.
 *
 * <pre>{@code
 * void elected(Term term) {
 *     executor.submit(() -> {
 *         while (true) {
 *             term.checkValid();                           // NotLeaderException: stop at once
 *             store.dispatch(nextTask(), term.fencingToken());
 *         }
 *     });
 * }
 * }</pre>
 *
 * <p>{@link #isActive()} and {@link #checkValid()} look at the lease itself each time, without I/O: they turn
 * false (throw) as soon as the lease turns {@code UNCERTAIN}, before any callback is delivered. Thread-safe.
 */
public interface Term {

    /** @return the election's name */
    String election();

    /** @return the id of the participant that leads in this term */
    String participantId();

    /**
     * The fencing token of the leader lock's lease that began this term: greater than the token of every earlier
     * term of the election, also across server restarts.
     *
     * @return the term's fencing token
     */
    long fencingToken();

    /**
     * Whether this term is still current: not stepped down or closed, and its lease {@code HELD} now. Once false,
     * false for good.
     *
     * @return whether this participant may act as the leader now
     */
    boolean isActive();

    /**
     * Checks that this term is still current ({@link #isActive()}); call it just before each guarded action. Never
     * blocks, no I/O.
     *
     * @throws NotLeaderException if the term ended; it carries the reason
     */
    void checkValid();

    /**
     * How long the term's lease stays valid judged locally ({@link org.lockspi.Lease#validFor()}).
     *
     * @return the time left; {@link Duration#ZERO} once the term ended
     */
    Duration validFor();

    /** @return why the term ended, or empty while it is {@linkplain #isActive() active} */
    Optional<StopReason> stopReason();
}
