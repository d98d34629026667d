package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

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
        } finally {
            clients.values().forEach(Variant.Client::close);
        }
        for (Results.Cycle r : results.uncontended) {
            log.printf("[bench]   %-28s p50 %9.1f us  p99 %9.1f us  %5.2f req/acq%s%n", r.variant,
                    r.cycle.p50() / 1e3, r.cycle.p99() / 1e3, r.requestsPerAcquisition(),
                    r.error == null ? "" : "  FAILED " + r.error);
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
