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

    /** @return the server's live state: ZooKeeper nodes or Redis keys */
    final long serverEntries(Variant.Backend backend) throws Exception {
        return backend == Variant.Backend.ZOOKEEPER ? zk.monitored("zk_znode_count") : redis.keys();
    }

    /** @return the server's data size in bytes: ZooKeeper's approximate data size, Redis's used memory */
    final long serverBytes(Variant.Backend backend) throws Exception {
        return backend == Variant.Backend.ZOOKEEPER ? zk.monitored("zk_approximate_data_size")
                : redis.info("memory", "used_memory");
    }

    /**
     * @return the server's nodes or keys of one scope: on ZooKeeper the nodes under {@code /bench/<scope>}, on Redis
     *         the keys of the scope's locks ({@code <prefix>{<scope>.<lock>}...}, matched by SCAN)
     */
    final long scopedEntries(Variant.Backend backend, String scope) throws Exception {
        if (backend == Variant.Backend.ZOOKEEPER) {
            String root = "/bench/" + scope;
            return inspector.exists(root, false) == null ? 0 : ZKUtil.listSubTreeBFS(inspector, root).size() - 1;
        }
        return redis.keysMatching("*{" + scope + ".*");
    }

    /** @return the clients connected to the server (the bench's own inspector and stats connections included) */
    final long serverConnections(Variant.Backend backend) throws Exception {
        return backend == Variant.Backend.ZOOKEEPER ? zk.monitored("zk_num_alive_connections")
                : redis.info("clients", "connected_clients");
    }
}
