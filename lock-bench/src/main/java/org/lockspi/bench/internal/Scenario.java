package org.lockspi.bench.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.lockspi.bench.jdbc.BenchDatabase;
import org.lockspi.spi.LockProvider;

/**
 * One scenario of the run, with what every scenario shares: the settings, the servers and their request counters,
 * the variants, and the results it adds its rows to.
 */
abstract class Scenario {

    /** What the run hands to every scenario; the servers are started, the variants built. */
    static final class Env {
        final Settings settings;
        final PrintStream log;
        final Results results;
        final long started;
        final ZooKeeperServerProcess zk;
        final RedisServerHandle redis;
        final ZooKeeper inspector;
        final List<Variant> variants;
        final Map<String, LockProvider> installed;
        /** The curves' PostgreSQL; null in the trade-off run, which has no JDBC variant. */
        final BenchDatabase database;

        Env(Settings settings, PrintStream log, Results results, long started, ZooKeeperServerProcess zk,
            RedisServerHandle redis, ZooKeeper inspector, List<Variant> variants, Map<String, LockProvider> installed) {
            this(settings, log, results, started, zk, redis, inspector, variants, installed, null);
        }

        Env(Settings settings, PrintStream log, Results results, long started, ZooKeeperServerProcess zk,
            RedisServerHandle redis, ZooKeeper inspector, List<Variant> variants, Map<String, LockProvider> installed,
            BenchDatabase database) {
            this.settings = settings;
            this.log = log;
            this.results = results;
            this.started = started;
            this.zk = zk;
            this.redis = redis;
            this.inspector = inspector;
            this.variants = variants;
            this.installed = installed;
            this.database = database;
        }
    }

    /** The longest a loop block waits for every thread to have acquired once before its window opens. */
    private static final Duration SETTLE_CAP = Duration.ofSeconds(2);

    protected final Settings settings;
    protected final PrintStream log;
    protected final Results results;
    protected final ZooKeeperServerProcess zk;
    protected final RedisServerHandle redis;
    protected final ZooKeeper inspector;
    protected final List<Variant> variants;
    protected final Map<String, LockProvider> installed;
    protected final BenchDatabase database;
    private final long started;

    Scenario(Env env) {
        this.settings = env.settings;
        this.log = env.log;
        this.results = env.results;
        this.started = env.started;
        this.zk = env.zk;
        this.redis = env.redis;
        this.inspector = env.inspector;
        this.variants = env.variants;
        this.installed = env.installed;
        this.database = env.database;
    }

    /** Runs the scenario and adds its rows to the results; a variant's failure is its row's error. */
    abstract void run() throws Exception;

    /** Logs the start of a phase with the time since the run began. */
    final void phase(String text) {
        log.printf("[bench] %6.1f s  %s%n", (System.nanoTime() - started) / 1e9, text);
    }

