package org.lockspi.micrometer.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.lockspi.LeaseState;

/** The meters of one lock tag and kind. */
final class LockMeters {
    /** How an acquisition attempt ended. */
    enum Outcome {
        ACQUIRED, TIMED_OUT, INTERRUPTED, FAILED;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Timer[] acquire = new Timer[Outcome.values().length];
    private final Timer held;
    private final Counter uncertain;
    private final Counter restored;
    private final Counter lost;
    private final Set<MeteredLease> active = ConcurrentHashMap.newKeySet();

    LockMeters(MeterRegistry registry, Tags tags) {
        for (Outcome outcome : Outcome.values()) {
            acquire[outcome.ordinal()] = Timer.builder("lockspi.acquire").tags(tags).tag("outcome", outcome.tag())
                    .description("acquisition attempts by outcome, and how long each waited").register(registry);
        }
        held = Timer.builder("lockspi.lease.held").tags(tags)
                .description("how long leases were held, recorded at release").register(registry);
        uncertain = transitions(registry, tags, "uncertain");
        restored = transitions(registry, tags, "held");
        lost = transitions(registry, tags, "lost");
        Gauge.builder("lockspi.leases.active", active, LockMeters::countLive).tags(tags)
                .description("leases acquired and not yet released, lost or ended by close")
                .strongReference(true).register(registry);
    }

    private static Counter transitions(MeterRegistry registry, Tags tags, String state) {
        return Counter.builder("lockspi.lease.transitions").tags(tags).tag("state", state)
                .description("lease state changes other than release, by new state").register(registry);
    }

    private static double countLive(Set<MeteredLease> leases) {
        leases.removeIf(l -> l.state().isTerminal());
        return leases.size();
    }

    void attempt(Outcome outcome, long startNanos) {
        acquire[outcome.ordinal()].record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    void started(MeteredLease lease) {
        active.add(lease);
    }

    void released(MeteredLease lease, long heldNanos) {
        active.remove(lease);
        held.record(heldNanos, TimeUnit.NANOSECONDS);
    }

    void transition(LeaseState current) {
        switch (current) {
            case UNCERTAIN -> uncertain.increment();
            case HELD -> restored.increment();
            case LOST -> lost.increment();
            default -> {
                // RELEASED is not a transition listeners hear of
            }
        }
    }
}
