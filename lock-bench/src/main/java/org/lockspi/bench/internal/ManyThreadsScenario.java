package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Many threads of one client on one lock object (and, for the plain InterProcessMutex, on separate ones). */
final class ManyThreadsScenario extends Scenario {
    ManyThreadsScenario(Scenario.Env env) {
        super(env);
    }

    @Override
    void run() {
        int t = settings.threads();
        phase(t + " threads of one client on one lock, " + settings.threadRounds()
                + " interleaved rounds of " + settings.threadBlock().toMillis() + " ms");
        // label -> (variant, shared lock object?)
        List<Object[]> cases = new ArrayList<>();
        for (Variant v : contenders()) {
            if (v instanceof CuratorAnchor) {
                cases.add(new Object[] {v, "Curator InterProcessMutex, one shared instance", true});
                cases.add(new Object[] {v, "Curator InterProcessMutex, " + t + " separate instances", false});
            } else if (v instanceof RedissonAnchor) {
                cases.add(new Object[] {v, "Redisson RLock, one shared instance", true});
            } else {
                cases.add(new Object[] {v, v.name() + ", one mutex object", true});
            }
        }
        Map<Object[], Results.Contended> byCase = new LinkedHashMap<>();
        Map<Object[], Variant.Client> clients = new LinkedHashMap<>();
        try {
            for (Object[] c : cases) {
                Variant v = (Variant) c[0];
                Results.Contended r = new Results.Contended(v, (String) c[1], t);
                byCase.put(c, r);
                results.manyThreads.add(r);
                try {
                    clients.put(c, v.open(scope(v)));
                } catch (Exception | LinkageError e) {
                    r.error = "open: " + describe(e);
                }
            }
            for (int round = 0; round < settings.threadRounds(); round++) {
                for (Object[] c : rotate(cases, round)) {
                    Variant v = (Variant) c[0];
                    Results.Contended r = byCase.get(c);
                    if (r.error != null) {
                        continue;
                    }
                    try {
                        Variant.Client client = clients.get(c);
                        String name = "threads-" + ((boolean) c[2] ? "shared" : "separate") + "-r" + round;
                        List<Variant.Locker> lockers = new ArrayList<>();
                        Variant.Locker shared = client.locker(name);
                        for (int i = 0; i < t; i++) {
                            lockers.add((boolean) c[2] ? shared : client.locker(name));
                        }
                        loopBlock(v, lockers, settings.threadBlock(), r, "t", round);
                    } catch (Exception e) {
                        r.error = describe(e);
                    }
                }
            }
        } finally {
            clients.values().forEach(Variant.Client::close);
        }
        for (Results.Contended r : results.manyThreads) {
            log.printf("[bench]   %-50s %8.0f acq/s  hand-off p50 %8.1f us  %5.2f req/acq%s%n", r.variant, r.rate(),
                    r.handoff.p50() / 1e3, r.requestsPerAcquisition(), r.error == null ? "" : "  FAILED " + r.error);
        }
    }
}
