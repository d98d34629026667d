package org.lockspi.bench.internal;

import java.io.PrintStream;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.zookeeper.ZooKeeper;
import org.lockspi.Locks;
import org.lockspi.bench.jdbc.BenchDatabase;
import org.lockspi.spi.LockProvider;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;

/**
 * Runs the curves: how the cost grows with contending clients, distinct locks, held leases and waiters, and a long
 * run per provider; every provider beside its anchor (Curator's {@code InterProcessMutex} for ZooKeeper, Redisson's
 * {@code RLock} for Redis, Spring Integration's {@code JdbcLockRegistry} for JDBC), on the servers of the trade-off
 * run (ZooKeeper in a child JVM, redis-server) and the JDBC study's PostgreSQL, with the trade-off run's scenario
 * base (its loop block, its request counters).
 */
public final class Curves {
    /** The JDBC provider: measured by the curves only (the trade-off run has no database; the JDBC study has it). */
    static final String JDBC_PROVIDER = "jdbc";

    private final CurveSettings settings;
    private final PrintStream log;
    private final CurveResults results = new CurveResults();

    public Curves(CurveSettings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Starts the servers, runs every curve, stops everything it started. */
    public CurveResults run() throws Exception {
        long start = System.nanoTime();
        results.settings = settings;
        results.date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        results.machine = Machine.describe();
        results.jvm = Machine.jvm();
        results.notes.add("Load average (1, 5, 15 min) at the start: " + Machine.load()
                + "; the machine is shared, so absolute figures drift and only "
                + "the interleaved ratios compare.");
        Settings base = Settings.of(settings.mode());
        try (ZooKeeperServerProcess zk = ZooKeeperServerProcess.start(base.zkTickTime());
             RedisServerHandle redis = RedisServerHandle.start();
             BenchDatabase database = BenchDatabase.start("curves-inspector", 2, 1)) {
            database.countRequests();
            results.zooKeeperServer = zk.description();
            results.redisServer = redis.description();
            results.databaseServer = database.description() + " (max_connections "
                    + database.number("SELECT current_setting('max_connections')::bigint") + "); the "
                    + "provider's pool: its default per service (poolSize 8, HikariCP); the anchor's: one HikariCP "
                    + "pool per client (at most " + SpringJdbcAnchor.POOL_SIZE + " connections); the bench's gauges: "
                    + "a pool of its own (" + database.poolSize() + " connections)";
            results.notes.add("Requests per acquisition on JDBC: the statements (a batch as one) plus the commits "
                    + "and rollbacks the variant's connections sent, counted in the client as the JDBC study counts "
                    + "them (which shows the two apart); "
                    + "the server's rows and bytes: the provider's and the anchor's tables (`count(*)`, "
                    + "`pg_total_relation_size`, which grows with the rows and does not shrink before a vacuum); its "
                    + "connections: `pg_stat_activity` on the bench database.");
            ZooKeeper inspector = ZooKeeperFloor.connect(zk.connectString(), 30_000);
            try {
                ZooKeeperFloor.ensurePath(inspector, "/bench");
                Map<String, LockProvider> installed = new LinkedHashMap<>();
                for (LockProvider p : Locks.providers()) {
                    installed.put(p.name(), p);
                }
                List<Variant> variants = variants(zk, redis, database, installed);
                Scenario.Env env = new Scenario.Env(base, log, new Results(), start, zk, redis, inspector, variants,
                        installed, database);
                new ClientsCurve(env, settings, results).run();
                new LocksCurve(env, settings, results).run();
                new HeldLeasesCurve(env, settings, results).run();
                new HandoffCurve(env, settings, results).run();
                new LongRunCurve(env, settings, results).run();
            } finally {
                inspector.close();
            }
        } finally {
            results.runMillis = (System.nanoTime() - start) / 1_000_000;
            results.notes.add("Load average at the end: " + Machine.load() + ".");
        }
        return results;
    }

    /** The anchors, then every installed provider of the trade-off run (the floors do not contend). */
    private List<Variant> variants(ZooKeeperServerProcess zk, RedisServerHandle redis, BenchDatabase database,
                                   Map<String, LockProvider> installed) {
        List<Variant> variants = new ArrayList<>();
        variants.add(new CuratorAnchor(zk.connectString()));
        variants.add(new RedissonAnchor(redis.port()));
        variants.add(new SpringJdbcAnchor(database));
        results.notes.add(CurveReport.JDBC_ANCHOR + ": spring-integration-jdbc " + version(JdbcLockRegistry.class)
                + ", `obtain(name).lockInterruptibly()` / `unlock()`: a local lock, then a transaction on `INT_LOCK`;"
                + " waiters poll every 100 ms; rows live 60 s here (10 s by default), not renewed; no token.");
        Map<String, Variant.Backend> measured = new LinkedHashMap<>(Bench.PROVIDERS);
        measured.putAll(Bench.OPTIONAL_PROVIDERS);
        measured.put(JDBC_PROVIDER, Variant.Backend.JDBC);
        for (Map.Entry<String, Variant.Backend> p : measured.entrySet()) {
            if (!installed.containsKey(p.getKey())) {
                results.notes.add("Provider `" + p.getKey() + "` is not installed: not measured.");
                continue;
            }
            String base = switch (p.getValue()) {
                case ZOOKEEPER -> "zookeeper://" + zk.connectString();
                case REDIS -> redis.uri();
                case JDBC -> database.uri();
            };
            variants.add(new ProviderVariant(p.getKey(), p.getValue(), base));
            results.notes.add("Provider `" + p.getKey() + "` " + installed.get(p.getKey()).version()
                    + " with its default parameters.");
        }
        return variants;
    }

    /** @return a library's version from its jar's manifest, or "(version unknown)" */
    private static String version(Class<?> type) {
        String v = type.getPackage().getImplementationVersion();
        return v == null ? "(version unknown)" : v;
    }
}
