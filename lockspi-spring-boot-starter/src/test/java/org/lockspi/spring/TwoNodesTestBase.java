package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockspi.ConnectionState;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.internal.Poll;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two Spring Boot applications (two contexts, two LockServices) on one real server contend for scheduled jobs and
 * locked methods; their metrics and health are read from the applications' own registries and endpoints.
 */
abstract class TwoNodesTestBase {
    static final Duration WAIT = Duration.ofSeconds(20);
    static TckBackend backend;
    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

    /** @return the provider parameters of the backend */
    abstract String parameters();

    @AfterAll
    static void stopBackend() {
        if (backend != null) {
            backend.close();
            backend = null;
        }
    }

    @BeforeEach
    void clearRuns() {
        NodeApp.RUNS.clear();
    }

    @AfterEach
    void closeContexts() {
        contexts.forEach(ConfigurableApplicationContext::close);
    }

    /** @return the properties that say where the locks are: by default {@code lockspi.uri} */
    Map<String, Object> lockProperties() {
        String uri = backend.uri();
        return Map.of("lockspi.uri", uri + (uri.contains("?") ? "&" : "?") + parameters());
    }

    ConfigurableApplicationContext node(String name, String job) {
        return node(name, job, Map.of());
    }

    ConfigurableApplicationContext node(String name, String job, Map<String, Object> more) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(NodeApp.class)
                .web(WebApplicationType.NONE)
                .properties(lockProperties())
                .properties(more)
                .properties(Map.of(
                        "lockspi.metrics.service-name", name,
                        "spring.application.name", "node-" + name,
                        "test.node", name,
                        "test.job", job,
                        "spring.task.scheduling.pool.size", "2",
                        "management.endpoints.jmx.exposure.include", "health",
                        "management.endpoints.web.exposure.include", "health,locks",
                        "spring.main.banner-mode", "off"))
                .run();
        contexts.add(context);
        return context;
    }

    private static List<NodeApp.Run> runs(String job) {
        return NodeApp.RUNS.stream().filter(r -> r.job.equals(job)).collect(Collectors.toList());
    }

    private static long acquired(ConfigurableApplicationContext node, String lock, String outcome) {
        return acquired(node.getBean(MeterRegistry.class), lock, outcome);
    }

    private static long acquired(MeterRegistry registry, String lock, String outcome) {
        Timer timer = registry.find("lockspi.acquire")
                .tags("lock", lock, "outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    /** @return the status code of the node's {@code lockspi} health component */
    static String health(ConfigurableApplicationContext node) {
        return SpringBootLine.health(node, "lockspi");
    }

    @Test
    void scheduledJobRunsOncePerSecondAcrossNodesWithLockAtLeastFor() {
        ConfigurableApplicationContext a = node("a", "fast");
        ConfigurableApplicationContext b = node("b", "fast");
        // b's scheduler runs once its context is up; a may have run alone before (a slow start on a loaded machine)
        long bothUp = System.nanoTime();
        MeterRegistry registry = a.getBean(MeterRegistry.class);
        MeterRegistry registryB = b.getBean(MeterRegistry.class);
        Poll.until("four runs of the fast job with both nodes up", true,
                () -> runs("fast").stream().filter(r -> r.startNanos > bothUp).count() >= 4, WAIT);
        a.close();
        b.close();
        List<NodeApp.Run> runs = runs("fast");
        // both nodes fire at the top of every second; the one that gets the lock keeps it 800 ms, so the other
        // finds it held even if its scheduler fires up to 800 ms late: one run per second across the two nodes
        Map<Long, List<NodeApp.Run>> perSecond = new TreeMap<>();
        for (NodeApp.Run run : runs) {
            perSecond.computeIfAbsent(run.startMillis / 1000, s -> new ArrayList<>()).add(run);
        }
        perSecond.forEach((second, inSecond) -> assertEquals(1, inSecond.size(), "runs in one second: " + runs));
        for (int i = 1; i < runs.size(); i++) {
            long gap = runs.get(i).startNanos - runs.get(i - 1).startNanos;
            assertTrue(gap >= Duration.ofMillis(700).toNanos(), "lock-at-least-for 800 ms between runs: " + runs);
        }
        // metrics: every run was an acquisition of its node; the node that lost a second counted a timed_out
        long acquiredA = acquired(registry, "jobs/fast", "acquired");
        long acquiredB = acquired(registryB, "jobs/fast", "acquired");
        assertEquals(runs.stream().filter(r -> r.node.equals("a")).count(), acquiredA, "a's runs: " + runs);
        assertEquals(runs.stream().filter(r -> r.node.equals("b")).count(), acquiredB, "b's runs: " + runs);
        assertTrue(acquired(registry, "jobs/fast", "timed_out") + acquired(registryB, "jobs/fast", "timed_out")
                        >= runs.stream().filter(r -> r.startNanos > bothUp).count() - 1,
                "with both nodes up, the other node skipped each second: " + runs);
        assertEquals(acquiredA, registry.find("lockspi.lease.held").tags("service", "a", "lock", "jobs/fast")
                .timer().count(), "every lease of a was released and its hold time recorded");
        assertEquals(1.0, registry.find("lockspi.connection.state").tags("service", "a", "state", "closed")
                .gauge().value(), "a's service is closed with its context");
    }

    @Test
    void hungJobIsInterruptedAndTheOtherNodeGetsInAfterLockAtMostFor() {
        ConfigurableApplicationContext a = node("a", "hung");
        ConfigurableApplicationContext b = node("b", "hung");
        Poll.until("a second run of the hung job", true, () -> runs("hung").size() >= 2, WAIT);
        List<NodeApp.Run> runs = runs("hung");
        NodeApp.Run first = runs.get(0);
        NodeApp.Run second = runs.get(1);
        Poll.until("the first run interrupted", true, () -> first.interrupted, WAIT);
        assertTrue(!first.node.equals(second.node), "the other node got in: " + runs);
        long after = second.startNanos - first.startNanos;
        assertTrue(after >= Duration.ofMillis(1450).toNanos(), "lock-at-most-for 1.5 s held: " + after / 1_000_000);
        assertTrue(after <= Duration.ofMillis(1500 + 2500).toNanos(), "freed at lock-at-most-for: " + after / 1_000_000);
        long interruptedAfter = first.endNanos - first.startNanos;
        assertTrue(interruptedAfter >= Duration.ofMillis(1450).toNanos(), "interrupted at 1.5 s: " + interruptedAfter);
        Timer held = (first.node.equals("a") ? a : b).getBean(MeterRegistry.class).find("lockspi.lease.held")
                .tags("lock", "jobs/hung").timer();
        assertTrue(held.max(java.util.concurrent.TimeUnit.MILLISECONDS) >= 1450, "held until lock-at-most-for: "
                + held.max(java.util.concurrent.TimeUnit.MILLISECONDS));
        // with LEASE_TIME, lock-at-most-for is the lease's own lease time: the lease turns LOST at its end (the
        // server frees the lock by its own clock); without it, the node's timer releases the lease, never LOST
        ConfigurableApplicationContext holder = first.node.equals("a") ? a : b;
        boolean leaseTime = holder.getBean(org.lockspi.LockService.class).features()
                .contains(org.lockspi.LockFeature.LEASE_TIME);
        io.micrometer.core.instrument.Counter lost = holder.getBean(MeterRegistry.class)
                .find("lockspi.lease.transitions").tags("lock", "jobs/hung", "state", "lost").counter();
        double lostCount = lost == null ? 0 : lost.count();
        if (leaseTime) {
            assertTrue(lostCount >= 1, "the lease time lockAtMostFor ended the first run's lease: LOST " + lostCount);
        } else {
            assertEquals(0.0, lostCount, "without LEASE_TIME the timer released the lease, never LOST");
        }
        assertEquals("UP", health(a));
        assertEquals("UP", health(b));
        assertEquals(1.0, a.getBean(MeterRegistry.class).find("lockspi.connection.state")
                .tags("state", "connected").gauge().value());
    }

    @Test
    void lockedMethodsExcludeAcrossNodesByArgumentName() throws Exception {
        ConfigurableApplicationContext a = node("a", "none");
        ConfigurableApplicationContext b = node("b", "none");
        NodeApp.Orders ordersB = b.getBean(NodeApp.Orders.class);
        LockTemplate templateA = a.getBean(LockTemplate.class);
        String inside = templateA.executeLocked("orders/42", lease -> {
            assertNull(ordersB.billOrSkip("42"), "b skips while a holds orders/42");
            assertTrue(b.getBean(LockTemplate.class).tryExecuteLocked("orders/42", Duration.ofMillis(100),
                    l -> "ran").isEmpty(), "b's template does not run it either");
            assertInstanceOf(LockTimeoutException.class, assertThrows(LockTimeoutException.class,
                    () -> ordersB.bill("42")));
            return ordersB.bill("43"); // another name, another lock
        });
        assertEquals("billed 43", inside);
        assertEquals("billed 42", ordersB.billOrSkip("42"));
        assertEquals(java.util.Optional.of("ran"), b.getBean(LockTemplate.class).tryExecuteLocked("orders/42",
                Duration.ofMillis(100), l -> "ran"));
        IllegalArgumentException misnamed = assertThrows(IllegalArgumentException.class, () -> ordersB.misnamed("1"));
        assertTrue(misnamed.getMessage().contains("'#noSuchArgument' is null"), misnamed.getMessage());
        assertEquals(3, acquired(b, "orders/42", "timed_out"));
        assertEquals(2, acquired(b, "orders/42", "acquired"));
        LockService service = a.getBean(LockService.class);
        assertEquals(ConnectionState.CONNECTED, service.connectionState());
        service.close(); // as the context closes it
        assertEquals("DOWN", health(a), "a closed service is down");
    }

    /**
     * Node a keeps the default (a suspended connection is not counted in the overall status), node b counts it;
     * each has a health group "lb" of {@code ping} and {@code lockspi}, as a load balancer's check would be.
     */
    @Test
    void healthWhileTheServerIsDownCountsInTheOverallStatusOnlyWhenAsked() throws Exception {
        Map<String, Object> group = Map.of("management.endpoint.health.group.lb.include", "ping,lockspi");
        ConfigurableApplicationContext a = node("a", "none", group);
        ConfigurableApplicationContext b = node("b", "none", Map.of("management.endpoint.health.group.lb.include",
                "ping,lockspi", "lockspi.health.suspended-affects-status", "true"));
        assertEquals("UP", health(a));
        assertEquals("UP", health(b));
        // held leases: the Redis provider learns of an outage from its renewals, ZooKeeper from its session
        Lease leaseA = a.getBean(LockService.class).nonReentrantMutex("health-a").acquire(Duration.ofSeconds(5));
        Lease leaseB = b.getBean(LockService.class).nonReentrantMutex("health-b").acquire(Duration.ofSeconds(5));
        backend.stopServer();
        try {
            Poll.until("a's health while the server is down", "SUSPENDED", () -> health(a), WAIT);
            assertEquals("UP", SpringBootLine.health(a, "lb"), "a's suspended lock server does not turn its group down");
            Poll.until("b's health while the server is down", "OUT_OF_SERVICE", () -> health(b), WAIT);
            assertEquals("OUT_OF_SERVICE", SpringBootLine.health(b, "lb"), "b counts its suspended lock server");
            assertEquals(1.0, a.getBean(MeterRegistry.class).find("lockspi.connection.state")
                    .tags("state", "suspended").gauge().value());
        } finally {
            backend.startServer();
        }
        Poll.until("a's health once the server is back", "UP", () -> health(a), WAIT);
        Poll.until("b's health once the server is back", "UP", () -> health(b), WAIT);
        leaseA.release();
        leaseB.release();
    }

    private static final Pattern SKIPS_COUNTED = Pattern.compile(
            " INFO .*the lock server grants again; (\\d+) run\\(s\\) or call\\(s\\) skipped");

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void runsSkippedInAnOutageLogOneWarningLineThenACountWhenALockIsGrantedAgain(CapturedOutput output) {
        ConfigurableApplicationContext a = node("a", "steady",
                Map.of("logging.level.org.lockspi.spring.internal.LockspiInterceptor", "DEBUG"));
        Poll.until("runs of both steady jobs", true,
                () -> !runs("steady").isEmpty() && !runs("steady-locked").isEmpty(), WAIT);
        backend.stopServer();
        try {
            // the first skip of the outage at WARN, the others at DEBUG: both jobs are seen skipped
            Poll.until("a skipped @ScheduledLock run logged", true, () -> output.getOut().contains(
                    "skipped SteadyJobs.scheduled: lock 'jobs/steady' not acquired, the lock server failed"), WAIT);
            Poll.until("a skipped @Locked(SKIP) run logged", true, () -> output.getOut().contains(
                    "skipped SteadyJobs.locked: lock 'jobs/steady-locked' not acquired, the lock server failed"), WAIT);
        } finally {
            backend.startServer();
        }
        Poll.until("the count of the outage's skips once a lock is granted again", true,
                () -> output.getOut().contains("the lock server grants again; "), WAIT);
        a.close();
        String[] lines = output.getOut().split("\\R");
        int warn = 0;
        int skipped = 0;
        long counted = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("the lock server failed")) {
                skipped++;
                if (lines[i].contains(" WARN ")) {
                    warn++; // the outage's first skip (two threads' lines may come out in either order)
                } else {
                    assertTrue(lines[i].contains(" DEBUG "), "the skips after the first at DEBUG: " + lines[i]);
                }
                String next = i + 1 < lines.length ? lines[i + 1] : "";
                assertTrue(!next.startsWith("\tat ") && !next.startsWith("Caused by") && !next.startsWith("org."),
                        "one line, no stack trace:\n" + lines[i] + "\n" + next);
            }
            Matcher m = SKIPS_COUNTED.matcher(lines[i]);
            if (m.find()) {
                assertEquals(-1, counted, "one count per outage: " + lines[i]);
                counted = Long.parseLong(m.group(1));
            }
        }
        assertEquals(1, warn, "one WARN line for the outage");
        assertEquals(skipped, counted, "the count is of every skip of the outage, the WARN one included");
        assertTrue(skipped >= 2, "the skipped runs: " + skipped);
        assertTrue(!output.getOut().contains("Unexpected error occurred in scheduled task"),
                "no run failed to the scheduler");
        assertTrue(!output.getErr().contains("Unexpected error occurred in scheduled task"),
                "no run failed to the scheduler");
    }

    @Test
    void locksEndpointShowsTheHoldersOfBothNodes() throws Exception {
        ConfigurableApplicationContext a = node("a", "none");
        ConfigurableApplicationContext b = node("b", "none");
        LocksEndpoint endpointA = a.getBean(LocksEndpoint.class);
        LocksEndpoint endpointB = b.getBean(LocksEndpoint.class);
        try (Lease lease = a.getBean(LockService.class).mutex("ops/report").acquire(Duration.ofSeconds(5))) {
            assertEquals(List.of("ops/report"), endpointB.locks("ops/").names());
            LocksEndpoint.Lock seenByB = endpointB.lock(new String[] {"ops", "report"});
            assertEquals("MUTEX", seenByB.kind());
            assertEquals(1, seenByB.holders().size(), seenByB.toString());
            assertTrue(!seenByB.holders().get(0).own(), "b sees another client's holder: " + seenByB);
            assertTrue(endpointA.lock(new String[] {"ops", "report"}).holders().get(0).own(), "a sees its own");
            if (seenByB.holders().get(0).fencingToken() != null) {
                assertEquals(lease.fencingToken(), seenByB.holders().get(0).fencingToken().longValue());
            }
        }
        Poll.until("no holder once released", "NONE", () -> endpointB.lock(new String[] {"ops", "report"}).kind(),
                WAIT);
    }
}
