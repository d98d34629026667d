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
 * Runs every scenario against the backends it starts: the ZooKeeper server in a child JVM and redis-server from
 * embedded-redis. Compared variants run interleaved in blocks (A, B, C, A, B, C ...), the order rotating every
 * round, so that drift of a shared machine falls on all of them alike. Each scenario is its own class.
 */
public final class Bench {
    /** The providers measured, by name, with their backend. */
    static final Map<String, Variant.Backend> PROVIDERS = new LinkedHashMap<>();

    static {
        PROVIDERS.put("zookeeper-raw", Variant.Backend.ZOOKEEPER);
        PROVIDERS.put("zkclient", Variant.Backend.ZOOKEEPER);
        PROVIDERS.put("curator", Variant.Backend.ZOOKEEPER);
        PROVIDERS.put("redis-baseline", Variant.Backend.REDIS);
        PROVIDERS.put("redis-lettuce", Variant.Backend.REDIS);
    }

    /**
     * Providers measured only when installed (a variant of an artifact that may not have it yet), reported "not
     * present" otherwise rather than missing.
     */
    static final Map<String, Variant.Backend> OPTIONAL_PROVIDERS = new LinkedHashMap<>();

    static {
        OPTIONAL_PROVIDERS.put("redis-fair", Variant.Backend.REDIS);
        OPTIONAL_PROVIDERS.put("redis-lettuce-fair", Variant.Backend.REDIS);
    }

    private final Settings settings;
    private final PrintStream log;
    private final Results results = new Results();
    private ZooKeeperServerProcess zk;
    private RedisServerHandle redis;
    private ZooKeeper inspector;
    private final List<Variant> variants = new ArrayList<>();
    private final Map<String, LockProvider> installed = new LinkedHashMap<>();
    private long started;

    public Bench(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Logs the start of a phase with the time since the run began. */
    private void phase(String text) {
        log.printf("[bench] %6.1f s  %s%n", (System.nanoTime() - started) / 1e9, text);
    }

    /** Starts the servers, runs every scenario, stops everything it started. */
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
            Scenario.Env env = new Scenario.Env(settings, log, results, started, zk, redis, inspector, variants,
                    installed);
            new UncontendedScenario(env).run();
            for (int k : settings.clients()) {
                new ContendedScenario(env, k).run();
            }
            new DrainScenario(env).run();
            new ManyThreadsScenario(env).run();
            new VirtualThreadScenario(env).run();
            new TakeoverScenario(env).run();
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
        variants.add(new RedisFloor(redis.port(), false));
        variants.add(new RedisFloor(redis.port(), true));
        variants.add(new RedissonAnchor(redis.port()));
        Map<String, Variant.Backend> measured = new LinkedHashMap<>(PROVIDERS);
        for (Map.Entry<String, Variant.Backend> p : OPTIONAL_PROVIDERS.entrySet()) {
            if (installed.containsKey(p.getKey())) {
                measured.put(p.getKey(), p.getValue());
            } else {
                results.providersNotPresent.add(p.getKey());
                phase("optional provider not present, not measured: " + p.getKey());
            }
        }
        for (Map.Entry<String, Variant.Backend> p : measured.entrySet()) {
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
                    + pv.uri(Scenario.scope(pv)) + "` with its default parameters.");
        }
    }

    /** @return the run's results so far */
    public Results results() {
        return results;
    }
}
