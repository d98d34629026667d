package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
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
import java.util.stream.Collectors;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;

/**
 * Runs every scenario against the backends it starts: the ZooKeeper server in a child JVM and redis-server from
 * embedded-redis. Compared variants run interleaved in blocks (A, B, C, A, B, C ...), the order rotating every
 * round, so that drift of a shared machine falls on all of them alike.
 */
public final class Bench {
    /** The providers measured, by name, with their backend. */
    static final Map<String, Variant.Backend> PROVIDERS = new LinkedHashMap<>();

    static {
        PROVIDERS.put("zookeeper-raw", Variant.Backend.ZOOKEEPER);
        PROVIDERS.put("zkclient", Variant.Backend.ZOOKEEPER);
        PROVIDERS.put("curator", Variant.Backend.ZOOKEEPER);
        PROVIDERS.put("redis-baseline", Variant.Backend.REDIS);
    }

    /** How much longer the discarded warm-up block of the uncontended cycle is than a measured one. */
    private static final int WARMUP_FACTOR = 30;

    /** The longest a loop block waits for every thread to have acquired once before its window opens. */
    private static final Duration SETTLE_CAP = Duration.ofSeconds(2);

    private final Settings settings;
    private final PrintStream log;
    private final Results results = new Results();
    private ZooKeeperServerProcess zk;
    private RedisServerHandle redis;
    private ZooKeeper inspector;
    private final List<Variant> variants = new ArrayList<>();
    private final Map<String, LockProvider> installed = new LinkedHashMap<>();

