package org.lockspi.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Throughput against contending clients: K services (each its own session or connection pool, one thread each)
 * on one lock, for every K of the settings; every K and variant interleave within each round.
 */
final class ClientsCurve extends CurveScenario {
    ClientsCurve(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env, curves, out);
    }

    @Override
    void run() {
        List<Variant> list = anchorsAndProviders();
        int max = 0;
        List<Integer> ks = new ArrayList<>();
        for (int k : curves.clients()) {
            ks.add(k);
            max = Math.max(max, k);
        }
        phase("curve: throughput vs contending clients " + ks + ", " + curves.rounds() + " interleaved rounds of "
                + curves.block().toMillis() + " ms");
        Map<Variant, List<Variant.Client>> clients = new LinkedHashMap<>();
        Map<String, CurveResults.Point> points = new LinkedHashMap<>();
        Map<String, Results.Contended> sums = new LinkedHashMap<>();
        try {
            for (Variant v : list) {
                String broken = null;
                try {
                    clients.put(v, openClients(v, max));
                } catch (Exception | LinkageError e) {
                    broken = "open: " + describe(e);
                }
                for (int k : ks) {
                    CurveResults.Point p = point(CurveResults.Curve.CLIENTS, v, "", k);
                    p.error = broken;
                    points.put(v.name() + "/" + k, p);
                    sums.put(v.name() + "/" + k, new Results.Contended(v, v.name(), k));
                }
            }
            for (int round = -1; round < curves.rounds(); round++) {
                for (int k : rotate(ks, Math.max(round, 0))) {
                    if (round < 0 && k != ks.get(ks.size() / 2)) {
                        continue; // warm-up: one middle K per variant
                    }
                    for (Variant v : rotate(list, Math.max(round, 0))) {
                        CurveResults.Point p = points.get(v.name() + "/" + k);
                        if (p.error != null) {
                            continue;
                        }
                        try {
                            List<Variant.Locker> lockers = new ArrayList<>();
                            for (Variant.Client c : clients.get(v).subList(0, k)) {
                                lockers.add(c.locker("clients-" + k + "-r" + (round + 1)));
                            }
                            Duration block = round < 0 ? curves.block().dividedBy(2) : curves.block();
                            loopBlock(v, lockers, block, round < 0 ? null : sums.get(v.name() + "/" + k), "c" + k,
                                    round);
                        } catch (Exception e) {
                            p.error = describe(e);
                        }
                    }
                }
            }
        } finally {
            clients.values().forEach(l -> l.forEach(Variant.Client::close));
        }
        for (Map.Entry<String, CurveResults.Point> e : points.entrySet()) {
            CurveResults.Point p = e.getValue();
            Results.Contended c = sums.get(e.getKey());
            p.metrics.put("rate", c.rate());
            p.metrics.put("max_over_min", c.maxOverMin());
            p.metrics.put("requests_per_acquisition", c.requestsPerAcquisition());
            p.perRound.putAll(c.perRound);
            p.handoff.addAll(c.handoff);
            log.printf("[bench]   %-28s K=%-3d %8.0f acq/s  hand-off p99 %8.1f us%s%n", p.variant, (int) p.x,
                    c.rate(), c.handoff.p99() / 1e3, p.error == null ? "" : "  FAILED " + p.error);
        }
    }
}
