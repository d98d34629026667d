package org.lockspi.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * K clients on one lock, each with one thread looping acquire, release; the loop block is shared with the
 * many-threads scenario.
 */
final class ContendedScenario extends Scenario {
    private final int k;

    ContendedScenario(Scenario.Env env, int k) {
        super(env);
        this.k = k;
    }

    @Override
    void run() {
        phase("contended, K = " + k + " clients on one lock, " + settings.contendedRounds()
                + " interleaved rounds of " + settings.contendedBlock().toMillis() + " ms");
        List<Variant> list = contenders();
        Map<Variant, Results.Contended> byVariant = new LinkedHashMap<>();
        Map<Variant, List<Variant.Client>> clients = new LinkedHashMap<>();
        try {
            for (Variant v : list) {
                Results.Contended r = new Results.Contended(v, v.name(), k);
                byVariant.put(v, r);
                results.contended.add(r);
                List<Variant.Client> mine = new ArrayList<>();
                clients.put(v, mine);
                try {
                    for (int i = 0; i < k; i++) {
                        mine.add(v.open(scope(v)));
                    }
                } catch (Exception | LinkageError e) {
                    r.error = "open: " + describe(e);
                }
            }
            int first = settings.warmup() ? -1 : 0;
            for (int round = first; round < settings.contendedRounds(); round++) {
                for (Variant v : rotate(list, Math.max(round, 0))) {
                    Results.Contended r = byVariant.get(v);
                    if (r.error != null) {
                        continue;
                    }
                    try {
                        List<Variant.Locker> lockers = new ArrayList<>();
                        for (Variant.Client c : clients.get(v)) {
                            lockers.add(c.locker("contended-" + k + "-r" + (round + 1)));
                        }
                        Duration block = round < 0 ? settings.contendedBlock().dividedBy(2) : settings.contendedBlock();
                        loopBlock(v, lockers, block, round < 0 ? null : r, "k" + k, round);
                    } catch (Exception e) {
                        r.error = describe(e);
                    }
                }
            }
        } finally {
            clients.values().forEach(l -> l.forEach(Variant.Client::close));
        }
        for (Variant v : list) {
            Results.Contended r = byVariant.get(v);
            log.printf("[bench]   %-28s K=%-3d %8.0f acq/s  hand-off p50 %8.1f us  p99 %8.1f us  max/min %5.2f  "
                            + "%5.2f req/acq%s%n", r.variant, k, r.rate(), r.handoff.p50() / 1e3, r.handoff.p99() / 1e3,
                    r.maxOverMin(), r.requestsPerAcquisition(), r.error == null ? "" : "  FAILED " + r.error);
        }
    }
}
