package org.lockspi.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Throughput against the distinct locks in use at once: one service, W threads; at L locks, thread w cycles
 * through locks w, w + W, w + 2W ... (with L &lt; W the threads share them: thread w takes lock w mod L). L = W
 * is one lock per thread, the comparison point of the target. Every lock is taken once by its thread before the
 * rounds (a lock's first use creates its ZooKeeper parent node), and every L and variant interleave within each
 * round.
 */
final class LocksCurve extends CurveScenario {
    LocksCurve(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env, curves, out);
    }

    /** A thread's own lock object that takes its locks in turn. */
    private static Variant.Locker cycling(List<Variant.Locker> mine) {
        int[] next = {0};
        return () -> {
            Variant.Locker l = mine.get(next[0]);
            next[0] = (next[0] + 1) % mine.size();
            return l.lock();
        };
    }

    @Override
    void run() {
        List<Variant> list = anchorsAndProviders();
        int w = curves.workers();
        List<Integer> ls = new ArrayList<>();
        for (int l : curves.locks()) {
            ls.add(l);
        }
        phase("curve: throughput vs distinct locks " + ls + ", one service, " + w + " threads, " + curves.rounds()
                + " interleaved rounds of " + curves.block().toMillis() + " ms");
        Map<Variant, Variant.Client> clients = new LinkedHashMap<>();
        Map<String, CurveResults.Point> points = new LinkedHashMap<>();
        Map<String, Results.Contended> sums = new LinkedHashMap<>();
        Map<String, List<List<Variant.Locker>>> lockers = new LinkedHashMap<>();
        try {
            for (Variant v : list) {
                String broken = null;
                try {
                    clients.put(v, v.open(scope(v)));
                } catch (Exception | LinkageError e) {
                    broken = "open: " + describe(e);
                }
                for (int l : ls) {
                    String key = v.name() + "/" + l;
                    CurveResults.Point p = point(CurveResults.Curve.LOCKS, v, "", l);
                    p.error = broken;
                    points.put(key, p);
                    sums.put(key, new Results.Contended(v, v.name(), w));
                    if (broken != null) {
                        continue;
                    }
                    try {
                        long t0 = System.nanoTime();
                        lockers.put(key, prepare(clients.get(v), l, w));
                        p.metrics.put("first_pass_seconds", (System.nanoTime() - t0) / 1e9);
                    } catch (Exception e) {
                        p.error = "first pass: " + describe(e);
                    }
                }
                phase("  prepared " + v.name());
            }
            for (int round = -1; round < curves.rounds(); round++) {
                for (int l : rotate(ls, Math.max(round, 0))) {
                    if (round < 0 && l != ls.get(ls.size() / 2)) {
                        continue;
                    }
                    for (Variant v : rotate(list, Math.max(round, 0))) {
                        String key = v.name() + "/" + l;
                        CurveResults.Point p = points.get(key);
                        if (p.error != null) {
                            continue;
                        }
                        try {
                            List<Variant.Locker> threads = new ArrayList<>();
                            for (List<Variant.Locker> mine : lockers.get(key)) {
                                threads.add(cycling(mine));
                            }
                            Duration block = round < 0 ? curves.block().dividedBy(2) : curves.block();
                            loopBlock(v, threads, block, round < 0 ? null : sums.get(key), "l" + l, round);
                        } catch (Exception e) {
                            p.error = describe(e);
                        }
                    }
                }
            }
        } finally {
            clients.values().forEach(Variant.Client::close);
        }
        for (Map.Entry<String, CurveResults.Point> e : points.entrySet()) {
            CurveResults.Point p = e.getValue();
            Results.Contended c = sums.get(e.getKey());
            p.metrics.put("rate", c.rate());
            p.perRound.putAll(c.perRound);
            p.handoff.addAll(c.handoff);
            log.printf("[bench]   %-28s L=%-6d %8.0f acq/s%s%n", p.variant, (int) p.x, c.rate(),
                    p.error == null ? "" : "  FAILED " + p.error);
        }
    }

    /**
     * Builds every thread's lock objects and takes each lock once, every thread its own in parallel.
     *
     * @return per thread, its lock objects
     */
    private static List<List<Variant.Locker>> prepare(Variant.Client client, int l, int w) throws Exception {
        List<List<Variant.Locker>> all = new ArrayList<>();
        for (int t = 0; t < w; t++) {
            List<Variant.Locker> mine = new ArrayList<>();
            if (l < w) {
                mine.add(client.locker("locks-" + l + "-" + (t % l)));
            } else {
                for (int i = t; i < l; i += w) {
                    mine.add(client.locker("locks-" + l + "-" + i));
                }
            }
            all.add(mine);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (List<Variant.Locker> mine : all) {
            Thread t = new Thread(() -> {
                try {
                    for (Variant.Locker locker : mine) {
                        locker.lock().release();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "bench-first-pass");
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(600_000);
            if (t.isAlive()) {
                throw new IllegalStateException("the first pass over " + l + " locks took over 10 minutes");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException(describe(failure.get()), failure.get());
        }
        return all;
    }
}
