package org.lockspi.bench.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.lockspi.bench.internal.CurveResults.Curve;
import org.lockspi.bench.internal.CurveResults.Point;

/**
 * The curves' section of {@code docs/tradeoffs.md} (Markdown), their charts (one PNG per curve) and the targets'
 * verdicts. Over 300 lines: one section per curve, each a table and a chart, kept together with the verdicts they
 * feed.
 */
public final class CurveReport {
    static final String ZK_ANCHOR = "Curator InterProcessMutex";
    static final String REDIS_ANCHOR = "Redisson RLock";
    static final String JDBC_ANCHOR = "Spring JdbcLockRegistry";
    /** Providers that wake one waiter per release (no herd): the ZooKeeper ones and the fair Redis queue. */
    static final Set<String> HERD_FREE = Set.of("zookeeper-raw", "zkclient", "curator", "redis-fair",
            "redis-lettuce-fair");

    /** One target's verdict. */
    public record Verdict(String target, String measured, String limit, Boolean holds) {
        String cell() {
            return holds == null ? "not measured" : holds ? "holds" : "**MISSED**";
        }
    }

    private final CurveResults r;
    private final String chartBase;

    private CurveReport(CurveResults r, String chartBase) {
        this.r = r;
        this.chartBase = chartBase;
    }

    /** @return the settings in one line */
    static String describe(CurveSettings s) {
        return "clients K = " + Arrays.toString(s.clients()) + ", distinct locks L = " + Arrays.toString(s.locks())
                + " on " + s.workers() + " threads, " + s.rounds() + " interleaved rounds of " + s.block().toMillis()
                + " ms after a warm-up block; held leases N = " + Arrays.toString(s.heldZooKeeper()) + " (ZooKeeper), "
                + Arrays.toString(s.heldRedis()) + " (Redis), " + Arrays.toString(s.heldJdbc())
                + " (JDBC); waiters N = " + Arrays.toString(s.waiters())
                + " (Curator's thread-owned up to " + s.threadOwnedZkMax() + "), >= " + s.handoffSamples()
                + " hand-offs per point; long run " + s.longRun().toSeconds() + " s, every provider at once, "
                + s.longRunSamples() + " samples";
    }

    private static String anchorOf(Point p) {
        return switch (p.backend) {
            case ZOOKEEPER -> ZK_ANCHOR;
            case REDIS -> REDIS_ANCHOR;
            case JDBC -> JDBC_ANCHOR;
        };
    }

