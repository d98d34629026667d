package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** The ratios of one run against the targets and anchors of the trade-off study. */
public final class Ratios {

    /** One ratio: what it compares, its value, its target (or the expected anchor), and whether it holds. */
    public static final class Ratio {
        public final String what;
        public final double value;
        public final String target;
        /** "holds", "MISSED", "anchor" (information), or "not measured: why". */
        public final String verdict;
        private final String unit;

        Ratio(String what, double value, String target, String verdict) {
            this(what, value, "x", target, verdict);
        }

        Ratio(String what, double value, String unit, String target, String verdict) {
            this.what = what;
            this.value = value;
            this.unit = unit;
            this.target = target;
            this.verdict = verdict;
        }

        public String valueText() {
            if (Double.isNaN(value)) {
                return "n/a";
            }
            String text = String.format(Locale.ROOT, "%.2f%s", value, unit);
            // a miss by less than the rounding shows one more digit, so that "1.10x" never misses "<= 1.10x"
            return verdict.equals("MISSED") && target.endsWith(" " + text)
                    ? String.format(Locale.ROOT, "%.3f%s", value, unit) : text;
        }
    }

    /** The ZooKeeper providers every ZooKeeper target applies to. */
    private static final String[] ZOOKEEPER_PROVIDERS = {"zookeeper-raw", "zkclient", "curator"};
    /** The Redis providers every Redis target applies to: the recipe on Jedis and on Lettuce. */
    private static final String[] REDIS_PROVIDERS = {"redis-baseline", "redis-lettuce"};
    /** Their first-come first-served variants, held to the fairness target. */
    private static final String[] FAIR_REDIS_PROVIDERS = {"redis-fair", "redis-lettuce-fair"};

    private Ratios() {
    }

    static Results.Cycle cycle(Results r, String variant) {
        return r.uncontended.stream().filter(c -> c.variant.equals(variant) && c.error == null && c.cycle.size() > 0)
                .findFirst().orElse(null);
    }

    static Results.Drain drain(Results r, String variant, int n) {
        return r.drains.stream().filter(d -> d.variant.equals(variant) && d.waiters == n && d.handoff.size() > 0)
                .findFirst().orElse(null);
    }

    static Results.Contended threads(Results r, Predicate<String> label) {
        return r.manyThreads.stream().filter(c -> label.test(c.variant) && c.error == null && c.acquisitions > 0)
                .findFirst().orElse(null);
    }

    static Results.Contended contended(Results r, String variant, int k) {
        return r.contended.stream().filter(c -> c.variant.equals(variant) && c.clients == k && c.error == null
                && c.acquisitions > 0).findFirst().orElse(null);
    }

    private static Ratio atMost(String what, double value, double limit, String missing) {
        String target = String.format(Locale.ROOT, "<= %.2fx", limit);
        if (missing != null) {
            return new Ratio(what, Double.NaN, target, "not measured: " + missing);
        }
        return new Ratio(what, value, target, value <= limit ? "holds" : "MISSED");
    }

    /** A count (not a ratio) that must not exceed a limit. */
    private static Ratio count(String what, double value, String unit, double limit, String missing) {
        String target = String.format(Locale.ROOT, "<= %.2f", limit);
        if (missing != null) {
            return new Ratio(what, Double.NaN, unit, target, "not measured: " + missing);
        }
        return new Ratio(what, value, unit, target, value <= limit ? "holds" : "MISSED");
    }

    private static boolean contains(int[] values, int k) {
        return java.util.Arrays.stream(values).anyMatch(x -> x == k);
    }

    private static Ratio atLeast(String what, double value, double limit, String missing) {
        String target = String.format(Locale.ROOT, ">= %.2fx", limit);
        if (missing != null) {
            return new Ratio(what, Double.NaN, target, "not measured: " + missing);
        }
        return new Ratio(what, value, target, value >= limit ? "holds" : "MISSED");
    }

    private static Ratio anchor(String what, double value, String expected) {
        return new Ratio(what, value, expected, "anchor");
    }

    private static Ratio anchor(String what, double value, String unit, String expected) {
        return new Ratio(what, value, unit, expected, "anchor");
    }

    private static String why(Results r, String variant) {
        if (r.providersMissing.contains(variant)) {
            return variant + " not installed";
        }
        return variant + " failed or has no samples";
    }

