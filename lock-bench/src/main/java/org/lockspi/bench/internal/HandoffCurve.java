package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.lockspi.spi.LockKeys;
import org.lockspi.tck.jdbc.DatabaseBackend;

/**
 * Hand-off latency against the waiters: one service; a holder thread takes the lock, N threads of the same service
 * call {@code acquire()} on it and wait (all of them parked, and with a thread-owned mutex all N nodes queued on
 * ZooKeeper, all N rows on JDBC), the holder releases and the queue drains, each waiter releasing at once. A
 * hand-off runs from the moment the previous holder calls {@code release()} to the moment the next one's acquire
 * returns. Small N drain again until the settings' samples are collected. On the thread-owned {@code mutex} (every
 * provider and the anchors, Curator's {@code InterProcessMutex} one instance per thread) and on the
 * {@code nonReentrantMutex} (the providers; a service's waiters queue locally and one entry waits on the server).
 */
final class HandoffCurve extends CurveScenario {
    static final String MUTEX = "mutex";
    static final String NON_REENTRANT = "non_reentrant";

    HandoffCurve(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env, curves, out);
    }

    @Override
    void run() {
        phase("curve: hand-off vs waiters " + java.util.Arrays.toString(curves.waiters()) + " on one service, "
                + "thread-owned (Curator's up to " + curves.threadOwnedZkMax() + ") and non-reentrant");
        for (int n : curves.waiters()) {
            for (String kind : List.of(MUTEX, NON_REENTRANT)) {
                for (Variant v : anchorsAndProviders()) {
                    if (kind.equals(NON_REENTRANT) && v.role() != Variant.Role.PROVIDER) {
                        continue;
                    }
                    if (kind.equals(MUTEX) && v.backend() == Variant.Backend.ZOOKEEPER
                            && v.role() == Variant.Role.ANCHOR && n > curves.threadOwnedZkMax()) {
                        continue;
                    }
                    CurveResults.Point p = point(CurveResults.Curve.HANDOFF, v, kind, n);
                    try (Variant.Client client = v.open(scope(v))) {
                        int drains = Math.max(1, (curves.handoffSamples() + n - 1) / n);
                        for (int d = 0; d < drains && !p.cutShort; d++) {
                            drain(v, client, kind, n, "handoff-" + kind + "-" + n + "-" + d, p);
                        }
                        p.metrics.put("drains", (double) drains);
                    } catch (Exception | LinkageError e) {
                        p.error = describe(e);
                    }
                    log.printf("[bench]   %-28s %-13s N=%-6d hand-off p50 %9.1f us  p99 %9.1f us%s%n", p.variant,
                            kind, n, p.handoff.p50() / 1e3, p.handoff.p99() / 1e3,
                            p.error == null ? (p.cutShort ? "  CUT SHORT" : "") : "  FAILED " + p.error);
                }
            }
        }
    }

    private void drain(Variant v, Variant.Client client, String kind, int n, String lockName, CurveResults.Point p)
            throws Exception {
        AtomicLong releaseStamp = new AtomicLong();
        AtomicInteger done = new AtomicInteger();
        AtomicBoolean cut = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        Samples handoff = new Samples();
        Thread holder = new Thread(() -> {
            try {
                Variant.Held held = locker(client, kind, lockName).lock();
                holding.countDown();
                letGo.await();
                releaseStamp.set(System.nanoTime());
                held.release();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                holding.countDown();
            }
        }, "bench-handoff-holder");
        holder.setDaemon(true);
        holder.start();
        if (!holding.await(60, TimeUnit.SECONDS) || failure.get() != null) {
            throw new IllegalStateException("the holder did not acquire: " + describe(failure.get()));
        }
        List<Thread> waiters = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Variant.Locker locker = locker(client, kind, lockName);
                Thread t = new Thread(() -> {
                    try {
                        Variant.Held held = locker.lock();
                        long now = System.nanoTime();
                        handoff.add(now - releaseStamp.get());
                        releaseStamp.set(System.nanoTime());
                        held.release();
                        done.incrementAndGet();
                    } catch (InterruptedException e) {
                        if (!cut.get()) {
                            failure.compareAndSet(null, e);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "bench-handoff-waiter-" + i);
                t.setDaemon(true);
                waiters.add(t);
                t.start();
            }
            awaitParked(waiters, v, client, kind, lockName, n);
            long t0 = System.nanoTime();
            letGo.countDown();
            long deadline = t0 + curves.drainCap().toNanos();
            for (Thread t : waiters) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            p.metrics.merge("drain_seconds", (System.nanoTime() - t0) / 1e9, Math::max);
            if (done.get() < n) {
                p.cutShort = true;
            }
        } finally {
            letGo.countDown();
            cut.set(true);
            waiters.forEach(Thread::interrupt);
            for (Thread t : waiters) {
                t.join(120_000);
            }
            holder.join(60_000);
        }
        if (failure.get() != null) {
            throw new IllegalStateException(describe(failure.get()), failure.get());
        }
        p.handoff.addAll(handoff);
    }

    private static Variant.Locker locker(Variant.Client client, String kind, String lockName) throws Exception {
        return kind.equals(MUTEX) ? client.locker(lockName) : client.nonReentrantLocker(lockName);
    }

    /**
     * Waits until every waiter is parked (waiting, with or without a timeout) and, on ZooKeeper with Curator's
     * thread-owned mutex, every waiter's node is queued (a provider's waiters, of the holder's own service, all wait
     * in its local queue); then 100 ms more.
     */
    private void awaitParked(List<Thread> waiters, Variant v, Variant.Client client, String kind, String lockName,
                             int n) throws Exception {
        awaitParked(waiters, curves.drainCap());
        String zkPath = kind.equals(MUTEX) ? client.zkLockPath(lockName) : null;
        if (zkPath != null) {
            awaitQueued(zkPath, v.role() == Variant.Role.PROVIDER ? 0 : n, 0);
        }
        Thread.sleep(100);
    }
}
