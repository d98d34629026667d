package org.lockspi.micrometer.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.lockspi.Lease;
import org.lockspi.LeaseState;

/** The meters of one lock tag and kind: a {@link LockProbe} that records into them. */
final class LockMeters implements LockProbe {
    private final Timer[] acquire = new Timer[Outcome.values().length];
    private final Timer held;
    private final Counter uncertain;
    private final Counter restored;
    private final Counter lost;
    private final Set<Lease> active = ConcurrentHashMap.newKeySet();

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

    private static double countLive(Set<Lease> leases) {
        leases.removeIf(l -> l.state().isTerminal());
        return leases.size();
    }

    @Override
    public Attempt attempt() {
        long start = System.nanoTime();
        return new Attempt() {
            @Override
            public Hold acquired(Lease lease) {
                record(Outcome.ACQUIRED, start);
                return hold(lease);
            }

            @Override
            public void ended(Outcome outcome, Throwable failure) {
                record(outcome, start);
            }
        };
    }

    private void record(Outcome outcome, long startNanos) {
        acquire[outcome.ordinal()].record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    private Hold hold(Lease lease) {
        long start = System.nanoTime();
        active.add(lease);
        return new Hold() {
            @Override
            public void transition(LeaseState current) {
                switch (current) {
                    case UNCERTAIN -> uncertain.increment();
                    case HELD -> restored.increment();
                    case LOST -> lost.increment();
                    default -> {
                        // RELEASED is not a transition listeners hear of
                    }
                }
            }

            @Override
            public void released() {
                active.remove(lease);
                held.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }

            @Override
            public void closed() {
                released(); // the close of the service ended the hold: its time is recorded as at a release
            }
        };
    }
}
