package org.lockspi.bench.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The raw results file every run writes beside its report: CSV, one row per measurement ({@code section, variant,
 * role, backend, x_name, x, metric, value, unit}), the run's setup first as rows of section {@code setup} (metric =
 * what, value = its text). Quantiles come from the runs' histograms; ratios are not rows, they are computed from
 * these.
 */
public final class RawResults {
    private static final String HEADER = "section,variant,role,backend,x_name,x,metric,value,unit";
    private final List<String> rows = new ArrayList<>();

    /** Adds a setup row. */
    public RawResults setup(String what, String text) {
        rows.add(String.join(",", "setup", "", "", "", "", "", csv(what), csv(text), ""));
        return this;
    }

    /** Adds a measurement; a NaN value is written empty (not measured). */
    public RawResults add(String section, String variant, Variant.Role role, Variant.Backend backend, String xName,
                          double x, String metric, double value, String unit) {
        rows.add(String.join(",", csv(section), csv(variant), role == null ? "" : role.name().toLowerCase(Locale.ROOT),
                backend == null ? "" : backend.name().toLowerCase(Locale.ROOT), csv(xName),
                Double.isNaN(x) ? "" : num(x), csv(metric), Double.isNaN(value) ? "" : num(value), csv(unit)));
        return this;
    }

    /** Adds a histogram's p50, p99 and count in microseconds. */
    public RawResults quantiles(String section, String variant, Variant.Role role, Variant.Backend backend,
                                String xName, double x, String metric, Samples samples) {
        add(section, variant, role, backend, xName, x, metric + "_p50", samples.p50() / 1e3, "us");
        add(section, variant, role, backend, xName, x, metric + "_p99", samples.p99() / 1e3, "us");
        return add(section, variant, role, backend, xName, x, metric + "_count", samples.size(), "samples");
    }

    /** Writes the file. */
    public void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        List<String> all = new ArrayList<>();
        all.add(HEADER);
        all.addAll(rows);
        Files.write(file, all);
    }

    /** @return the file beside a report: {@code tradeoffs.md} -> {@code tradeoffs<suffix>.csv} */
    public static Path beside(Path report, String suffix) {
        String name = report.getFileName().toString();
        String base = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        return report.toAbsolutePath().resolveSibling(base + suffix + ".csv");
    }

    /** @return the rows of the trade-off run: every row of every scenario, with its setup */
    public static RawResults of(Results r) {
        RawResults raw = new RawResults();
        raw.setup("date", r.date).setup("mode", r.settings.mode()).setup("run_seconds", Long.toString(r.runMillis / 1000))
                .setup("machine", r.machine).setup("jvm", r.jvm).setup("zookeeper", r.zooKeeperServer)
                .setup("redis", r.redisServer);
        for (String note : r.notes) {
            raw.setup("note", note);
        }
        for (Results.Cycle c : r.uncontended) {
            raw.quantiles("uncontended", c.variant, c.role, c.backend, "", Double.NaN, "cycle", c.cycle);
            raw.add("uncontended", c.variant, c.role, c.backend, "", Double.NaN, "requests_per_acquisition",
                    c.requestsPerAcquisition(), "requests");
            for (Map.Entry<Integer, Double> e : c.perRound.entrySet()) {
                raw.add("uncontended", c.variant, c.role, c.backend, "round", e.getKey(), "cycle_p50",
                        e.getValue() / 1e3, "us");
            }
        }
        contended(raw, "contended", "clients", r.contended);
        contended(raw, "many_threads", "threads", r.manyThreads);
        for (Results.Drain d : r.drains) {
            raw.quantiles("drain", d.variant, d.role, d.backend, "waiters", d.waiters, "handoff", d.handoff);
            raw.add("drain", d.variant, d.role, d.backend, "waiters", d.waiters, "requests_per_acquisition",
                    d.requestsPerAcquisition(), "requests");
        }
        for (Results.Virtual v : r.virtualThreads) {
            raw.quantiles("virtual_threads", v.variant, Variant.Role.PROVIDER, v.backend, "waiters", v.waiters,
                    "handoff", v.handoff);
            raw.add("virtual_threads", v.variant, Variant.Role.PROVIDER, v.backend, "waiters", v.waiters, "rate",
                    v.rate(), "acquisitions/s");
        }
        for (Results.Takeover t : r.takeovers) {
            raw.add("takeover", t.variant, Variant.Role.PROVIDER, t.backend, "", Double.NaN, "takeover_p50",
                    t.takeover.p50() / 1e6, "ms");
        }
        return raw;
    }

    private static void contended(RawResults raw, String section, String xName, List<Results.Contended> rows) {
        for (Results.Contended c : rows) {
            raw.add(section, c.variant, c.role, c.backend, xName, c.clients, "rate", c.rate(), "acquisitions/s");
            for (Map.Entry<Integer, Double> e : c.perRound.entrySet()) {
                raw.add(section, c.variant, c.role, c.backend, xName, c.clients, "rate_round_" + e.getKey(),
                        e.getValue(), "acquisitions/s");
            }
            raw.quantiles(section, c.variant, c.role, c.backend, xName, c.clients, "handoff", c.handoff);
            raw.add(section, c.variant, c.role, c.backend, xName, c.clients, "max_over_min", c.maxOverMin(), "");
            raw.add(section, c.variant, c.role, c.backend, xName, c.clients, "requests_per_acquisition",
                    c.requestsPerAcquisition(), "requests");
        }
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String csv(String s) {
        if (s == null) {
            return "";
        }
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
