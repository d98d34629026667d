package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Everything one curves run measured: one {@link Point} per variant, curve and x, with the run's setup. */
public final class CurveResults {
    /** The curves, by their section name in the raw results. */
    public enum Curve {
        CLIENTS("clients", "contending clients"),
        LOCKS("locks", "distinct locks"),
        HELD("held_leases", "held leases"),
        HANDOFF("handoff", "waiters"),
        LONG_RUN("long_run", "seconds");

        public final String section;
        public final String x;

        Curve(String section, String x) {
            this.section = section;
            this.x = x;
        }
    }

    public String date;
    public String machine;
    public String jvm;
    public String zooKeeperServer;
    public String redisServer;
    public String databaseServer;
    public CurveSettings settings;
    public long runMillis;
    public final List<String> notes = new ArrayList<>();
    public final List<Point> points = new ArrayList<>();

    /** One measured point of a curve. */
    public static final class Point {
        public final Curve curve;
        public final String variant;
        public final Variant.Role role;
        public final Variant.Backend backend;
        /** The kind of lock where a curve has two (hand-off: {@code mutex} or {@code non-reentrant}), else "". */
        public final String kind;
        public final double x;
        /** Named figures, in the order measured, e.g. {@code rate}, {@code heap_per_lease}. */
        public final Map<String, Double> metrics = new LinkedHashMap<>();
        /** Throughput per interleaved round (acquisitions/s), for ratios paired by round. */
        public final SortedMap<Integer, Double> perRound = new TreeMap<>();
        public final Samples handoff = new Samples();
        public boolean cutShort;
        public String error;

        Point(Curve curve, Variant v, String kind, double x) {
            this.curve = curve;
            this.variant = v.name();
            this.role = v.role();
            this.backend = v.backend();
            this.kind = kind;
            this.x = x;
        }

        /** @return the named figure, or NaN */
        public double metric(String name) {
            return metrics.getOrDefault(name, Double.NaN);
        }
    }

    /** @return the point, or null */
    public Point point(Curve curve, String variant, String kind, double x) {
        for (Point p : points) {
            if (p.curve == curve && p.variant.equals(variant) && p.kind.equals(kind) && p.x == x) {
                return p;
            }
        }
        return null;
    }

    /** @return the curve's points, in the order measured */
    public List<Point> of(Curve curve) {
        List<Point> out = new ArrayList<>();
        for (Point p : points) {
            if (p.curve == curve) {
                out.add(p);
            }
        }
        return out;
    }

    /** @return the raw rows: setup, then every figure of every point */
    public RawResults raw() {
        RawResults raw = new RawResults();
        raw.setup("date", date).setup("mode", settings.mode()).setup("run_seconds", Long.toString(runMillis / 1000))
                .setup("machine", machine).setup("jvm", jvm).setup("zookeeper", zooKeeperServer)
                .setup("redis", redisServer).setup("postgresql", databaseServer)
                .setup("settings", CurveReport.describe(settings));
        for (String note : notes) {
            raw.setup("note", note);
        }
        for (Point p : points) {
            String section = p.curve.section + (p.kind.isEmpty() ? "" : "_" + p.kind);
            for (Map.Entry<String, Double> m : p.metrics.entrySet()) {
                raw.add(section, p.variant, p.role, p.backend, p.curve.x, p.x, m.getKey(), m.getValue(), "");
            }
            for (Map.Entry<Integer, Double> r : p.perRound.entrySet()) {
                raw.add(section, p.variant, p.role, p.backend, p.curve.x, p.x, "rate_round_" + r.getKey(),
                        r.getValue(), "acquisitions/s");
            }
            if (p.handoff.size() > 0) {
                raw.quantiles(section, p.variant, p.role, p.backend, p.curve.x, p.x, "handoff", p.handoff);
            }
            if (p.error != null) {
                raw.add(section, p.variant, p.role, p.backend, p.curve.x, p.x, "error: " + p.error, Double.NaN, "");
            }
        }
        return raw;
    }
}
