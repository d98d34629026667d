package org.lockspi.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.lockspi.bench.internal.Results;
import org.lockspi.bench.internal.Settings;

/**
 * Runs the bench with smoke-sized counts (the real servers, every scenario, a handful of operations each) and
 * checks that the report and chart are written with a measured row for every variant of every scenario.
 */
class BenchSmokeTest {

    @Test
    void smokeRunWritesEveryRow() throws Exception {
        Path report = Path.of("target", "smoke", "tradeoffs.md");
        Files.deleteIfExists(report);
        Results results = BenchMain.run(Settings.smoke(), report);

        assertTrue(Files.size(report) > 0, "report written");
        Path chart = report.resolveSibling("tradeoffs.png");
        assertTrue(Files.size(chart) > 1000, "chart written");
        String md = Files.readString(report);
        assertTrue(md.contains("## Targets and anchors"), md);

        List<String> broken = new ArrayList<>();
        List<String> variants = new ArrayList<>();
        for (Results.Cycle c : results.uncontended) {
            variants.add(c.variant);
            if (c.error != null || c.cycle.size() == 0) {
                broken.add("uncontended " + c.variant + ": " + c.error);
            }
        }
        for (String v : List.of("ZooKeeper floor", "Redis floor", "Redis fenced floor", "Curator InterProcessMutex",
                "Redisson RLock")) {
            assertTrue(variants.contains(v), "uncontended row for " + v + " in " + variants);
        }
        for (String provider : List.of("zookeeper-raw", "zkclient", "curator", "redis-baseline",
                "redis-lettuce")) {
            assertTrue(variants.contains(provider) || results.providersMissing.contains(provider),
                    provider + " is neither measured nor reported missing");
        }
        long contenders = variants.stream().filter(v -> !v.endsWith("floor")).count();
        assertEquals(contenders * results.settings.clients().length, results.contended.size(), "contended rows");
        for (Results.Contended c : results.contended) {
            if (c.error != null || c.seconds == 0) {
                broken.add("contended " + c.variant + " K=" + c.clients + ": " + c.error);
            }
        }
        assertEquals(contenders * results.settings.waiters().length, results.drains.size(), "drain rows");
        for (Results.Drain d : results.drains) {
            if (d.error != null || d.cutShort || d.handoff.size() == 0 || Double.isNaN(d.requestsPerAcquisition())) {
                broken.add("drain " + d.variant + " N=" + d.waiters + ": " + d.error);
            }
        }
        for (Results.Cycle c : results.uncontended) {
            if (c.backend == org.lockspi.bench.internal.Variant.Backend.REDIS && c.monitoredCycles == 0) {
                broken.add("uncontended " + c.variant + ": no commands counted under MONITOR");
            }
        }
        assertEquals(contenders + 1, results.manyThreads.size(), "many-threads rows");
        for (Results.Contended c : results.manyThreads) {
            if (c.error != null || c.seconds == 0) {
                broken.add("threads " + c.variant + ": " + c.error);
            }
        }
        long providers = variants.stream().filter(v -> !v.contains(" ")).count();
        assertEquals(providers, results.takeovers.size(), "take-over rows");
        for (Results.Takeover t : results.takeovers) {
            if (t.error != null || t.takeover.size() == 0) {
                broken.add("take-over " + t.variant + ": " + t.error);
            }
        }
        assertEquals(providers, results.virtualThreads.size(), "virtual-thread rows");
        if (results.virtualThreadsNotRun != null) {
            // no Java 21+ installed: the scenario says why, and the report too
            assertTrue(md.contains("Not run: " + results.virtualThreadsNotRun), md);
        } else {
            for (Results.Virtual v : results.virtualThreads) {
                if (v.error != null || v.cutShort || v.acquisitions != (long) v.waiters * v.drainTime.size()
                        || v.drainTime.size() == 0 || Double.isNaN(v.requestsPerAcquisition())) {
                    broken.add("virtual threads " + v.variant + ": " + v.error + " (" + v.acquisitions
                            + " acquisitions in " + v.drainTime.size() + " drains)");
                }
            }
        }
        assertTrue(broken.isEmpty(), "rows without figures:\n" + broken.stream().collect(Collectors.joining("\n")));
        assertFalse(md.contains("| failed"), md);
    }
}
