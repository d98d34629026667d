package org.lockspi.soak;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.internal.Poll;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthComponent;

/**
 * The outage soak, written once and run per backend by its subclasses: two application instances ({@link Instance},
 * two Spring Boot applications in this JVM, each with its own {@code LockService} from the starter, the engine's
 * default failFast) on one real lock server, each with {@value #ORDER_THREADS} load threads calling a short
 * {@code @Locked} method on two locks, one thread calling a long {@code @Locked(stopWork = WHEN_LOST)} batch, and a
 * {@code @ScheduledLock} job fired every {@value SoakApp#PERIOD_MILLIS} ms on both. After a warm-up the server is
 * stopped three times: 1.5 s and 2.5 s (longer than failFast, shorter than the session or lease {@code T}), then
 * {@code T} + 2 s, so that held leases are lost; after each start the soak waits until both instances have made a
 * locked call again and runs on steadily for {@link #STEADY}. About a minute per backend.
 *
 * <p>Checked afterwards, the figures printed first in one line per backend ({@code [soak <provider>]}):
 * <ol>
 *   <li>no call blocked (its time outside the method's body: waiting for the lock, failing, releasing it) longer
 *       than failFast + its wait + {@link #SLACK}, and none ended with an unexpected exception;</li>
 *   <li>no two sections under one lock overlapped, across the two instances or within one, and no period of the
 *       job ran more than once across both (each run counted for the period it was fired for) unless the later run
 *       began lockAtLeastFor or more after the period's start: a scheduler that fires that late (starved of CPU on
 *       a loaded machine) is beyond what lockAtLeastFor covers, with any scheduler lock; such runs are counted and
 *       printed;</li>
 *   <li>no WARN line of lockspi or the starter before the first outage; per outage (from its stop to the next
 *       stop) at most {@link #OWN_LINES} per instance of them besides the starter's skipped runs, at most one
 *       skipped-run line per instance from the stop to its first locked call after the return (the outage's first
 *       skip; the others are at DEBUG), and no stack trace from either; the client libraries' lines (the ZooKeeper client's reconnection attempts, Curator's background
 *       retries) are counted and printed, not bounded: the README says how to quiet them;</li>
 *   <li>during each outage every instance's {@code lockspi} health is {@code SUSPENDED} with the provider and
 *       {@code connection=suspended} in its details while the overall status stays {@code UP}, its
 *       {@code lockspi.connection.state{state=suspended}} gauge is 1 and its {@code lockspi.acquire{outcome=failed}}
 *       timers of the provider count more than before the outage; the long outage loses a lease (a WARN line, a
 *       batch call ended by {@code LeaseLostException}, {@code lockspi.lease.transitions{state=lost}} grown);</li>
 *   <li>after each start, both instances complete a locked call within {@link #RECOVERY}, or, after the long
 *       outage, within {@code T} + {@link #RECOVERY}: a lock whose holder's or waiter's session died in it is
 *       free once the server expires that session, {@code T} after its return.</li>
 * </ol>
 */
@Timeout(value = 200, unit = TimeUnit.SECONDS)
abstract class OutageSoak {
    /** The engine's default failFast, which the instances keep (README, "URIs and parameters"). */
    static final Duration FAIL_FAST = Duration.ofMillis(250);
    /** The wait of the {@code @Locked} methods ({@link SoakApp#WAIT}). */
    static final Duration WAIT = Duration.ofMillis(200);
    /** What a loaded two-core machine adds to a call's bound: scheduling, round trips, the release. */
    static final Duration SLACK = Duration.ofMillis(750);
    /** How soon after the server is back both instances complete a locked call (plus T after the long outage). */
    static final Duration RECOVERY = Duration.ofSeconds(3);
    /**
     * lockspi's and the starter's WARN lines per instance and outage, besides the skipped runs: the lost connection,
     * one per lease it held (the batch, the job, an order of each of the two locks) and one failed release.
     */
    static final int OWN_LINES = 6;
    static final int ORDER_THREADS = 4;
    static final Duration WARM_UP = Duration.ofSeconds(8);
    static final Duration STEADY = Duration.ofSeconds(10);
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** @return the backend, started */
    abstract TckBackend startBackend();

