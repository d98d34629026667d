package org.lockspi.tck;

import java.time.Duration;

/**
 * A backend made of several replicated servers, of which one leads, that keeps serving while a majority runs.
 * A backend with the {@link TckBackend.Capability#ENSEMBLE} capability implements it; the ensemble contracts
 * (§19) kill one member with {@code SIGKILL} while clients contend for a lock.
 *
 * <p>The backend's {@link #uri()} names every member, so a client fails over from a dead one.
 */
public interface EnsembleBackend extends TckBackend {

    /**
     * Kills the current leader with {@code SIGKILL} and returns once its process is gone; the others elect a new
     * leader by themselves. At most one member is down at a time. The death cuts every client's connection (in
     * ZooKeeper the followers drop their clients until a new leader serves), so {@link Killed#holderCut()} is
     * true.
     *
     * @return the killed member
     * @throws IllegalStateException if a member is down already, or no leader serves
     */
    Killed killLeader();

    /**
     * Kills one follower with {@code SIGKILL} and returns once its process is gone; the leader keeps its quorum.
     *
     * @return the killed member; {@link Killed#holderCut()} is false, as no lock is named
     * @throws IllegalStateException if a member is down already, or no follower serves
     */
    Killed killFollower();

    /**
     * Kills with {@code SIGKILL} a follower that a client of the lock is connected to, preferring the lock's
     * holder, so that the death reaches a holder; any follower if no client of the lock is connected to one.
     * Returns once its process is gone.
     *
     * @param lockName the lock's backend key, {@code LockKeys.key(name)}: a name of the readable form as it is
     * @return the killed member; {@link Killed#holderCut()} says whether the lock's holder was connected to it
     * @throws IllegalStateException if a member is down already, or no follower serves
     */
    Killed killFollower(String lockName);

    /**
     * A killed member.
     *
     * @param address   its client address, such as {@code 127.0.0.1:40123}
     * @param holderCut whether the death is known to have cut the connection of the named lock's holder
     * @param nanoTime  {@link System#nanoTime()} just before the {@code SIGKILL}
     */
    record Killed(String address, boolean holderCut, long nanoTime) {
    }

    /**
     * Starts the killed member again with its data and ports, and returns once it serves again as a member of
     * the quorum. Does nothing if no member is down.
     *
     * @throws IllegalStateException if it does not rejoin within {@link #quorumBound()}
     */
    void restartKilled();

    /**
     * Waits until a leader and a majority of members serve clients (synchronised, in the broadcast phase).
     *
     * @throws IllegalStateException if that does not happen within {@link #quorumBound()}; the message quotes
     *                               the members' output
     */
    void awaitQuorum();

    /** @return how long {@link #awaitQuorum()} and {@link #restartKilled()} wait at most */
    Duration quorumBound();
}