    public Bench(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Starts the servers, runs every scenario, stops everything it started. */
    private long started;

    /** Logs the start of a phase with the time since the run began. */
    private void phase(String text) {
        log.printf("[bench] %6.1f s  %s%n", (System.nanoTime() - started) / 1e9, text);
    }

    public Results run() throws Exception {
        long start = System.nanoTime();
        started = start;
        results.settings = settings;
        results.date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        results.machine = Machine.describe();
        results.notes.add("Load average (1, 5, 15 min) at the start: " + Machine.load()
                + "; the machine is shared, so absolute figures drift and only the interleaved ratios compare.");
        results.jvm = Machine.jvm();
        try {
            zk = ZooKeeperServerProcess.start(settings.zkTickTime());
            redis = RedisServerHandle.start();
            results.zooKeeperServer = zk.description();
            results.redisServer = redis.description();
            phase("started " + results.zooKeeperServer);
            phase("started " + results.redisServer);
            inspector = ZooKeeperFloor.connect(zk.connectString(), 30_000);
            ZooKeeperFloor.ensurePath(inspector, "/bench");
            buildVariants();
            uncontended();
            for (int k : settings.clients()) {
                contended(k);
            }
            drains();
            manyThreads();
            takeover();
            phase("done");
        } finally {
            if (inspector != null) {
                inspector.close();
            }
            if (redis != null) {
                redis.close();
            }
            if (zk != null) {
                zk.close();
            }
            results.runMillis = (System.nanoTime() - start) / 1_000_000;
            results.notes.add("Load average at the end: " + Machine.load() + ".");
        }
        return results;
    }

    private void buildVariants() {
        for (LockProvider p : Locks.providers()) {
            installed.put(p.name(), p);
        }
        variants.add(new ZooKeeperFloor(zk.connectString()));
        variants.add(new CuratorAnchor(zk.connectString()));
        variants.add(new RedisFloor(redis.port()));
        variants.add(new RedissonAnchor(redis.port()));
        for (Map.Entry<String, Variant.Backend> p : PROVIDERS.entrySet()) {
            if (!installed.containsKey(p.getKey())) {
                results.providersMissing.add(p.getKey());
                phase("provider not installed, not measured: " + p.getKey());
                continue;
            }
            String base = p.getValue() == Variant.Backend.ZOOKEEPER ? "zookeeper://" + zk.connectString()
                    : redis.uri();
            ProviderVariant pv = new ProviderVariant(p.getKey(), p.getValue(), base);
            variants.add(pv);
            results.notes.add("Provider `" + p.getKey() + "` " + installed.get(p.getKey()).version() + " opened as `"
                    + pv.uri(scope(pv)) + "` with its default parameters"
                    + (p.getValue() == Variant.Backend.REDIS ? " (its waiters poll with back-off; see its "
                    + "retryInitial/retryMax parameters)" : "") + ".");
        }
    }

    /** @return a short scope for a variant: its lock paths or key prefixes */
    private static String scope(Variant v) {
        return v.name().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    }

    private long requests(Variant.Backend backend) throws IOException {
        return backend == Variant.Backend.ZOOKEEPER ? zk.packetsReceived() : redis.commands();
    }

    /** @return the server requests since {@code before} was read, less the reading itself ({@code srvr} counts) */
    private long requestsSince(Variant.Backend backend, long before) throws IOException {
        return requests(backend) - before - (backend == Variant.Backend.ZOOKEEPER ? 1 : 0);
    }

    private static <T> List<T> rotate(List<T> list, int by) {
        List<T> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get((i + by) % list.size()));
        }
        return out;
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        StringBuilder message = new StringBuilder(t.toString());
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            message.append(" <- ").append(root);
        }
        return message.toString().replace('\n', ' ');
    }

    // ---------------------------------------------------------------- uncontended

    private void uncontended() {
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

    // ---------------------------------------------------------------- contended

    private List<Variant> contenders() {
        return variants.stream().filter(Variant::contends).collect(Collectors.toList());
    }

    private void contended(int k) {
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

    /**
     * Runs one thread per locker, each acquiring and releasing in a loop for a while; counts acquisitions per
     * thread and measures hand-off from the moment {@code release()} is called to the moment another thread's
     * acquire returns.
     */
    private void loopBlock(Variant v, List<Variant.Locker> lockers, Duration duration, Results.Contended into,
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

    /**
     * Hand-off while queues of every N drain. All N values and variants interleave within each round, so the
     * ratio of N = 1,000 to N = 1 is not skewed by drift between phases.
     */
    private void drains() {
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
                log.printf("[bench]   %-28s N=%-5d hand-off p50 %8.1f us  p99 %8.1f us  (%d hand-offs)%s%s%n",
                        r.variant, n, r.handoff.p50() / 1e3, r.handoff.p99() / 1e3, r.handoff.size(),
                        r.cutShort ? " CUT SHORT" : "", r.error == null ? "" : "  FAILED " + r.error);
            }
        }
    }

    private List<Variant.Client> openClients(Variant v, int count) throws Exception {
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

    /** @return false if the drain was cut short and the clients closed */
    private boolean drainOnce(Variant v, List<Variant.Client> clients, int n, Results.Drain into, int round)
            throws Exception {
        String name = "drain-" + n;
        int waitingClients = Math.min(n, clients.size() - 1);
        Variant.Client holderClient = clients.get(0);
        Variant.Held first = holderClient.locker(name).lock();
        AtomicLong stamp = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch done = new CountDownLatch(n);
        Samples handoff = new Samples();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long before = v.backend() == Variant.Backend.REDIS ? redis.commands() : 0;
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
            awaitQueued(holderClient.zkLockPath(name), n, before);
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
            into.handoff.addAll(handoff);
            into.perRound.computeIfAbsent(round, x -> new Samples()).addAll(handoff);
            into.drains++;
        }
        return true;
    }

    /**
     * Waits until n waiters are queued: on ZooKeeper until the lock's path has n + 1 children; on Redis, where
     * waiters have no server-side queue, until the server saw n more commands than before they started (every
     * waiter has tried at least about once), plus a short settle.
     */
    private void awaitQueued(String zkPath, int n, long redisBefore) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (zkPath != null) {
                try {
                    if (inspector.getChildren(zkPath, false).size() >= n + 1) {
                        return;
                    }
                } catch (KeeperException.NoNodeException notYet) {
                    // parent not created yet
                }
            } else if (redis.commands() - redisBefore >= n) {
                Thread.sleep(20);
                return;
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException(n + " waiters were not queued within 120 s");
    }

    // ---------------------------------------------------------------- many threads, one lock object

    private void manyThreads() {
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

    // ---------------------------------------------------------------- take-over after a kill

    /** URI parameter names a provider may use for its session timeout or lease time, in order of preference. */
    private static final List<String> TIMEOUT_PARAMETERS = List.of("sessionTimeout", "leaseTime", "session-timeout",
            "lease-time", "ttl", "lease", "leaseTimeout");

    /** A holder JVM: started early so that JVM start-ups overlap, killed one at a time. */
    private static final class Holder {
        final ProviderVariant variant;
        final Results.Takeover into;
        final String uri;
        final String name;
        final Process process;
        final CountDownLatch held = new CountDownLatch(1);
        final StringBuilder transcript = new StringBuilder();

        Holder(ProviderVariant variant, Results.Takeover into, String uri, String name) throws IOException {
            this.variant = variant;
            this.into = into;
            this.uri = uri;
            this.name = name;
            this.process = ChildJvm.start(HolderProcess.class, List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), List.of(variant.name(), uri, name), null);
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = out.readLine()) != null) {
                        synchronized (transcript) {
                            transcript.append(l).append('\n');
                        }
                        if (l.startsWith("HELD")) {
                            held.countDown();
                        }
                    }
                } catch (IOException ignored) {
                    // the process was killed
                }
            }, "bench-holder-out");
            reader.setDaemon(true);
            reader.start();
        }

        String transcript() {
            synchronized (transcript) {
                return transcript.toString();
            }
        }
    }

    private void takeover() {
        long ms = settings.takeoverTimeout().toMillis();
        phase("take-over after the holder's process is killed (holder runs with a " + ms
                + " ms session timeout / lease time)");
        List<Holder> holders = new ArrayList<>();
        try {
            for (Variant v : variants) {
                if (!(v instanceof ProviderVariant)) {
                    continue;
                }
                ProviderVariant pv = (ProviderVariant) v;
                Results.Takeover r = new Results.Takeover(v);
                results.takeovers.add(r);
                Set<String> accepted = installed.get(v.name()).parameters();
                String parameter = TIMEOUT_PARAMETERS.stream().filter(accepted::contains).findFirst().orElse(null);
                String uri = pv.uri(scope(v)) + (parameter == null ? "" : "?" + parameter + "=" + ms + "ms");
                r.setting = parameter == null ? "provider default (it accepts none of " + TIMEOUT_PARAMETERS + ")"
                        : parameter + "=" + ms + "ms";
                for (int s = 0; s < settings.takeoverSamples(); s++) {
                    try {
                        holders.add(new Holder(pv, r, uri, "takeover-" + s));
                    } catch (IOException e) {
                        r.error = "holder JVM: " + describe(e);
                    }
                }
            }
            for (Holder h : holders) {
                if (h.into.error != null) {
                    continue;
                }
                try {
                    takeoverOnce(h);
                } catch (Exception | LinkageError e) {
                    h.into.error = describe(e);
                }
            }
        } finally {
            holders.forEach(h -> ChildJvm.kill(h.process));
        }
        for (Results.Takeover r : results.takeovers) {
            log.printf("[bench]   %-28s %8.0f ms (%s)%s%n", r.variant, r.takeover.p50() / 1e6, r.setting,
                    r.error == null ? "" : "  FAILED " + r.error);
        }
    }

    private void takeoverOnce(Holder h) throws Exception {
        ProviderVariant v = h.variant;
        if (!h.held.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the holder process did not report HELD within 60 s: " + h.transcript());
        }
        try (org.lockspi.LockService waiterService = Locks.open(h.uri, v.name())) {
            long before = v.backend() == Variant.Backend.REDIS ? redis.commands() : 0;
            AtomicLong acquiredAt = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    org.lockspi.Lease lease = waiterService.mutex(h.name).acquire(Duration.ofSeconds(120));
                    acquiredAt.set(System.nanoTime());
                    lease.release();
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "bench-takeover-waiter");
            waiter.setDaemon(true);
            waiter.start();
            String path = v.backend() == Variant.Backend.ZOOKEEPER ? "/bench/" + scope(v) + "/" + h.name : null;
            awaitQueued(path, 1, before);
            if (acquiredAt.get() != 0 || !h.process.isAlive()) {
                throw new IllegalStateException("the lock was free before the holder was killed: " + h.transcript());
            }
            long killedAt = System.nanoTime();
            h.process.destroyForcibly();
            waiter.join(150_000);
            if (failure.get() != null) {
                throw new IllegalStateException("the waiter failed: " + describe(failure.get()), failure.get());
            }
            if (acquiredAt.get() == 0) {
                throw new IllegalStateException("the waiter did not get the lock within 150 s of the kill");
            }
            h.into.takeover.add(acquiredAt.get() - killedAt);
        }
    }

    /** @return the run's results so far */
    public Results results() {
        return results;
    }

}
