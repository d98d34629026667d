package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * N leases held at once by one service: N distinct locks taken by {@value #TAKERS} threads (each holds what it
 * took, as thread-owned locks require), then, with all N held: the time it took, this JVM's heap after a full
 * collection and its threads against the same figures before the first acquisition (the takers already running),
 * and the server's nodes, keys or rows and data size against theirs before. The variants run one after the other, one
 * open service at a time, so that no other client's heap or threads count.
 */
final class HeldLeasesCurve extends CurveScenario {
    static final int TAKERS = 8;

    HeldLeasesCurve(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env, curves, out);
    }

    @Override
    void run() {
        phase("curve: held leases, ZooKeeper N = " + java.util.Arrays.toString(curves.heldZooKeeper()) + ", Redis N = "
                + java.util.Arrays.toString(curves.heldRedis()) + ", JDBC N = "
                + java.util.Arrays.toString(curves.heldJdbc()) + ", " + TAKERS + " taking threads");
        for (Variant v : anchorsAndProviders()) {
            int[] ns = switch (v.backend()) {
                case ZOOKEEPER -> curves.heldZooKeeper();
                case REDIS -> curves.heldRedis();
                case JDBC -> curves.heldJdbc();
            };
            for (int n : ns) {
                CurveResults.Point p = point(CurveResults.Curve.HELD, v, "", n);
                try {
                    hold(v, n, p);
                } catch (Exception | LinkageError e) {
                    p.error = describe(e);
                }
                log.printf("[bench]   %-28s N=%-7d take %6.1f s  heap/lease %7.0f B  threads +%3.0f  server "
                                + "entries/lease %5.2f  bytes/lease %6.0f%s%n", p.variant, n, p.metric("take_seconds"),
                        p.metric("heap_bytes_per_lease"), p.metric("threads_added"),
                        p.metric("server_entries_per_lease"), p.metric("server_bytes_per_lease"),
                        p.error == null ? (p.cutShort ? "  CUT SHORT" : "") : "  FAILED " + p.error);
            }
        }
    }

    private void hold(Variant v, int n, CurveResults.Point p) throws Exception {
        String tag = "held-" + n + "-" + Long.toString(System.nanoTime(), 36);
        try (Variant.Client client = v.open(scope(v))) {
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch taken = new CountDownLatch(TAKERS);
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger held = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> takers = new ArrayList<>();
            for (int t = 0; t < TAKERS; t++) {
                int me = t;
                Thread thread = new Thread(() -> {
                    List<Variant.Held> mine = new ArrayList<>();
                    try {
                        go.await();
                        for (int i = me; i < n && !stop.get(); i += TAKERS) {
                            mine.add(client.locker(tag + "-" + i).lock());
                            held.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        taken.countDown();
                    }
                    try {
                        release.await();
                        for (Variant.Held h : mine) {
                            h.release();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "bench-held-" + t);
                thread.setDaemon(true);
                takers.add(thread);
                thread.start();
            }
            try {
                long heapBefore = heapAfterGc();
                int threadsBefore = threads();
                long entriesBefore = serverEntries(v.backend());
                long bytesBefore = serverBytes(v.backend());
                long t0 = System.nanoTime();
                go.countDown();
                if (!taken.await(curves.heldCap().toMillis(), TimeUnit.MILLISECONDS)) {
                    stop.set(true);
                    p.cutShort = true;
                    taken.await(60, TimeUnit.SECONDS);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                if (failure.get() != null) {
                    throw new IllegalStateException("taking " + n + " leases: " + describe(failure.get()),
                            failure.get());
                }
                int count = held.get();
                p.metrics.put("held", (double) count);
                p.metrics.put("take_seconds", seconds);
                p.metrics.put("take_rate", count / seconds);
                p.metrics.put("heap_bytes_per_lease", (double) (heapAfterGc() - heapBefore) / count);
                p.metrics.put("threads_added", (double) (threads() - threadsBefore));
                p.metrics.put("server_entries_per_lease", (double) (serverEntries(v.backend()) - entriesBefore) / count);
                p.metrics.put("server_bytes_per_lease", (double) (serverBytes(v.backend()) - bytesBefore) / count);
            } finally {
                stop.set(true);
                go.countDown();
                release.countDown();
                for (Thread t : takers) {
                    t.join(300_000);
                }
            }
            if (failure.get() != null) {
                throw new IllegalStateException("releasing: " + describe(failure.get()), failure.get());
            }
        }
    }
}
