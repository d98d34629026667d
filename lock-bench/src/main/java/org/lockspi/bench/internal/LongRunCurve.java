package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Steady contention for a long while, per provider: {@value #CLIENTS} services with {@value #THREADS} threads each
 * take {@value #LOCKS} locks in turn, acquire and release, for the settings' length; at even intervals this JVM's
 * heap after a full collection, its threads, the server's connections and its nodes or keys are sampled, with the
 * acquisitions since the last sample. The first sample is the baseline the others are held to (flat: within 5 %).
 */
final class LongRunCurve extends CurveScenario {
    static final int CLIENTS = 4;
    static final int THREADS = 2;
    static final int LOCKS = 8;
    /**
     * The server's nodes or keys that acquisitions under way may hold at a sample's moment, which a leak check
     * allows for: a node per waiting or holding thread (ZooKeeper), a few keys per lock (Redis: the lock's key,
     * a fair lock's queue), with room to spare: twice the threads plus three per lock.
     */
    static final int IN_FLIGHT = 2 * (CLIENTS * THREADS + 3 * LOCKS);

    LongRunCurve(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env, curves, out);
    }

    @Override
    void run() {
        phase("curve: long run, " + curves.longRun().toSeconds() + " s per provider, " + curves.longRunSamples()
                + " samples");
        for (Variant v : anchorsAndProviders()) {
            if (v.role() != Variant.Role.PROVIDER) {
                continue;
            }
            try {
                steady(v);
            } catch (Exception | LinkageError e) {
                CurveResults.Point p = point(CurveResults.Curve.LONG_RUN, v, "", 0);
                p.error = describe(e);
            }
        }
    }

    private void steady(Variant v) throws Exception {
        List<Variant.Client> clients = openClients(v, CLIENTS);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acquisitions = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int c = 0; c < CLIENTS; c++) {
                List<Variant.Locker> lockers = new ArrayList<>();
                for (int i = 0; i < LOCKS; i++) {
                    lockers.add(clients.get(c).locker("long-" + i));
                }
                for (int t = 0; t < THREADS; t++) {
                    int offset = c * THREADS + t;
                    Thread thread = new Thread(() -> {
                        int i = offset;
                        try {
                            while (!stop.get()) {
                                lockers.get(i++ % LOCKS).lock().release();
                                acquisitions.incrementAndGet();
                            }
                        } catch (InterruptedException e) {
                            if (!stop.get()) {
                                failure.compareAndSet(null, e);
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    }, "bench-long-" + offset);
                    thread.setDaemon(true);
                    threads.add(thread);
                    thread.start();
                }
            }
            long interval = curves.longRun().toNanos() / curves.longRunSamples();
            long t0 = System.nanoTime();
            long last = 0;
            for (int s = 1; s <= curves.longRunSamples() && failure.get() == null; s++) {
                long due = t0 + s * interval;
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(due - System.nanoTime())));
                long count = acquisitions.get();
                double seconds = (System.nanoTime() - t0) / 1e9;
                CurveResults.Point p = point(CurveResults.Curve.LONG_RUN, v, "", Math.round(seconds));
                p.metrics.put("rate", (count - last) / (interval / 1e9));
                last = count;
                p.metrics.put("heap_after_gc_bytes", (double) heapAfterGc());
                p.metrics.put("threads", (double) threads());
                p.metrics.put("server_connections", (double) serverConnections(v.backend()));
                p.metrics.put("server_entries", (double) serverEntries(v.backend()));
                p.metrics.put("server_bytes", (double) serverBytes(v.backend()));
                log.printf("[bench]   %-28s t=%5.0f s  %7.0f acq/s  heap %6.1f MB  threads %4.0f  connections %3.0f"
                                + "  entries %6.0f%n", v.name(), seconds, p.metric("rate"),
                        p.metric("heap_after_gc_bytes") / 1e6, p.metric("threads"), p.metric("server_connections"),
                        p.metric("server_entries"));
            }
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(5_000);
            }
            threads.forEach(Thread::interrupt);
            for (Thread t : threads) {
                t.join(60_000);
            }
            clients.forEach(Variant.Client::close);
        }
        if (failure.get() != null) {
            throw new IllegalStateException(describe(failure.get()), failure.get());
        }
    }
}
