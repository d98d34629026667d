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
import org.lockspi.spi.LockProvider;

/**
 * Runs the curves: how the cost grows with contending clients, distinct locks, held leases and waiters, and a long
 * run per provider; every provider beside its anchor (Curator's {@code InterProcessMutex} for ZooKeeper, Redisson's
 * {@code RLock} for Redis), on the servers of the trade-off run (ZooKeeper in a child JVM, redis-server), with the
 * trade-off run's scenario base (its loop block, its request counters).
 */
public final class Curves {
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
                + "; the machine is shared (other builds ran beside this one), so absolute figures drift and only "
                + "the interleaved ratios compare.");
        Settings base = Settings.of(settings.mode());
        try (ZooKeeperServerProcess zk = ZooKeeperServerProcess.start(base.zkTickTime());
             RedisServerHandle redis = RedisServerHandle.start()) {
            results.zooKeeperServer = zk.description();
            results.redisServer = redis.description();
            ZooKeeper inspector = ZooKeeperFloor.connect(zk.connectString(), 30_000);
            try {
                ZooKeeperFloor.ensurePath(inspector, "/bench");
                Map<String, LockProvider> installed = new LinkedHashMap<>();
                for (LockProvider p : Locks.providers()) {
                    installed.put(p.name(), p);
                }
                List<Variant> variants = variants(zk, redis, installed);
                Scenario.Env env = new Scenario.Env(base, log, new Results(), start, zk, redis, inspector, variants,
                        installed);
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
    private List<Variant> variants(ZooKeeperServerProcess zk, RedisServerHandle redis,
                                   Map<String, LockProvider> installed) {
        List<Variant> variants = new ArrayList<>();
        variants.add(new CuratorAnchor(zk.connectString()));
        variants.add(new RedissonAnchor(redis.port()));
        Map<String, Variant.Backend> measured = new LinkedHashMap<>(Bench.PROVIDERS);
        measured.putAll(Bench.OPTIONAL_PROVIDERS);
        for (Map.Entry<String, Variant.Backend> p : measured.entrySet()) {
            if (!installed.containsKey(p.getKey())) {
                results.notes.add("Provider `" + p.getKey() + "` is not installed: not measured.");
                continue;
            }
            String base = p.getValue() == Variant.Backend.ZOOKEEPER ? "zookeeper://" + zk.connectString()
                    : redis.uri();
            variants.add(new ProviderVariant(p.getKey(), p.getValue(), base));
            results.notes.add("Provider `" + p.getKey() + "` " + installed.get(p.getKey()).version()
                    + " with its default parameters.");
        }
        return variants;
    }
}