    /**
     * The ratio of medians, paired by round: for every round both ran, a's value over b's; the median of those.
     * Pairing by round cancels the drift between rounds of a shared machine.
     */
    static double paired(java.util.Map<Integer, Double> a, java.util.Map<Integer, Double> b) {
        List<Double> ratios = new ArrayList<>();
        for (java.util.Map.Entry<Integer, Double> e : a.entrySet()) {
            Double other = b.get(e.getKey());
            if (other != null && other > 0 && !Double.isNaN(e.getValue()) && !Double.isNaN(other)) {
                ratios.add(e.getValue() / other);
            }
        }
        return median(ratios);
    }

    /** @return the median of the values (sorted in place), NaN if there are none */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        java.util.Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    /** p50 of a over p50 of b, uncontended, paired by round. */
    static double cycleRatio(Results.Cycle a, Results.Cycle b) {
        return a == null || b == null ? Double.NaN : paired(a.perRound, b.perRound);
    }

    static java.util.Map<Integer, Double> p50s(Results.Drain d) {
        java.util.Map<Integer, Double> out = new java.util.TreeMap<>();
        d.perRound.forEach((round, samples) -> out.put(round, samples.p50()));
        return out;
    }

    /** Hand-off p50 with many waiters over that with one, paired by round. */
    static double drainRatio(Results.Drain big, Results.Drain one) {
        return big == null || one == null ? Double.NaN : paired(p50s(big), p50s(one));
    }

