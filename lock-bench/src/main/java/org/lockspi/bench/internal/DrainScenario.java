package org.lockspi.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Hand-off while a queue of N waiters drains, for every N, interleaved. */
final class DrainScenario extends Scenario {
    DrainScenario(Scenario.Env env) {
        super(env);
    }

    /**
     * Hand-off while queues of every N drain. All N values and variants interleave within each round, so the
     * ratio of N = 1,000 to N = 1 is not skewed by drift between phases.
     */
    @Override
    void run() {
        List<Variant> list = contenders();
        int[] ns = settings.waiters();
        int maxClients = Math.min(8, Arrays.stream(ns).max().orElse(1));
        phase("hand-off while a queue of N = " + Arrays.toString(ns) + " waiters drains (over min(N, "
                + maxClients + ") waiting clients), " + settings.drainRounds() + " interleaved rounds");
        Map<Variant, Map<Integer, Results.Drain>> rows = new LinkedHashMap<>();
        Map<Variant, List<Variant.Client>> clients = new LinkedHashMap<>();
        Map<Variant, String> broken = new LinkedHashMap<>();
        List<Integer> nList = new ArrayList<>();
        for (int n : ns) {
            nList.add(n);
            for (Variant v : list) {
                Results.Drain r = new Results.Drain(v, n);
                rows.computeIfAbsent(v, x -> new LinkedHashMap<>()).put(n, r);
            }
        }
        for (int n : ns) {
            for (Variant v : list) {
                results.drains.add(rows.get(v).get(n));
            }
        }
        try {
            for (Variant v : list) {
                try {
                    clients.put(v, openClients(v, 1 + maxClients));
                } catch (Exception | LinkageError e) {
                    broken.put(v, "open: " + describe(e));
                }
            }
            int first = settings.warmup() ? -1 : 0;
            for (int round = first; round < settings.drainRounds(); round++) {
                for (int n : rotate(nList, Math.max(round, 0))) {
                    if (round < 0 && n > 10) {
                        continue;
                    }
                    for (Variant v : rotate(list, Math.max(round, 0))) {
                        Results.Drain r = rows.get(v).get(n);
                        if (broken.containsKey(v) || r.error != null || r.cutShort) {
                            continue;
                        }
                        int drains = round < 0 ? 2 : Math.max(1, (settings.drainSamples() + n - 1) / n);
                        try {
                            for (int d = 0; d < drains && !r.cutShort; d++) {
                                if (!drainOnce(v, clients.get(v), n, round < 0 ? null : r, round)) {
                                    // the waiting clients were closed to end the waiters: open fresh ones
                                    clients.put(v, openClients(v, 1 + maxClients));
                                }
                            }
                        } catch (Exception | LinkageError e) {
                            r.error = describe(e);
                        }
                    }
                }
            }
        } finally {
            clients.values().forEach(l -> l.forEach(Variant.Client::close));
        }
        for (int n : ns) {
            for (Variant v : list) {
                Results.Drain r = rows.get(v).get(n);
                if (r.error == null && broken.containsKey(v)) {
                    r.error = broken.get(v);
                }
                log.printf("[bench]   %-28s N=%-5d hand-off p50 %8.1f us  p99 %8.1f us  (%d hand-offs)  %5.2f req/acq"
                                + "%s%s%n", r.variant, n, r.handoff.p50() / 1e3, r.handoff.p99() / 1e3, r.handoff.size(),
                        r.requestsPerAcquisition(),
                        r.cutShort ? " CUT SHORT" : "", r.error == null ? "" : "  FAILED " + r.error);
            }
        }
    }

    /** @return false if the drain was cut short and the clients closed */
    private boolean drainOnce(Variant v, List<Variant.Client> clients, int n, Results.Drain into, int round)
            throws Exception {
        String name = "drain-" + n;
        int waitingClients = Math.min(n, clients.size() - 1);
        Variant.Client holderClient = clients.get(0);
        // server requests of the whole drain, the holder's acquisition and the waiters' queueing included
        long counted = into == null ? 0 : requests(v.backend());
        Variant.Held first = holderClient.locker(name).lock();
        AtomicLong stamp = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch done = new CountDownLatch(n);
        Samples handoff = new Samples();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long before = v.backend() == Variant.Backend.REDIS ? redis.commands() : 0;
        long inspection = 0;
        for (int i = 0; i < n; i++) {
            Variant.Client c = clients.get(1 + i % waitingClients);
            Thread t = new Thread(() -> {
                try {
                    Variant.Locker locker = c.locker(name);
                    ready.countDown();
                    Variant.Held held = locker.lock();
                    handoff.add(System.nanoTime() - stamp.get());
                    stamp.set(System.nanoTime());
                    held.release();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, "bench-drain-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        try {
            if (!ready.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(n + " waiter threads did not start within 60 s");
            }
            // a provider's service sends one thread at a time to the server; the anchor sends every thread
            awaitParked(threads, Duration.ofSeconds(120));
            inspection = awaitQueued(holderClient.zkLockPath(name),
                    v.role() == Variant.Role.PROVIDER ? waitingClients : n, before);
        } finally {
            stamp.set(System.nanoTime());
            first.release();
        }
        if (!done.await(settings.drainCap().toMillis(), TimeUnit.MILLISECONDS)) {
            if (into != null) {
                into.cutShort = true;
                into.handoff.addAll(handoff);
                into.perRound.computeIfAbsent(round, x -> new Samples()).addAll(handoff);
                into.drains++;
            }
            // close the waiting clients so their threads end; they are not used again for this N
            for (Variant.Client c : clients) {
                c.close();
            }
            for (Thread t : threads) {
                t.join(10_000);
            }
            return false;
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a waiter failed: " + describe(failure.get()), failure.get());
        }
        if (into != null) {
            into.requests += requestsSince(v.backend(), counted) - inspection;
            into.acquisitions += n + 1;
            into.handoff.addAll(handoff);
            into.perRound.computeIfAbsent(round, x -> new Samples()).addAll(handoff);
            into.drains++;
        }
        return true;
    }
}