    /** @return a short scope for a variant: its lock paths or key prefixes */
    static String scope(Variant v) {
        return v.name().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    /**
     * @return the backend's request counter: ZooKeeper packets received, Redis commands (INFO left out), or on JDBC
     *         the statements, commits and rollbacks the variants' connections sent, counted in the client as the
     *         JDBC study counts them ({@code CountingDriver}; the gauges' own queries left out). Not
     *         {@code pg_stat_database.xact_commit}: PostgreSQL 14 reports a busy connection's transactions at most
     *         every 500 ms, so a block of a few hundred ms often saw none.
     */
    final long requests(Variant.Backend backend) throws IOException {
        switch (backend) {
            case ZOOKEEPER:
                return zk.packetsReceived();
            case REDIS:
                return redis.commands();
            default:
                return database.requests();
        }
    }

    /**
     * @return the server requests since {@code before} was read, less the reading itself ({@code srvr} counts)
     */
    final long requestsSince(Variant.Backend backend, long before) throws IOException {
        return requests(backend) - before - (backend == Variant.Backend.ZOOKEEPER ? 1 : 0);
    }

    static <T> List<T> rotate(List<T> list, int by) {
        List<T> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get((i + by) % list.size()));
        }
        return out;
    }

    static String describe(Throwable t) {
        Throwable root = t;
        StringBuilder message = new StringBuilder(t.toString());
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            message.append(" <- ").append(root);
        }
        return message.toString().replace('\n', ' ');
    }

    /** @return the variants that contend (all but the floors) */
    final List<Variant> contenders() {
        return variants.stream().filter(Variant::contends).collect(Collectors.toList());
    }

    final List<Variant.Client> openClients(Variant v, int count) throws Exception {
        List<Variant.Client> opened = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                opened.add(v.open(scope(v)));
            }
        } catch (Exception | LinkageError e) {
            opened.forEach(Variant.Client::close);
            throw e;
        }
        return opened;
    }

    /**
     * Waits until n waiters are queued at the server: on ZooKeeper until the lock's path has n + 1 children; on
     * Redis, where waiters have no server-side queue, until the server saw n more commands than before they started
     * (every waiter has tried at least about once), plus a short settle. A provider's service lets one of its threads
     * ask the server at a time (its others wait in its local queue): n is then the waiting services, not threads.
     *
     * @return the requests this wait sent to the ZooKeeper server itself (its {@code getChildren} calls), so that
     *         a request count around it can leave them out; 0 on Redis (INFO is not counted)
     */
    final long awaitQueued(String zkPath, int n, long redisBefore) throws Exception {
        if (n < 0) {
            throw new IllegalArgumentException("waiters at the server < 0: " + n);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        long sent = 0;
        while (System.nanoTime() < deadline) {
            if (zkPath != null) {
                try {
                    sent++;
                    if (inspector.getChildren(zkPath, false).size() >= n + 1) {
                        return sent;
                    }
                } catch (KeeperException.NoNodeException notYet) {
                    // parent not created yet
                }
            } else if (redis.commands() - redisBefore >= n) {
                Thread.sleep(20);
                return sent;
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException(n + " waiters were not queued within 120 s");
    }

    /** Waits until every thread is parked (waiting, with or without a timeout), as long as {@code limit}. */
    static void awaitParked(List<Thread> threads, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            int parked = 0;
            for (Thread t : threads) {
                Thread.State s = t.getState();
                if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                    parked++;
                }
            }
            if (parked == threads.size()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("only " + parked + " of " + threads.size() + " waiters parked "
                        + "within " + limit.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
    }

    /**
     * Runs one thread per locker, each acquiring and releasing in a loop for a while; counts acquisitions per
     * thread and measures hand-off from the moment {@code release()} is called to the moment another thread's
     * acquire returns.
     */
    final void loopBlock(Variant v, List<Variant.Locker> lockers, Duration duration, Results.Contended into,
                           String tag, int round) throws Exception {
        int n = lockers.size();
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean interrupting = new AtomicBoolean();
        AtomicLong releaseStamp = new AtomicLong();
        AtomicInteger lastHolder = new AtomicInteger(-1);
        AtomicLongArray counts = new AtomicLongArray(n);
        AtomicLong all = new AtomicLong();
        Samples handoff = new Samples();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CyclicBarrier go = new CyclicBarrier(n + 1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int me = i;
            Variant.Locker locker = lockers.get(i);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    while (true) {
                        Variant.Held held = locker.lock();
                        long now = System.nanoTime();
                        all.incrementAndGet();
                        if (stop.get()) {
                            held.release();
                            return;
                        }
                        int previous = lastHolder.getAndSet(me);
                        if (measuring.get()) {
                            if (previous >= 0 && previous != me) {
                                handoff.add(now - releaseStamp.get());
                            }
                            counts.incrementAndGet(me);
                        }
                        releaseStamp.set(System.nanoTime());
                        held.release();
                    }
                } catch (Throwable e) {
                    if (!interrupting.get()) {
                        failure.compareAndSet(null, e);
                    }
                    stop.set(true);
                }
            }, "bench-" + tag + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        go.await(30, TimeUnit.SECONDS);
        // settle: the window opens once every thread could have had its turn (all queued, steady state), or
        // after SETTLE_CAP for locks too slow or too unfair for that
        long settleEnd = System.nanoTime() + SETTLE_CAP.toNanos();
        while (all.get() < n && System.nanoTime() < settleEnd && !stop.get()) {
            Thread.sleep(5);
        }
        long before = into == null ? 0 : requests(v.backend());
        measuring.set(true);
        long t0 = System.nanoTime();
        Thread.sleep(duration.toMillis());
        measuring.set(false);
        long t1 = System.nanoTime();
        long requestsInWindow = into == null ? 0 : requestsSince(v.backend(), before);
        stop.set(true);
        // threads still queued leave by acquiring once more; after a grace period the rest are interrupted
        // (every measured lock gives up a waiting acquire on interrupt and removes its queue entry)
        long graceEnd = System.nanoTime() + Math.min(TimeUnit.SECONDS.toNanos(2), duration.toNanos());
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(graceEnd - System.nanoTime())));
        }
        interrupting.set(true);
        for (Thread t : threads) {
            if (t.isAlive()) {
                t.interrupt();
            }
        }
        long joinDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinDeadline - System.nanoTime())));
            if (t.isAlive()) {
                throw new IllegalStateException("thread " + t.getName() + " still waits for the lock 120 s after "
                        + "the block ended");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a thread failed: " + describe(failure.get()), failure.get());
        }
        if (into != null) {
            long blockCount = 0;
            for (int i = 0; i < n; i++) {
                into.perClient[i % into.perClient.length] += counts.get(i);
                blockCount += counts.get(i);
            }
            into.acquisitions += blockCount;
            into.allAcquisitions += blockCount;
            into.requests += requestsInWindow;
            into.seconds += (t1 - t0) / 1e9;
            into.perRound.put(round, blockCount / ((t1 - t0) / 1e9));
            into.handoff.addAll(handoff);
        }
    }
}
