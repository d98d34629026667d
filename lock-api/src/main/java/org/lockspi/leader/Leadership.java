package org.lockspi.leader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.leader.internal.ParticipantImpl;
import org.lockspi.spi.LockKeys;

/**
 * Leader election on the lock API: participants of one election, each with an id, ask for the election's leader
 * lock; the one that holds it leads, in a {@link Term} fenced by the lease's token.
 *
 * <pre>{@code
 * try (Participant me = Leadership.join(locks, "jobs/scheduler", "node-1", new LeaderListener() {
 *         public void elected(Term term)                       { poller.start(term); }
 *         public void stopLeading(Term term, StopReason reason) { poller.stop(); }
 *     })) {
 *     ...
 * }
 * }</pre>
 *
 * <p><b>How.</b> Each participant holds its registration, the mutex {@code <election>/participants/<id>}
 * ({@link #participantLockName}), for as long as it has joined (so one id is one participant at a time, across
 * clients), and asks for the mutex {@code <election>/leader} ({@link #leaderLockName}). Holding that mutex is
 * leading; a term is one acquisition of it. A term ends at the first moment its lease is not {@code HELD}: at
 * {@code UNCERTAIN}, not only when the loss is confirmed. A lease that turns {@code HELD} again does not revive
 * its term: the participant releases it and asks again, so a new term always comes from a new acquisition, with
 * a greater fencing token. After a step-down a participant waits the {@linkplain Builder#rejoinDelay rejoin delay}
 * before it asks again, so that another participant takes over even on a provider without FIFO waiting.
 *
 * <p><b>Names.</b> An election and a participant id may be any strings a lock name may be (see
 * {@link LockService}). The leader lock is {@code <election>/leader}; a registration is
 * {@code <election>/participants/<id>}, where an id that is not one segment of the readable form (it holds a
 * {@code '/'}, a {@code ':'}, a space, ...) is written {@code '~'} + URL-safe base64 of its UTF-8 bytes without
 * padding, so that it stays one segment and no two ids of one election share a registration. Each of these
 * names is then stored under its key as every lock name is ({@link org.lockspi.spi.LockKeys}): for an election
 * and ids of the readable form, nothing is encoded.
 *
 * <p><b>Features.</b> The provider must declare {@link LockFeature#REENTRANT_MUTEX},
 * {@link LockFeature#FENCING_TOKENS} and {@link LockFeature#LOST_NOTIFICATION}; a join checks them.
 *
 * <p><b>Failure bounds.</b> A leader that crashes is replaced after the provider's crash-release time (ZooKeeper:
 * the session timeout; Redis: the lease time). A leader cut off from the server stops leading when its lease turns
 * {@code UNCERTAIN} (ZooKeeper: {@code uncertainAfter}, half the session timeout by default), before the server can
 * let another participant in.
 *
 * <p><b>Listing.</b> The lock API cannot enumerate lock names or holders, so the participants of an election cannot
 * be listed from it; {@link #participants(LockService, String, Collection)} tells which of the ids given are joined
 * now.
 */
public final class Leadership {

    /** The rejoin delay unless the builder sets another: 1 s. */
    public static final Duration DEFAULT_REJOIN_DELAY = Duration.ofSeconds(1);

    /** The longest rejoin delay accepted: 1 hour. */
    public static final Duration MAX_REJOIN_DELAY = Duration.ofHours(1);

    private Leadership() {
    }

    /**
     * Joins an election with the default options; the participant starts asking to lead at once.
     *
     * @param service       the client to take part through; it must stay open while the participant runs (closing
     *                      it ends the participant)
     * @param election      the election's name: any non-empty string that leaves its derived names within the
     *                      lock-name limit of 4096 UTF-8 bytes
     * @param participantId this participant's id, unique in the election: any non-empty string (see Names above)
     * @param listener      told of elections and their ends, on the participant's thread
     * @return the participant
     * @throws NullPointerException          if an argument is null
     * @throws IllegalArgumentException      if the election or id give no valid lock name; the message names them
     * @throws UnsupportedOperationException if the provider lacks a feature leadership needs (listed)
     * @throws IllegalStateException         if the service is closed
     */
    public static Participant join(LockService service, String election, String participantId,
                                   LeaderListener listener) {
        return builder(service, election, participantId).listener(listener).join();
    }

    /**
     * A builder for a participant with options.
     *
     * @param service       as {@link #join}
     * @param election      as {@link #join}
     * @param participantId as {@link #join}
     * @return the builder
     * @throws NullPointerException if an argument is null
     */
    public static Builder builder(LockService service, String election, String participantId) {
        return new Builder(service, election, participantId);
    }

    /**
     * @param election the election's name
     * @return the name of the mutex whose holder leads the election, {@code <election>/leader}
     * @throws NullPointerException if {@code election} is null
     */
    public static String leaderLockName(String election) {
        return Objects.requireNonNull(election, "election is null") + "/leader";
    }

    /**
     * @param election      the election's name
     * @param participantId a participant's id
     * @return the name of the mutex a joined participant holds, {@code <election>/participants/<id>}, the id
     *         encoded as one segment unless it is one segment of the readable form (see the class comment)
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code participantId} is empty or not well-formed UTF-16
     */
    public static String participantLockName(String election, String participantId) {
        return Objects.requireNonNull(election, "election is null") + "/participants/" + idSegment(participantId);
    }