    /** @return the targets first, then the anchors */
    public static List<Ratio> of(Results r) {
        List<Ratio> out = new ArrayList<>();
        Results.Cycle zkFloor = cycle(r, "ZooKeeper floor");
        Results.Cycle ipm = cycle(r, "Curator InterProcessMutex");
        Results.Cycle redisFloor = cycle(r, RedisFloor.NAME);
        Results.Cycle fencedFloor = cycle(r, RedisFloor.FENCED_NAME);
        Results.Cycle rlock = cycle(r, "Redisson RLock");

        Results.Cycle curator = cycle(r, "curator");
        out.add(atMost("curator provider / plain InterProcessMutex, uncontended p50", cycleRatio(curator, ipm), 1.05,
                curator == null ? why(r, "curator") : ipm == null ? "InterProcessMutex failed" : null));
        for (String p : new String[] {"zookeeper-raw", "zkclient"}) {
            Results.Cycle c = cycle(r, p);
            out.add(atMost(p + " / ZooKeeper floor, uncontended p50", cycleRatio(c, zkFloor), 1.10,
                    c == null ? why(r, p) : zkFloor == null ? "floor failed" : null));
        }
        for (String p : ZOOKEEPER_PROVIDERS) {
            Results.Cycle c = cycle(r, p);
            double floorRequests = zkFloor == null ? Double.NaN : zkFloor.requestsPerAcquisition();
            out.add(count(p + ", server requests per uncontended acquisition (the floor's: "
                            + (zkFloor == null ? "n/a" : String.format(Locale.ROOT, "%.2f", floorRequests)) + ")",
                    c == null ? Double.NaN : c.requestsPerAcquisition(), "", floorRequests + 0.05,
                    c == null ? why(r, p) : zkFloor == null ? "floor failed" : null));
        }
        int maxN = 0;
        for (Results.Drain d : r.drains) {
            maxN = Math.max(maxN, d.waiters);
        }
        for (String p : ZOOKEEPER_PROVIDERS) {
            Results.Drain big = drain(r, p, maxN);
            Results.Drain one = drain(r, p, 1);
            out.add(atMost(p + " hand-off p50, " + maxN + " waiters / 1 waiter", drainRatio(big, one), 1.5,
                    big == null || one == null ? why(r, p) : null));
        }
        Results.Contended separate = threads(r, l -> l.startsWith("Curator InterProcessMutex") && l.contains("separate"));
        for (String p : ZOOKEEPER_PROVIDERS) {
            Results.Contended mine = threads(r, l -> l.startsWith(p + ","));
            out.add(atLeast(p + ", " + r.settings.threads() + " threads on one mutex object / " + r.settings.threads()
                            + " separate InterProcessMutex instances, acquisitions per second",
                    mine == null || separate == null ? Double.NaN : paired(mine.perRound, separate.perRound), 1.0,
                    mine == null ? why(r, p) : separate == null ? "separate InterProcessMutex failed" : null));
        }
        Results.Drain redissonOne = drain(r, "Redisson RLock", 1);
        for (String p : REDIS_PROVIDERS) {
            Results.Cycle c = cycle(r, p);
            out.add(atMost(p + " / Redis floor, uncontended p50", cycleRatio(c, redisFloor), 1.15,
                    c == null ? why(r, p) : redisFloor == null ? "floor failed" : null));
            Results.Drain one = drain(r, p, 1);
            out.add(atMost(p + " / Redisson RLock, hand-off p50 to one waiter", drainRatio(one, redissonOne), 1.5,
                    one == null ? why(r, p) : redissonOne == null ? "Redisson RLock failed" : null));
            out.add(count(p + ", commands sent per uncontended cycle (MONITOR; a script's own left out)",
                    c == null ? Double.NaN : c.clientCommandsPerCycle(), "", 2.0, c == null ? why(r, p) : null));
        }
        for (String p : FAIR_REDIS_PROVIDERS) {
            for (int k : new int[] {8, 32}) {
                Results.Contended fair = contended(r, p, k);
                boolean present = !r.providersNotPresent.contains(p);
                out.add(atMost(p + ", max/min acquisitions per client at K=" + k,
                        fair == null ? Double.NaN : fair.maxOverMin(), 1.5, !present
                                ? p + " not present (no provider of that name installed)"
                                : fair == null ? (contains(r.settings.clients(), k) ? why(r, p)
                                : "K=" + k + " not run in " + r.settings.mode() + " mode") : null));
            }
        }
        Results.Cycle baseline = cycle(r, "redis-baseline");

        // anchors: what the plain libraries do on this machine, against the figures the targets were set from
        out.add(anchor("ZooKeeper floor cycle p50", zkFloor == null ? Double.NaN : zkFloor.cycle.p50() / 1e6,
                " ms", "~0.8 ms (fsync on)"));
        out.add(anchor("plain InterProcessMutex / ZooKeeper floor, uncontended p50", cycleRatio(ipm, zkFloor), "~1.15x"));
        out.add(anchor("plain InterProcessMutex hand-off p50, " + maxN + " waiters / 1 waiter",
                drainRatio(drain(r, "Curator InterProcessMutex", maxN), drain(r, "Curator InterProcessMutex", 1)),
                "~3x"));
        Results.Contended sharedIpm = threads(r, l -> l.startsWith("Curator InterProcessMutex") && l.contains("shared"));
        out.add(anchor(r.settings.threads() + " threads: separate InterProcessMutex instances / one shared, "
                        + "acquisitions per second",
                sharedIpm == null || separate == null ? Double.NaN : paired(separate.perRound, sharedIpm.perRound),
                "~14x"));
        out.add(anchor("Redis floor cycle p50", redisFloor == null ? Double.NaN : redisFloor.cycle.p50() / 1e3,
                " us", "~20 us"));
        out.add(anchor("plain Redisson RLock / Redis floor, uncontended p50", cycleRatio(rlock, redisFloor), "~4x"));
        // what a fencing token costs on its own, and the provider against the least a fenced lock does
        out.add(anchor("Redis fenced floor (SET NX PX and INCR in one script) / Redis floor, uncontended p50",
                cycleRatio(fencedFloor, redisFloor), "(information)"));
        out.add(anchor("redis-baseline / Redis fenced floor, uncontended p50", cycleRatio(baseline, fencedFloor),
                "(information)"));
        // the same recipe on the two client libraries
        out.add(anchor("redis-lettuce / redis-baseline, uncontended p50", cycleRatio(cycle(r, "redis-lettuce"),
                baseline), "(information)"));
        out.add(anchor("redis-lettuce / redis-baseline, hand-off p50 to one waiter",
                drainRatio(drain(r, "redis-lettuce", 1), drain(r, "redis-baseline", 1)), "(information)"));
        out.add(anchor("plain Redisson RLock hand-off p50 to one waiter",
                redissonOne == null ? Double.NaN : redissonOne.handoff.p50() / 1e6, " ms", "~1 ms"));
        return out;
    }

    /** @return the ratio table as plain text for the end of the run */
    public static String text(List<Ratio> ratios) {
        StringBuilder b = new StringBuilder();
        for (Ratio x : ratios) {
            b.append(String.format(Locale.ROOT, "%-100s %8s  %-20s %s%n", x.what, x.valueText(), x.target, x.verdict));
        }
        return b.toString();
    }
}
