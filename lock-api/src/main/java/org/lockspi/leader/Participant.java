package org.lockspi.leader;

import java.util.Optional;

/**
 * One participant of a leader election, obtained from {@link Leadership#join}. From the moment it joins until it
 * is closed it asks to lead; whenever it is elected its {@link LeaderListener} is told, and told again when the
 * term ends.
 *
 * <p><b>Lifecycle.</b> Joined &rarr; (waiting &rarr; leading in a term &rarr; waiting ...) &rarr; closed. A term
 * ends when its lease turns {@code UNCERTAIN} or {@code LOST}, on {@link #stepDown()}, or on {@link #close()}; the
 * participant then releases the leader lock and, unless closed, asks again. The participant's own thread does all
 * of this (acquire, watch, release) and delivers the callbacks.
 *
 * <p>Thread-safe: every method may be called from any thread, a callback included.
 */
public interface Participant extends AutoCloseable {

    /** @return the election's name */
    String election();

    /** @return this participant's id */
    String id();

    /** @return whether this participant leads now: {@code currentTerm().isPresent()} */
    boolean isLeader();

    /**
     * @return the term this participant leads now, if it is {@linkplain Term#isActive() active}; empty while it
     *         waits, after its term ended, and once closed
     */
    Optional<Term> currentTerm();

    /**
     * Ends the current term at once ({@link Term#isActive()} turns false before this returns), then the
     * participant's thread tells the listener ({@link StopReason#STEPPED_DOWN}), releases the leader lock, and asks
     * again after the join's {@linkplain Leadership.Builder#rejoinDelay rejoin delay}, so that another participant
     * can be elected. Does nothing if this participant does not lead.
     *
     * @return whether a term was ended
     */
    boolean stepDown();

    /** @return whether {@link #close()} was called, or the participant ended because its service was closed */
    boolean isClosed();

    /**
     * Leaves the election: ends the current term at once (the listener is told {@link StopReason#CLOSED}), stops
     * asking, releases the leader lock and the participant's registration, and waits for the participant's thread to
     * end (unless called from a callback, on that very thread). The wait covers a callback still running and the
     * releases, which never wait for an unreachable server past the provider's release bound; a release that could
     * not reach the server is left to the provider (as {@link org.lockspi.Lease#release()} says). Idempotent; the
     * {@link org.lockspi.LockService} stays open.
     */
    @Override
    void close();
}
