package org.lockspi.bench.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** Acquire + release with nobody else on the lock, every variant interleaved in blocks. */
final class UncontendedScenario extends Scenario {
    /** How much longer the discarded warm-up block of the uncontended cycle is than a measured one. */
    private static final int WARMUP_FACTOR = 30;

    UncontendedScenario(Scenario.Env env) {
        super(env);
    }

    @Override
    void run() {
        phase("uncontended acquire+release, " + settings.uncontendedRounds() + " interleaved rounds");
        Map<Variant, Results.Cycle> byVariant = new LinkedHashMap<>();
        Map<Variant, Variant.Client> clients = new LinkedHashMap<>();
        Map<Variant, Variant.Locker> lockers = new LinkedHashMap<>();
        try {
            for (Variant v : variants) {
                Results.Cycle r = new Results.Cycle(v);
                byVariant.put(v, r);
                results.uncontended.add(r);
                try {
                    Variant.Client c = v.open(scope(v));
                    clients.put(v, c);
                    lockers.put(v, c.locker("uncontended"));
                } catch (Exception | LinkageError e) {
                    r.error = "open: " + describe(e);
                }
            }
            int first = settings.warmup() ? -1 : 0;
            for (int round = first; round < settings.uncontendedRounds(); round++) {
                for (Variant v : rotate(variants, Math.max(round, 0))) {
                    Results.Cycle r = byVariant.get(v);
                    if (r.error != null) {
                        continue;
                    }
                    int cycles = v.backend() == Variant.Backend.ZOOKEEPER ? settings.zkCycles() : settings.redisCycles();
                    if (round < 0) {
                        cycles *= WARMUP_FACTOR; // the warm-up round is longer: the JIT needs the calls
                    }
                    try {
                        cycleBlock(v, lockers.get(v), cycles, round < 0 ? null : r, round);
                    } catch (Exception e) {
                        r.error = describe(e);
                    }
                }
            }
            countClientCommands(byVariant, lockers);
        } finally {
            clients.values().forEach(Variant.Client::close);
        }
        for (Results.Cycle r : results.uncontended) {
            log.printf("[bench]   %-28s p50 %9.1f us  p99 %9.1f us  %5.2f req/acq%s%s%n", r.variant,
                    r.cycle.p50() / 1e3, r.cycle.p99() / 1e3, r.requestsPerAcquisition(),
                    r.monitoredCycles == 0 ? "" : String.format(java.util.Locale.ROOT, "  %4.2f commands sent/cycle",
                            r.clientCommandsPerCycle()), r.error == null ? "" : "  FAILED " + r.error);
        }
    }

    /**
     * On Redis, after the timed rounds: one untimed block per variant under MONITOR, counting the commands the
     * client sends per cycle (its round trips, when it does not pipeline), which INFO commandstats cannot tell from
     * those its Lua scripts run.
     */
    private void countClientCommands(Map<Variant, Results.Cycle> byVariant, Map<Variant, Variant.Locker> lockers) {
        for (Variant v : variants) {
            Results.Cycle r = byVariant.get(v);
            if (v.backend() != Variant.Backend.REDIS || r.error != null) {
                continue;
            }
            int cycles = settings.redisCycles();
            try {
                Variant.Locker locker = lockers.get(v);
                r.clientCommands = RedisMonitor.clientCommands(redis.port(), () -> {
                    for (int i = 0; i < cycles; i++) {
                        locker.lock().release();
                    }
                });
                r.monitoredCycles = cycles;
            } catch (Exception e) {
                r.error = "counting commands under MONITOR: " + describe(e);
            }
        }
    }

    private void cycleBlock(Variant v, Variant.Locker locker, int cycles, Results.Cycle into, int round)
            throws Exception {
        boolean redisBackend = v.backend() == Variant.Backend.REDIS;
        Map<String, Long> commandsBefore = into != null && redisBackend ? redis.commandsByName() : Map.of();
        long before = into == null ? 0 : requests(v.backend());
        Samples block = new Samples();
        long cap = System.nanoTime() + settings.blockCap().toNanos() * (into == null ? WARMUP_FACTOR : 1);
        int done = 0;
        while (done < cycles && (done == 0 || System.nanoTime() < cap)) {
            long t0 = System.nanoTime();
            Variant.Held held = locker.lock();
            held.release();
            block.add(System.nanoTime() - t0);
            done++;
        }
        if (into != null) {
            into.requests += requestsSince(v.backend(), before);
            into.acquisitions += done;
            into.cycle.addAll(block);
            into.perRound.put(round, block.p50());
            if (redisBackend) {
                redis.commandsByName().forEach((name, calls) -> {
                    long delta = calls - commandsBefore.getOrDefault(name, 0L);
                    if (delta > 0 && !name.equals("info")) {
                        into.commands.merge(name, delta, Long::sum);
                    }
                });
            }
        }
    }
}