    /** @return the provider the instances pin */
    abstract String provider();

    /** @return the provider's parameters, a URI query */
    abstract String parameters();

    /** @return the session timeout or lease time the parameters set */
    abstract Duration leaseSpan();

    @Test
    void operatesThroughServerOutages() throws Exception {
        Journal journal = new Journal();
        List<Outage> outages = new ArrayList<>();
        for (Duration length : List.of(Duration.ofMillis(1500), Duration.ofMillis(2500), leaseSpan().plusSeconds(2))) {
            outages.add(new Outage(length, leaseSpan()));
        }
        long begin = System.nanoTime();
        long loadStart;
        long loadEnd;
        List<LogCapture.Line> lines;
        Thread watchdog = null;
        try (TckBackend backend = startBackend()) {
            String uri = backend.uri() + (backend.uri().contains("?") ? "&" : "?") + parameters();
            List<Instance> instances = new ArrayList<>();
            try {
                instances.add(Instance.start("a", provider(), uri, journal));
                instances.add(Instance.start("b", provider(), uri, journal));
                try (LogCapture capture = LogCapture.attach()) {
                    loadStart = System.nanoTime();
                    instances.forEach(i -> i.startLoad(ORDER_THREADS));
                    watchdog = watchdog(journal);
                    awaitRecovery(instances, journal, loadStart, null);
                    sleepUntil(System.nanoTime() + WARM_UP.toNanos());
                    for (Outage outage : outages) {
                        outage(backend, instances, journal, outage);
                    }
                    for (Instance instance : instances) {
                        instance.stopLoad();
                    }
                    loadEnd = System.nanoTime();
                    for (Instance instance : instances) {
                        outages.get(outages.size() - 1).firedAtNext.put(instance.name,
                                journal.firedCount(instance.name));
                    }
                    lines = capture.between(loadStart, loadEnd);
                }
            } finally {
                if (watchdog != null) {
                    watchdog.interrupt();
                }
                for (Instance instance : instances) {
                    instance.close();
                }
            }
        }
        for (int i = 0; i < outages.size(); i++) {
            Outage outage = outages.get(i);
            Outage next = i + 1 < outages.size() ? outages.get(i + 1) : null;
            outage.next = next == null ? loadEnd : next.stop;
            if (next != null) {
                outage.firedAtNext.putAll(next.firedAtStop);
            }
        }
        SoakFigures figures = new SoakFigures(journal, outages, lines, loadStart, loadEnd);
        System.out.println("[soak " + provider() + "] " + figures.summary(begin, leaseSpan()));
        for (int i = 0; i < outages.size(); i++) {
            System.out.println("[soak " + provider() + "] outage " + (i + 1) + " WARN+ lines by logger (with a stack "
                    + "trace): " + SoakFigures.byLogger(figures.window(outages.get(i))));
        }
        checks(figures, journal, outages);
    }