    /** @return the id as one segment: itself if it is one of the readable form, else '~' + base64url(UTF-8) */
    private static String idSegment(String id) {
        String key = LockKeys.key(checkId(id));
        if (key.indexOf('/') < 0) {
            return key; // readable and one segment, or already encoded
        }
        return LockKeys.ENCODED_MARK + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(id.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Which of the ids given are joined to the election now, by asking for each one's registration without waiting:
     * an id whose registration another participant holds is joined. A registration that is free is taken for a moment
     * and released (a participant joining with that id at that moment waits one round trip longer). Ids not given
     * are not found (with {@link org.lockspi.LockFeature#INSPECTION}, {@link LockService#list(String)} of the
     * registrations' common prefix names every one held); a participant whose process died counts as joined until
     * the provider's crash-release time has passed.
     *
     * @param service    the client to ask through
     * @param election   the election's name
     * @param candidates the ids to look for
     * @return the joined ones among them, in the order given
     * @throws NullPointerException          if an argument or a candidate is null
     * @throws IllegalArgumentException      if a candidate is no valid id, or the election is empty
     * @throws org.lockspi.LockConnectionException if the server cannot be reached
     * @throws UnsupportedOperationException if the provider lacks {@link LockFeature#REENTRANT_MUTEX}
     * @throws IllegalStateException         if the service is closed
     */
    public static Set<String> participants(LockService service, String election, Collection<String> candidates) {
        Objects.requireNonNull(service, "service is null");
        checkElection(election);
        Set<String> joined = new LinkedHashSet<>();
        for (String id : Objects.requireNonNull(candidates, "candidates is null")) {
            DistributedLock registration = service.mutex(participantLockName(election, checkId(id)));
            if (registration.isHeldByCurrentThread()) {
                joined.add(id); // the caller is that participant's own thread
                continue;
            }
            Optional<Lease> probe = registration.tryAcquire();
            if (probe.isEmpty()) {
                joined.add(id);
            } else {
                probe.get().release();
            }
        }
        return joined;
    }

    /** @return the id, if it is non-empty and has a key ({@link LockKeys#key}: well-formed, not too long) */
    static String checkId(String id) {
        Objects.requireNonNull(id, "participantId is null");
        try {
            LockKeys.key(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("participant id is no valid lock name: " + e.getMessage(), e);
        }
        return id;
    }

    /** @return the election, if it is non-empty (its derived names are checked as lock names) */
    static String checkElection(String election) {
        Objects.requireNonNull(election, "election is null");
        if (election.isEmpty()) {
            throw new IllegalArgumentException("election name is empty");
        }
        return election;
    }

    /** Options of one participant; {@link #join()} starts it. Not thread-safe; use it once. */
    public static final class Builder {
        private final LockService service;
        private final String election;
        private final String participantId;
        private LeaderListener listener = NO_CALLBACKS;
        private Duration rejoinDelay = DEFAULT_REJOIN_DELAY;

        private Builder(LockService service, String election, String participantId) {
            this.service = Objects.requireNonNull(service, "service is null");
            this.election = Objects.requireNonNull(election, "election is null");
            this.participantId = Objects.requireNonNull(participantId, "participantId is null");
        }

        /**
         * @param listener told of elections and their ends; none by default (poll {@link Participant#isLeader()})
         * @return this builder
         * @throws NullPointerException if {@code listener} is null
         */
        public Builder listener(LeaderListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener is null");
            return this;
        }

        /**
         * How long a participant that {@linkplain Participant#stepDown() stepped down} waits before it asks to lead
         * again (a participant whose term ended for another reason asks again at once).
         *
         * @param delay from zero to {@link #MAX_REJOIN_DELAY}; {@link #DEFAULT_REJOIN_DELAY} by default
         * @return this builder
         * @throws NullPointerException     if {@code delay} is null
         * @throws IllegalArgumentException if {@code delay} is negative or longer than {@link #MAX_REJOIN_DELAY}
         */
        public Builder rejoinDelay(Duration delay) {
            Objects.requireNonNull(delay, "rejoinDelay is null");
            if (delay.isNegative() || delay.compareTo(MAX_REJOIN_DELAY) > 0) {
                throw new IllegalArgumentException("rejoinDelay is not between 0 and " + MAX_REJOIN_DELAY + ": "
                        + delay);
            }
            this.rejoinDelay = delay;
            return this;
        }

        /**
         * Checks the provider's features and the names, and starts the participant's thread, which asks to lead.
         *
         * @return the participant
         * @throws IllegalArgumentException      as {@link Leadership#join}
         * @throws UnsupportedOperationException as {@link Leadership#join}
         * @throws IllegalStateException         as {@link Leadership#join}
         */
        public Participant join() {
            checkId(participantId);
            checkElection(election);
            if (service.isClosed()) {
                throw new IllegalStateException("lock service is closed; election '" + election + "', participant '"
                        + participantId + "' cannot join");
            }
            Set<LockFeature> missing = ParticipantImpl.missingFeatures(service.features());
            if (!missing.isEmpty()) {
                throw new UnsupportedOperationException("leader election needs " + ParticipantImpl.NEEDED
                        + "; provider '" + service.providerName() + "' lacks " + missing);
            }
            DistributedLock leader;
            DistributedLock registration;
            try {
                leader = service.mutex(leaderLockName(election));
                registration = service.mutex(participantLockName(election, participantId));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("election '" + election + "' with participant '" + participantId
                        + "' gives no valid lock name: " + e.getMessage(), e);
            }
            return ParticipantImpl.start(service, election, participantId, leader, registration, listener,
                    rejoinDelay);
        }
    }

    private static final LeaderListener NO_CALLBACKS = new LeaderListener() {
        @Override
        public void elected(Term term) {
        }

        @Override
        public void stopLeading(Term term, StopReason reason) {
        }

        @Override
        public String toString() {
            return "no callbacks";
        }
    };
}
