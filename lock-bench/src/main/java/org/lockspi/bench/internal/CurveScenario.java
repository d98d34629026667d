package org.lockspi.bench.internal;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.apache.zookeeper.ZKUtil;

/** One curve: the trade-off run's scenario base, with the curves' settings, results and the JVM's own gauges. */
abstract class CurveScenario extends Scenario {
    protected final CurveSettings curves;
    protected final CurveResults out;

    CurveScenario(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env);
        this.curves = curves;
        this.out = out;
    }

    /** @return the heap in use after a full collection (System.gc() twice; G1 runs it as a full GC) */
    static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** @return the live threads of this JVM */
    static int threads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** @return the anchors and the providers, anchors first */
    final List<Variant> anchorsAndProviders() {
        List<Variant> out = new ArrayList<>();
        for (Variant v : variants) {
            if (v.role() == Variant.Role.ANCHOR) {
                out.add(v);
            }
        }
        for (Variant v : variants) {
            if (v.role() == Variant.Role.PROVIDER) {
                out.add(v);
            }
        }
        return out;
    }

    /** @return a new point, added to the results */
    final CurveResults.Point point(CurveResults.Curve curve, Variant v, String kind, double x) {
        CurveResults.Point p = new CurveResults.Point(curve, v, kind, x);
        out.points.add(p);
        return p;
    }

    /** The JDBC variants' tables: the provider's locks and entries, the anchor's ({@code INT_LOCK}). */
    static final List<String> JDBC_TABLES = List.of("lockspi_lock", "lockspi_entry", "int_lock");

    /** @return the server's live state: ZooKeeper nodes, Redis keys, or the rows of {@link #JDBC_TABLES} */
    final long serverEntries(Variant.Backend backend) throws Exception {
        switch (backend) {
            case ZOOKEEPER:
                return zk.monitored("zk_znode_count");
            case REDIS:
                return redis.keys();
            default:
                return database.number("SELECT " + String.join(" + ", JDBC_TABLES.stream()
                        .map(t -> "(SELECT count(*) FROM " + t + ")").toList()));
        }
    }

    /**
     * @return the server's data size in bytes: ZooKeeper's approximate data size, Redis's used memory, or the
     *         {@code pg_total_relation_size} of {@link #JDBC_TABLES} (their indexes included; it does not shrink
     *         when rows go, until a vacuum)
     */
    final long serverBytes(Variant.Backend backend) throws Exception {
        switch (backend) {
            case ZOOKEEPER:
                return zk.monitored("zk_approximate_data_size");
            case REDIS:
                return redis.info("memory", "used_memory");
            default:
                return database.number("SELECT " + String.join(" + ", JDBC_TABLES.stream()
                        .map(t -> "pg_total_relation_size('" + t + "')").toList()));
        }
    }

    /**
     * @return the clients connected to the server (the bench's own inspector and stats connections included); on
     *         JDBC the sessions of {@code pg_stat_activity} on the bench database
     */
    final long serverConnections(Variant.Backend backend) throws Exception {
        switch (backend) {
            case ZOOKEEPER:
                return zk.monitored("zk_num_alive_connections");
            case REDIS:
                return redis.info("clients", "connected_clients");
            default:
                return database.number("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()");
        }
    }

    /**
     * @return the server's live state of one scope: on ZooKeeper the nodes under {@code /bench/<scope>}, on Redis
     *         the keys of the scope's locks ({@code <prefix>{<scope>.<lock>}...}, matched by SCAN), on JDBC the
     *         provider's lock rows whose name starts with the
     *         scope and a dot ({@link ProviderVariant#lockName}), their entries, and the anchor's rows of that
     *         region ({@link SpringJdbcAnchor})
     */
    final long scopedEntries(Variant.Backend backend, String scope) throws Exception {
        switch (backend) {
            case ZOOKEEPER:
                String root = "/bench/" + scope;
                return inspector.exists(root, false) == null ? 0
                        : ZKUtil.listSubTreeBFS(inspector, root).size() - 1;
            case REDIS:
                return redis.keysMatching("*{" + scope + ".*");
            default:
                String prefix = scope + ".";
                return database.number("SELECT (SELECT count(*) FROM lockspi_lock WHERE left(lock_name, length(?)) = ?)"
                        + " + (SELECT count(*) FROM lockspi_entry e JOIN lockspi_lock l ON e.lock_id = l.lock_id "
                        + "WHERE left(l.lock_name, length(?)) = ?) + (SELECT count(*) FROM int_lock WHERE region = ?)",
                        prefix, prefix, prefix, prefix, scope);
        }
    }
}