    /** Stops the server for the outage's length, watching health and meters, and waits for the service to return. */
    private void outage(TckBackend backend, List<Instance> instances, Journal journal, Outage outage) {
        Map<String, Long> failedBefore = new LinkedHashMap<>();
        Map<String, Double> lostBefore = new LinkedHashMap<>();
        for (Instance instance : instances) {
            failedBefore.put(instance.name, instance.failedAcquisitions(provider()));
            lostBefore.put(instance.name, instance.transitions("lost"));
            outage.firedAtStop.put(instance.name, journal.firedCount(instance.name));
        }
        if (outage.losesLeases) {
            // the long outage must find the batch held, so that there is a lease to lose
            Poll.until("the batch held before the long outage", true, () -> journal.inside("batch"), PATIENCE);
        }
        outage.stop = System.nanoTime();
        backend.stopServer();
        outage.stopped = System.nanoTime();
        long end = outage.stop + outage.length.toNanos();
        watchHealth(instances, outage, end);
        sleepUntil(end); // the outage's length: the scenario, not a wait for an event
        for (Instance instance : instances) {
            outage.failed.put(instance.name, instance.failedAcquisitions(provider()) - failedBefore.get(instance.name));
        }
        backend.startServer();
        outage.started = System.nanoTime();
        awaitRecovery(instances, journal, outage.started, outage);
        for (Instance instance : instances) {
            Poll.until("the health of " + instance.name + " once the server is back", "UP",
                    () -> instance.lockspiHealth().getStatus().getCode(), PATIENCE);
            outage.lost.put(instance.name, instance.transitions("lost") - lostBefore.get(instance.name));
        }
        sleepUntil(System.nanoTime() + STEADY.toNanos());
    }

