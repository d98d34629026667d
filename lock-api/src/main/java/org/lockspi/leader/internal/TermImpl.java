package org.lockspi.leader.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.leader.NotLeaderException;
import org.lockspi.leader.StopReason;
import org.lockspi.leader.Term;

/**
 * One term: a lease of the leader lock and a latch. The first time anyone sees the lease not HELD, or the term is
 * stepped down or closed, the latch takes the reason and the term stays ended, whatever the lease does later.
 */
final class TermImpl implements Term {
    private final String election;
    private final String participantId;
    private final Lease lease;
    private final long token;
    private final AtomicReference<StopReason> ended = new AtomicReference<>();

    TermImpl(String election, String participantId, Lease lease) {
        this.election = election;
        this.participantId = participantId;
        this.lease = lease;
        this.token = lease.fencingToken();
    }

    @Override
    public String election() {
        return election;
    }

    @Override
    public String participantId() {
        return participantId;
    }

    @Override
    public long fencingToken() {
        return token;
    }

    Lease lease() {
        return lease;
    }

    @Override
    public boolean isActive() {
        if (ended.get() != null) {
            return false;
        }
        LeaseState state = lease.state();
        if (state != LeaseState.HELD) {
            end(reasonOf(state));
            return false;
        }
        return ended.get() == null;
    }

    @Override
    public void checkValid() {
        if (!isActive()) {
            throw new NotLeaderException(election, participantId, token, ended.get());
        }
    }

    @Override
    public Duration validFor() {
        Duration left = lease.validFor();
        return isActive() ? left : Duration.ZERO;
    }

    @Override
    public Optional<StopReason> stopReason() {
        isActive(); // latches a lease that is no longer HELD
        return Optional.ofNullable(ended.get());
    }

    /**
     * Ends the term with this reason unless it already ended.
     *
     * @return whether this call ended it
     */
    boolean end(StopReason reason) {
        return ended.compareAndSet(null, reason);
    }

    /** @return the reason the term ended with; null while active */
    StopReason reason() {
        return ended.get();
    }

    /** @return the reason a lease in this state (not HELD) ends a term for */
    static StopReason reasonOf(LeaseState state) {
        switch (state) {
            case UNCERTAIN:
                return StopReason.UNCERTAIN;
            case LOST:
                return StopReason.LOST;
            default:
                return StopReason.CLOSED; // RELEASED: the service was closed
        }
    }

    @Override
    public String toString() {
        StopReason reason = ended.get();
        return "Term[election '" + election + "', participant '" + participantId + "', token " + token + ", "
                + (reason == null ? "active" : "ended: " + reason) + "]";
    }
}
