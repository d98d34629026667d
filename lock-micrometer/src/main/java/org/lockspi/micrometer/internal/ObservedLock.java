package org.lockspi.micrometer.internal;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.MultiLease;
import org.lockspi.micrometer.LockObservations;

/**
 * The observations of one lock: one {@value LockObservations#ACQUIRE} per attempt, stopped with its outcome, and one
 * {@value LockObservations#HOLD} per lease, from the grant to its release, loss or close.
 */
final class ObservedLock implements LockProbe {
    private final Observations binding;
    private final String name;
    private final String kind;

    ObservedLock(Observations binding, String name, String kind) {
        this.binding = binding;
        this.name = name;
        this.kind = kind;
    }

    private Observation observation(String observationName, String contextualName) {
        return Observation.createNotStarted(observationName, binding.registry())
                .contextualName(contextualName)
                .lowCardinalityKeyValues(KeyValues.of(LockObservations.KIND, kind,
                        LockObservations.PROVIDER, binding.provider(), LockObservations.SERVICE, binding.service()))
                .highCardinalityKeyValue(LockObservations.NAME, name);
    }

    @Override
    public Attempt attempt() {
        Observation acquire = observation(LockObservations.ACQUIRE, "lock acquire").start();
        return new Attempt() {
            @Override
            public Hold acquired(Lease lease) {
                tokens(acquire, lease).lowCardinalityKeyValue(LockObservations.OUTCOME, Outcome.ACQUIRED.tag()).stop();
                return hold(lease);
            }

            @Override
            public void ended(Outcome outcome, Throwable failure) {
                acquire.lowCardinalityKeyValue(LockObservations.OUTCOME, outcome.tag());
                if (outcome == Outcome.FAILED && failure != null) {
                    acquire.error(failure);
                }
                acquire.stop();
            }
        };
    }

    /** Adds the lease's fencing token, or a multi-lease's parts' tokens, where the provider has them. */
    private Observation tokens(Observation observation, Lease lease) {
        if (!binding.tokens()) {
            return observation;
        }
        if (lease instanceof MultiLease) {
            return observation.highCardinalityKeyValue(LockObservations.TOKENS, ((MultiLease) lease).parts().stream()
                    .map(part -> part.lockName() + "=" + part.fencingToken()).collect(Collectors.joining(",")));
        }
        return observation.highCardinalityKeyValue(LockObservations.TOKEN, Long.toString(lease.fencingToken()));
    }

    private Hold hold(Lease lease) {
        Observation held = tokens(observation(LockObservations.HOLD, "lock hold"), lease).start();
        AtomicBoolean ended = new AtomicBoolean();
        return new Hold() {
            private void end(String outcome) {
                if (ended.compareAndSet(false, true)) {
                    held.lowCardinalityKeyValue(LockObservations.OUTCOME, outcome).stop();
                }
            }

            @Override
            public void transition(LeaseState current) {
                if (current == LeaseState.LOST) {
                    end("lost"); // the hold ended when the lock was lost, not when the lease is released
                } else if (!ended.get()) {
                    held.event(Observation.Event.of("lockspi.lease." + current.name().toLowerCase(java.util.Locale.ROOT),
                            "lease " + current));
                }
            }

            @Override
            public void released() {
                end("released");
            }

            @Override
            public void closed() {
                end("closed");
            }
        };
    }
}