    /**
     * Reads every instance's health until each has been seen {@code SUSPENDED} or {@code end} passes, and keeps what
     * it read then: the component, the overall status and the connection gauge.
     */
    private static void watchHealth(List<Instance> instances, Outage outage, long end) {
        while (true) {
            for (Instance instance : instances) {
                if (outage.healthAfter.getOrDefault(instance.name, -1L) >= 0) {
                    continue;
                }
                HealthComponent health = instance.lockspiHealth();
                boolean suspended = "SUSPENDED".equals(health.getStatus().getCode());
                outage.health.put(instance.name, health);
                outage.healthAfter.put(instance.name, suspended ? System.nanoTime() - outage.stop : -1);
                outage.overall.put(instance.name, instance.overallHealth());
                outage.gauge.put(instance.name, instance.connectionGauge("suspended"));
            }
            if (outage.healthAfter.values().stream().allMatch(t -> t >= 0) || System.nanoTime() - end > 0) {
                return;
            }
            sleepUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5)); // sampling
        }
    }

    /** Waits until each instance has completed a locked call that entered after {@code since}; notes when. */
    private static void awaitRecovery(List<Instance> instances, Journal journal, long since, Outage outage) {
        for (Instance instance : instances) {
            long first = Poll.settle(() -> journal.firstSuccessSince(instance.name, "orders", since), f -> f != 0,
                    PATIENCE);
            if (outage != null) {
                outage.recovery.put(instance.name, first == 0 ? -1 : first - since);
            } else if (first == 0) {
                throw new AssertionError(instance.name + " made no locked call within " + PATIENCE);
            }
        }
    }

    private void checks(SoakFigures figures, Journal journal, List<Outage> outages) {
        List<String> failures = new ArrayList<>();
        Duration bound = FAIL_FAST.plus(WAIT).plus(SLACK);
        figures.otherOutcomes().forEach(c -> failures.add("a call ended with an unexpected exception: "
                + SoakFigures.describe(c)));
        Journal.Call slowest = figures.slowest(journal.calls());
        if (slowest != null && slowest.blockedNanos() > bound.toNanos()) {
            failures.add("a call blocked " + ms(slowest.blockedNanos()) + " ms, more than failFast + wait + slack = "
                    + bound.toMillis() + " ms: " + SoakFigures.describe(slowest));
        }
        figures.overlaps().forEach(o -> failures.add("overlapping sections: " + o));
        figures.periodsRunTwice().forEach(p -> failures.add("a period ran more than once: " + p));
        List<LogCapture.Line> before = figures.beforeOutages();
        if (before.stream().anyMatch(l -> l.source() != LogCapture.Source.CLIENT)) {
            failures.add("WARN lines of lockspi or the starter before any outage:" + SoakFigures.lines(before));
        }
        for (int i = 0; i < outages.size(); i++) {
            checkOutage(figures, outages.get(i), "outage " + (i + 1) + " (" + outages.get(i).length.toMillis()
                    + " ms)", failures);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    private void checkOutage(SoakFigures figures, Outage outage, String which, List<String> failures) {
        List<LogCapture.Line> window = figures.window(outage);
        long own = SoakFigures.count(window, LogCapture.Source.LOCKSPI) + SoakFigures.count(window,
                LogCapture.Source.STARTER);
        if (own > (long) OWN_LINES * outage.health.size()) {
            failures.add(which + ": " + own + " WARN lines of lockspi and the starter besides skipped runs, more "
                    + "than " + OWN_LINES + " per instance:" + SoakFigures.lines(window));
        }
        window.stream().filter(l -> l.stack() && l.source() != LogCapture.Source.CLIENT)
                .forEach(l -> failures.add(which + ": a stack trace from lockspi or the starter: " + l));
        Duration recoveryBound = outage.losesLeases ? RECOVERY.plus(leaseSpan()) : RECOVERY;
        for (String instance : outage.health.keySet()) {
            // the outage's first skip at WARN, the others at DEBUG until the instance's next grant (its first locked
            // call after the return); a drop after that is another outage for the starter
            long recovered = outage.recovery.getOrDefault(instance, -1L);
            long skips = figures.skipLines(window, instance, recovered < 0 ? outage.next : outage.started + recovered);
            if (skips > 1) {
                failures.add(which + ": " + instance + " logged " + skips + " skipped-run WARN lines before its first "
                        + "locked call after the return (" + outage.firings(instance) + " firings of its job), more "
                        + "than one");
            }
            HealthComponent health = outage.health.get(instance);
            Map<String, Object> details = health instanceof Health h ? h.getDetails() : Map.of();
            if (outage.healthAfter.get(instance) < 0 || !"suspended".equals(details.get("connection"))
                    || !provider().equals(details.get("provider"))) {
                failures.add(which + ": the lockspi health of " + instance + " during the outage: "
                        + health.getStatus() + " " + details);
            }
            if (!"UP".equals(outage.overall.get(instance))) {
                failures.add(which + ": the overall health of " + instance + " during the outage: "
                        + outage.overall.get(instance));
            }
            if (outage.gauge.get(instance) != 1.0) {
                failures.add(which + ": lockspi.connection.state{state=suspended} of " + instance + " was "
                        + outage.gauge.get(instance));
            }
            if (outage.failed.get(instance) <= 0) {
                failures.add(which + ": lockspi.acquire{outcome=failed,provider=" + provider() + "} of "
                        + instance + " did not grow during the outage");
            }
            long recovery = outage.recovery.get(instance);
            if (recovery < 0 || recovery > recoveryBound.toNanos()) {
                failures.add(which + ": " + instance + " completed a locked call "
                        + (recovery < 0 ? "never" : ms(recovery) + " ms") + " after the server was back, bound "
                        + recoveryBound.toMillis() + " ms");
            }
        }
        if (outage.losesLeases && (window.stream().noneMatch(l -> l.message().startsWith("lease lost"))
                || figures.lostBatches(outage) == 0
                || outage.lost.values().stream().mapToDouble(Double::doubleValue).sum() <= 0)) {
            failures.add(which + ": longer than the session or lease, it lost no lease (lost transitions "
                    + outage.lost + ", batch calls lost " + figures.lostBatches(outage) + "):"
                    + SoakFigures.lines(window));
        }
    }

    /** @return a thread that notes where calls are blocked once past the bound, until interrupted */
    private static Thread watchdog(Journal journal) {
        long bound = FAIL_FAST.plus(WAIT).plus(SLACK).toNanos();
        Thread t = new Thread(() -> {
            while (true) {
                journal.noteStuck(bound);
                try {
                    Thread.sleep(50); // sampling
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "soak-watchdog");
        t.setDaemon(true);
        t.start();
        return t;
    }

    static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** Lets the scenario run until {@code deadline} ({@code System.nanoTime()}): the soak's own durations. */
    private static void sleepUntil(long deadline) {
        long left = deadline - System.nanoTime();
        if (left > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during the soak", e);
            }
        }
    }
}
