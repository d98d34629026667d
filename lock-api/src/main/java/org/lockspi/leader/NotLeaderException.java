package org.lockspi.leader;

import java.util.Objects;
import org.lockspi.LockException;

/**
 * A {@link Term} was asked to prove it is still the election's current term ({@link Term#checkValid()}) and could
 * not: it ended, for the {@link #reason() reason} given. Work done for the leader must stop.
 *
 * <p>The message names the participant, the election, the term's fencing token and the reason, for example
 * {@code participant 'node-1' of election 'jobs/scheduler' no longer leads (term with token 42): UNCERTAIN}.
 */
public class NotLeaderException extends LockException {
    private static final long serialVersionUID = 1L;

    private final String election;
    private final String participantId;
    private final long fencingToken;
    private final StopReason reason;

    /**
     * @param election      the election's name
     * @param participantId the participant's id
     * @param fencingToken  the ended term's fencing token
     * @param reason        why the term ended
     * @throws NullPointerException if a name or the reason is null
     */
    public NotLeaderException(String election, String participantId, long fencingToken, StopReason reason) {
        super("participant '" + Objects.requireNonNull(participantId, "participantId") + "' of election '"
                + Objects.requireNonNull(election, "election") + "' no longer leads (term with token "
                + fencingToken + "): " + Objects.requireNonNull(reason, "reason"));
        this.election = election;
        this.participantId = participantId;
        this.fencingToken = fencingToken;
        this.reason = reason;
    }

    /** @return the election's name */
    public String election() {
        return election;
    }

    /** @return the participant's id */
    public String participantId() {
        return participantId;
    }

    /** @return the ended term's fencing token */
    public long fencingToken() {
        return fencingToken;
    }

    /** @return why the term ended */
    public StopReason reason() {
        return reason;
    }
}