    private static int max(int[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    /** @return the variants of a curve, in the order measured */
    private List<Point> firsts(Curve curve, String kind) {
        Map<String, Point> first = new LinkedHashMap<>();
        for (Point p : r.of(curve)) {
            if (p.kind.equals(kind)) {
                first.putIfAbsent(p.variant, p);
            }
        }
        return new ArrayList<>(first.values());
    }

    /** @return every target's verdict from this run */
    public static List<Verdict> verdicts(CurveResults r) {
        return new CurveReport(r, "").verdicts();
    }

    private List<Verdict> verdicts() {
        List<Verdict> out = new ArrayList<>();
        CurveSettings s = r.settings;
        int k = max(s.clients());
        for (Point p : firsts(Curve.CLIENTS, "")) {
            if (p.role != Variant.Role.PROVIDER) {
                continue;
            }
            Point mine = r.point(Curve.CLIENTS, p.variant, "", k);
            Point anchor = r.point(Curve.CLIENTS, anchorOf(p), "", k);
            double ratio = mine == null || anchor == null ? Double.NaN : Ratios.paired(mine.perRound, anchor.perRound);
            out.add(new Verdict(p.variant + " / " + anchorOf(p) + ", throughput at " + k + " clients",
                    x(ratio), ">= 1.00x", Double.isNaN(ratio) ? null : ratio >= 1.0));
        }
        int l = max(s.locks());
        for (Point p : firsts(Curve.LOCKS, "")) {
            if (p.role != Variant.Role.PROVIDER) {
                continue;
            }
            Point one = r.point(Curve.LOCKS, p.variant, "", s.workers());
            Point many = r.point(Curve.LOCKS, p.variant, "", l);
            double ratio = one == null || many == null ? Double.NaN : Ratios.paired(one.perRound, many.perRound);
            out.add(new Verdict(p.variant + ", throughput with one lock per thread (L = " + s.workers() + ") / with "
                    + l + " locks", x(ratio), "<= 1.50x", Double.isNaN(ratio) ? null : ratio <= 1.5));
        }
        for (Point p : firsts(Curve.HELD, "")) {
            if (p.role != Variant.Role.PROVIDER) {
                continue;
            }
            Point big = null;
            Point small = null;
            for (Point q : r.of(Curve.HELD)) {
                if (q.variant.equals(p.variant) && q.error == null) {
                    big = big == null || q.x > big.x ? q : big;
                    small = small == null || q.x < small.x ? q : small;
                }
            }
            double heap = big == null ? Double.NaN : big.metric("heap_bytes_per_lease");
            out.add(new Verdict(p.variant + ", heap per held lease at N = " + (big == null ? "?" : (long) big.x),
                    Double.isNaN(heap) ? "n/a" : String.format(Locale.ROOT, "%.0f B", heap), "<= 2048 B",
                    Double.isNaN(heap) ? null : heap <= 2048));
            double added = big == null ? Double.NaN : big.metric("threads_added") - small.metric("threads_added");
            out.add(new Verdict(p.variant + ", threads added holding N = " + (big == null ? "?" : (long) big.x)
                            + " leases beyond those at N = " + (small == null ? "?" : (long) small.x),
                    Double.isNaN(added) ? "n/a" : String.format(Locale.ROOT, "%+.0f", added),
                    "none per lease (<= 2)", Double.isNaN(added) ? null : added <= 2));
        }
        int n = max(s.waiters());
        for (String kind : List.of(HandoffCurve.NON_REENTRANT, HandoffCurve.MUTEX)) {
            for (Point p : firsts(Curve.HANDOFF, kind)) {
                if (p.role != Variant.Role.PROVIDER || !HERD_FREE.contains(p.variant)) {
                    continue;
                }
                Point big = null;
                for (Point q : r.of(Curve.HANDOFF)) {
                    if (q.variant.equals(p.variant) && q.kind.equals(kind)) {
                        big = big == null || q.x > big.x ? q : big;
                    }
                }
                Point one = r.point(Curve.HANDOFF, p.variant, kind, 1);
                double ratio = big == null || one == null || big.error != null || big.cutShort ? Double.NaN
                        : big.handoff.p99() / one.handoff.p99();
                String what = p.variant + " " + kindName(kind) + ", hand-off p99 with " + (big == null ? "?"
                        : (long) big.x) + " waiters / 1 waiter";
                out.add(new Verdict(what + (big != null && big.x < n ? " (" + n + " not run: see the hand-off section)"
                        : ""), x(ratio), "<= 3.00x", Double.isNaN(ratio) || big.x < n ? null : ratio <= 3.0));
            }
        }
        int window = longRunWindow(r.settings);
        for (Point p : firsts(Curve.LONG_RUN, "")) {
            List<Point> samples = longRunSamples(p.variant);
            List<String> parts = new ArrayList<>();
            Boolean flat = samples.size() < 2 * window || p.error != null ? null : true;
            for (String m : LONG_RUN_GAUGES) {
                double drift = longRunDrift(samples, m, window);
                parts.add(GAUGE_NAMES.get(m) + " " + percent(drift));
                if (flat != null) {
                    flat = !Double.isNaN(drift) && flat && drift <= 0.05;
                }
            }
            out.add(new Verdict(p.variant + ", long run of " + r.settings.longRun().toSeconds() + " s: the last "
                    + windowName(r.settings) + "'s median against the first " + windowName(r.settings) + "'s",
                    String.join(", ", parts), "each within 5 %", flat));
        }
        return out;
    }

    /** The long run's gauges held flat, and their short names. */
    static final List<String> LONG_RUN_GAUGES = List.of("heap_after_gc_bytes", "threads", "client_sockets",
            "server_entries");
    private static final Map<String, String> GAUGE_NAMES = Map.of("heap_after_gc_bytes", "heap", "threads",
            "threads", "client_sockets", "sockets", "server_entries", "entries");

    /** @return the samples of a minute (of a quarter of a run shorter than four minutes), at least one */
    static int longRunWindow(CurveSettings s) {
        double length = s.longRun().toSeconds();
        return Math.max(1, (int) Math.round(s.longRunSamples() * Math.min(60, length / 4) / length));
    }

    private static String windowName(CurveSettings s) {
        return s.longRun().toSeconds() >= 240 ? "minute" : "quarter";
    }

    /** @return one provider's long-run samples, in order; empty if it failed */
    private List<Point> longRunSamples(String variant) {
        List<Point> samples = new ArrayList<>();
        for (Point q : r.of(Curve.LONG_RUN)) {
            if (q.variant.equals(variant)) {
                if (q.error != null) {
                    return List.of();
                }
                samples.add(q);
            }
        }
        return samples;
    }

    /**
     * @return how far the median of the last {@code window} samples lies from that of the first, relative to the
     *         first; NaN without two windows of samples. A leak is a trend: single samples may wander and come back.
     */
    static double longRunDrift(List<Point> samples, String metric, int window) {
        if (samples.size() < 2 * window) {
            return Double.NaN;
        }
        double first = windowMedian(samples.subList(0, window), metric);
        double last = windowMedian(samples.subList(samples.size() - window, samples.size()), metric);
        return Math.abs(last - first) / Math.max(1, first);
    }

    /** @return the largest relative distance of one sample after the first window from the first window's median */
    static double longRunLargest(List<Point> samples, String metric, int window) {
        if (samples.size() < 2 * window) {
            return Double.NaN;
        }
        double first = windowMedian(samples.subList(0, window), metric);
        double largest = 0;
        for (Point q : samples.subList(window, samples.size())) {
            largest = Math.max(largest, Math.abs(q.metric(metric) - first) / Math.max(1, first));
        }
        return largest;
    }

    static double windowMedian(List<Point> samples, String metric) {
        List<Double> values = new ArrayList<>();
        for (Point q : samples) {
            values.add(q.metric(metric));
        }
        return Ratios.median(values);
    }

    private static String percent(double fraction) {
        return Double.isNaN(fraction) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", fraction * 100);
    }

    static String kindName(String kind) {
        return kind.equals(HandoffCurve.MUTEX) ? "mutex" : kind.equals(HandoffCurve.NON_REENTRANT) ? "nonReentrantMutex"
                : kind;
    }

    private static String x(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    private static String num(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, format, v);
    }

    /**
     * Writes the charts beside the report and returns the section.
     *
     * @param report the report the section goes into; the charts are {@code <report>-curve-<name>.png} beside it
     */
    public static String markdown(CurveResults r, Path report, String command) throws IOException {
        String name = report.getFileName().toString();
        String base = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        CurveReport c = new CurveReport(r, base);
        return c.render(report.toAbsolutePath().getParent(), command);
    }

    private String render(Path dir, String command) throws IOException {
        CurveSettings s = r.settings;
        StringBuilder md = new StringBuilder();
        md.append("## Curves: how the cost grows\n\n");
        md.append("Generated by `lock-bench` (curves, ").append(s.mode()).append(" run) on ").append(r.date)
                .append(" in ").append(r.runMillis / 1000).append(" s. Regenerate with `").append(command)
                .append("`. The raw figures of this run, one row per measurement: [")
                .append(chartBase).append("-curves.csv](").append(chartBase).append("-curves.csv).\n\n");
        md.append("Every provider through `lock-api` beside its anchor, the plain library doing the same work "
                + "(Curator's `InterProcessMutex` for ZooKeeper, Redisson's `RLock` for Redis, Spring Integration's "
                + "`JdbcLockRegistry` for JDBC on PostgreSQL). Throughput blocks "
                + "interleave (every x and variant within each round, the order rotating); a ratio is the median over "
                + "rounds of the two variants' throughput in the same round. Quantiles come from HdrHistogram "
                + "(three significant digits).\n\n");
        md.append("- Machine: ").append(r.machine).append("\n- Client JVM: ").append(r.jvm)
                .append("\n- ZooKeeper: ").append(r.zooKeeperServer).append("\n- Redis: ").append(r.redisServer)
                .append("\n- PostgreSQL: ").append(r.databaseServer)
                .append("\n- Settings: ").append(describe(s)).append('\n');
        for (String note : r.notes) {
            md.append("- ").append(note).append('\n');
        }
        md.append("\n### Targets\n\n| target | measured | limit | verdict |\n|---|---:|---|---|\n");
        for (Verdict v : verdicts()) {
            md.append("| ").append(v.target()).append(" | ").append(v.measured()).append(" | ").append(v.limit())
                    .append(" | ").append(v.cell()).append(" |\n");
        }
        md.append("| redis-baseline / Redis floor, zookeeper-raw and zkclient / ZooKeeper floor, uncontended p50, median "
                + "of three full trade-off runs | | <= 1.15x, <= 1.10x | not measured by the curves (the trade-off run "
                + "above, `-Pbench`) |\n");
        clients(md, dir);
        locks(md, dir);
        held(md, dir);
        handoff(md, dir);
        longRun(md, dir);
        return md.toString();
    }

    private String chart(Path dir, String curve, String title, String xLabel, String unit,
                         Map<String, List<double[]>> series, Set<String> anchors, boolean logX, boolean logY)
            throws IOException {
        String file = chartBase + "-curve-" + curve + ".png";
        CurveChart.write(dir.resolve(file), title + " (" + r.settings.mode() + " run, " + r.date + ")", xLabel, unit,
                series, anchors, logX, logY);
        return "![" + title + "](" + file + ")\n\n";
    }

    private Set<String> anchors() {
        return Set.of(ZK_ANCHOR, REDIS_ANCHOR, JDBC_ANCHOR);
    }

    /** A table of one figure: a row per variant, a column per x. */
    private void table(StringBuilder md, Curve curve, String kind, String xName, String metric, String format,
                       Map<String, List<double[]>> series, String suffix) {
        TreeSet<Double> xs = new TreeSet<>();
        Map<String, Map<Double, Point>> rows = new LinkedHashMap<>();
        for (Point p : r.of(curve)) {
            if (p.kind.equals(kind)) {
                xs.add(p.x);
                rows.computeIfAbsent(p.variant, v -> new LinkedHashMap<>()).put(p.x, p);
            }
        }
        md.append("| variant |");
        for (double x : xs) {
            md.append(' ').append(xName).append(" = ").append((long) x).append(" |");
        }
        md.append("\n|---|");
        md.append("---:|".repeat(xs.size()));
        md.append('\n');
        for (Map.Entry<String, Map<Double, Point>> row : rows.entrySet()) {
            md.append("| ").append(row.getKey()).append(" |");
            List<double[]> line = new ArrayList<>();
            for (double x : xs) {
                Point p = row.getValue().get(x);
                double v = p == null ? Double.NaN : metric.equals("handoff_p99") ? p.handoff.p99() / 1e3
                        : metric.equals("handoff_p50") ? p.handoff.p50() / 1e3 : p.metric(metric);
                if (p != null && p.error != null) {
                    md.append(" failed: ").append(p.error.replace('|', '/'), 0, Math.min(120, p.error.length()))
                            .append(" |");
                } else {
                    md.append(' ').append(p == null ? "" : num(v, format) + (p.cutShort ? " (cut short)" : ""))
                            .append(" |");
                }
                if (p != null && p.error == null && !p.cutShort) {
                    line.add(new double[] {x, v});
                }
            }
            md.append('\n');
            if (series != null) {
                series.put(row.getKey() + suffix, line);
            }
        }
        md.append('\n');
    }

    private void clients(StringBuilder md, Path dir) throws IOException {
        md.append("\n### Throughput against contending clients\n\n");
        md.append("K clients, each its own service (session or connection pool) with one thread, acquire and release "
                + "one lock in a loop; acquisitions per second over the block, once every client had its turn.\n\n");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        table(md, Curve.CLIENTS, "", "K", "rate", "%.0f", series, "");
        md.append("Each provider over its anchor, throughput (median over rounds of the per-round ratio):\n\n");
        ratioTable(md, Curve.CLIENTS, "K", r.settings.clients());
        md.append(chart(dir, "clients", "Throughput vs contending clients", "contending clients", "/s", series,
                anchors(), true, true));
    }

    private void ratioTable(StringBuilder md, Curve curve, String xName, int[] xs) {
        md.append("| provider / anchor |");
        for (int x : xs) {
            md.append(' ').append(xName).append(" = ").append(x).append(" |");
        }
        md.append("\n|---|").append("---:|".repeat(xs.length)).append('\n');
        for (Point p : firsts(curve, "")) {
            if (p.role != Variant.Role.PROVIDER) {
                continue;
            }
            md.append("| ").append(p.variant).append(" / ").append(anchorOf(p)).append(" |");
            for (int x : xs) {
                Point a = r.point(curve, p.variant, "", x);
                Point b = r.point(curve, anchorOf(p), "", x);
                md.append(' ').append(a == null || b == null ? "" : x(Ratios.paired(a.perRound, b.perRound)))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void locks(StringBuilder md, Path dir) throws IOException {
        int w = r.settings.workers();
        md.append("\n### Throughput against distinct locks in use\n\n");
        md.append("One service, ").append(w).append(" threads; at L locks, thread w takes locks w, w + ").append(w)
                .append(", w + ").append(2 * w).append(" ... in turn (below L = ").append(w).append(" the threads share"
                        + " them); every lock was taken once before the rounds. L = ").append(w)
                .append(" is one lock per thread.\n\n");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        table(md, Curve.LOCKS, "", "L", "rate", "%.0f", series, "");
        md.append("The first pass over every lock (each thread takes each of its locks once; on ZooKeeper this creates"
                + " the locks' parent nodes), seconds:\n\n");
        table(md, Curve.LOCKS, "", "L", "first_pass_seconds", "%.1f", null, "");
        md.append("Each provider over its anchor, throughput:\n\n");
        ratioTable(md, Curve.LOCKS, "L", r.settings.locks());
        md.append(chart(dir, "locks", "Throughput vs distinct locks in use", "distinct locks", "/s", series, anchors(),
                true, true));
    }

    private void held(StringBuilder md, Path dir) throws IOException {
        md.append("\n### Held leases in one service\n\n");
        md.append("One service takes N distinct locks on ").append(HeldLeasesCurve.TAKERS).append(" threads and holds"
                + " them all. Heap: this JVM's heap after a full collection, with all N held, less the same before "
                + "the first acquisition, per lease (the lock objects, the leases and whatever the client keeps for "
                + "them). Threads: this JVM's threads then, less before. Server: ZooKeeper's nodes and approximate data"
                + " size (`mntr`), Redis's keys and `used_memory`, PostgreSQL's rows of the provider's and the "
                + "anchor's tables and their `pg_total_relation_size`, per lease.\n\n");
        md.append("| variant | N | held | time to take (s) | leases/s | heap per lease (B) | threads added | server "
                + "nodes, keys or rows per lease | server bytes per lease |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (Point p : r.of(Curve.HELD)) {
            md.append("| ").append(p.variant).append(" | ").append((long) p.x).append(" | ");
            if (p.error != null) {
                md.append("failed: ").append(p.error.replace('|', '/'), 0, Math.min(160, p.error.length()))
                        .append(" | | | | | | |\n");
                continue;
            }
            md.append(num(p.metric("held"), "%.0f")).append(p.cutShort ? " (cut short)" : "").append(" | ")
                    .append(num(p.metric("take_seconds"), "%.1f")).append(" | ")
                    .append(num(p.metric("take_rate"), "%.0f")).append(" | ")
                    .append(num(p.metric("heap_bytes_per_lease"), "%.0f")).append(" | ")
                    .append(num(p.metric("threads_added"), "%+.0f")).append(" | ")
                    .append(num(p.metric("server_entries_per_lease"), "%.2f")).append(" | ")
                    .append(num(p.metric("server_bytes_per_lease"), "%.0f")).append(" |\n");
            series.computeIfAbsent(p.variant, v -> new ArrayList<>())
                    .add(new double[] {p.x, p.metric("heap_bytes_per_lease")});
        }
        md.append('\n');
        md.append(chart(dir, "held", "Client heap per held lease vs leases held", "leases held by one service",
                "B", series, anchors(), true, true));
    }

    private void handoff(StringBuilder md, Path dir) throws IOException {
        md.append("\n### Hand-off latency against waiters\n\n");
        md.append("One service; a holder thread holds the lock while N threads of the same service wait on it (all "
                + "parked; on ZooKeeper, Curator's thread-owned waiters each with its node queued; a provider's "
                + "service lets one of its acquisitions ask the server at a time and queues the others locally, so "
                + "here, with the holder in the same service, all N wait in its local queue), then the queue drains, "
                + "each waiter releasing at once. A hand-off runs from the previous holder's `release()` call to the "
                + "next holder's acquire returning. Curator's thread-owned waiters stop at N = ")
                .append(r.settings.threadOwnedZkMax()).append(": each has a node of its own and lists up to N "
                + "siblings, so queueing N of them moves O(N^2) bytes (the round-2 run of 10,000 ran the server and "
                + "the client out of heap).\n\n");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (String kind : List.of(HandoffCurve.MUTEX, HandoffCurve.NON_REENTRANT)) {
            md.append("`").append(kindName(kind)).append("`, hand-off p50 (us):\n\n");
            table(md, Curve.HANDOFF, kind, "N", "handoff_p50", "%.1f", null, "");
            md.append("`").append(kindName(kind)).append("`, hand-off p99 (us):\n\n");
            table(md, Curve.HANDOFF, kind, "N", "handoff_p99", "%.1f", series, " (" + kindName(kind) + ")");
        }
        Set<String> dashed = new LinkedHashSet<>();
        for (String a : anchors()) {
            dashed.add(a + " (mutex)");
        }
        md.append(chart(dir, "handoff", "Hand-off p99 vs waiters on one lock", "waiting threads of one service",
                "us", series, dashed, true, true));
    }

    private void longRun(StringBuilder md, Path dir) throws IOException {
        int window = longRunWindow(r.settings);
        String w = windowName(r.settings);
        md.append("\n### Long run\n\n");
        md.append("Every provider at once for ").append(r.settings.longRun().toSeconds()).append(" s, each in a JVM "
                + "of its own (").append(String.join(" ", LongRunCurve.CHILD_JVM)).append("): ")
                .append(LongRunCurve.CLIENTS).append(" services with ").append(LongRunCurve.THREADS).append(" threads "
                + "each take ").append(LongRunCurve.LOCKS).append(" locks in turn. ").append(r.settings
                .longRunSamples()).append(" samples; at each, the provider's JVM lets the acquisitions under way finish"
                + " and holds new ones back, then reports its heap after a full collection, its threads and its open "
                + "sockets, while the bench counts the provider's nodes or keys on the server under its own scope. "
                + "Each figure is the median of the first ").append(w).append("'s ").append(window)
                .append(" samples / of the last ").append(w).append("'s; drift is how far the second lies from the "
                + "first (flat: within 5 %), and the last column the largest distance of any one sample from the "
                + "first ").append(w).append(" (heap).\n\n");
        md.append("| provider | throughput (/s) | heap after GC (MB) | threads | sockets | server nodes or keys | "
                + "drift (heap, threads, sockets, entries) | largest, one sample (heap) |\n"
                + "|---|---:|---:|---:|---:|---:|---|---:|\n");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (Point p : firsts(Curve.LONG_RUN, "")) {
            List<Point> samples = longRunSamples(p.variant);
            if (samples.size() < 2 * window) {
                Point failed = r.of(Curve.LONG_RUN).stream().filter(q -> q.variant.equals(p.variant)
                        && q.error != null).findFirst().orElse(null);
                String e = failed == null ? "fewer than " + 2 * window + " samples" : failed.error;
                md.append("| ").append(p.variant).append(" | failed: ")
                        .append(e.replace('|', '/'), 0, Math.min(160, e.length())).append(" | | | | | | |\n");
                continue;
            }
            for (Point q : samples) {
                series.computeIfAbsent(q.variant, v -> new ArrayList<>())
                        .add(new double[] {q.x, q.metric("heap_after_gc_bytes") / 1e6});
            }
            List<Point> head = samples.subList(0, window);
            List<Point> tail = samples.subList(samples.size() - window, samples.size());
            md.append("| ").append(p.variant);
            for (String[] m : new String[][] {{"rate", "%.0f", "1"}, {"heap_after_gc_bytes", "%.1f", "1e6"},
                    {"threads", "%.0f", "1"}, {"client_sockets", "%.0f", "1"}, {"server_entries", "%.0f", "1"}}) {
                double scale = Double.parseDouble(m[2]);
                md.append(" | ").append(num(windowMedian(head, m[0]) / scale, m[1])).append(" / ")
                        .append(num(windowMedian(tail, m[0]) / scale, m[1]));
            }
            List<String> drifts = new ArrayList<>();
            for (String m : LONG_RUN_GAUGES) {
                drifts.add(percent(longRunDrift(samples, m, window)));
            }
            md.append(" | ").append(String.join(", ", drifts)).append(" | ")
                    .append(percent(longRunLargest(samples, "heap_after_gc_bytes", window))).append(" |\n");
        }
        md.append('\n');
        md.append(chart(dir, "longrun", "Long run: heap after a full GC, each provider's JVM", "seconds", "MB",
                series, Set.of(), false, false));
    }
}
