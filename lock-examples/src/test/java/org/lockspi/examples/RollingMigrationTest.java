package org.lockspi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * A rolling migration between client libraries under load: three worker processes sell from one stock under one
 * lock on the ZkClient provider; one by one they are replaced by workers on the Curator provider, then those by
 * workers on the raw ZooKeeper provider. Every replacement starts the new worker and lets it sell while the old
 * ones still sell, then stops one old worker. The workers differ only in the {@code provider=} parameter of the
 * lock URI; path, lock name and session timeout are the same, as a roll needs.
 *
 * <p>Checked: the overlap detector in the database never saw two workers inside the critical section, no sale is
 * missing from the stock (no lost update, nothing oversold), the fencing tokens grow across providers in the
 * order of sale, and sales of the old and the new provider alternate on the lock during each step.
 */
class RollingMigrationTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Sales a new worker must make before an old one is stopped. */
    private static final int SALES_BEFORE_STOP = 5;
    private static final int WORKERS = 3;
    private static final List<String> ROLL = List.of("zkclient", "curator", "zookeeper-raw");

    @Test
    void workersMoveFromZkClientToCuratorToRawWithoutTwoHoldersOrOversell() {
        long started = System.nanoTime();
        Map<String, Integer> overlapsByWorker = new TreeMap<>();
        try (EmbeddedZooKeeperBackend zk = EmbeddedZooKeeperBackend.start();
             StockDatabase db = StockDatabase.start(1_000_000);
             ChildJvm.Group group = new ChildJvm.Group()) {
            String uri = "zookeeper://" + zk.address() + "/shop?sessionTimeout=5s";
            Deque<ChildJvm> running = new ArrayDeque<>();
            Map<ChildJvm, String> labels = new LinkedHashMap<>();
            int n = 0;
            for (int i = 0; i < WORKERS; i++) {
                ChildJvm worker = startWorker(group, db, uri, ROLL.get(0), "w" + ++n + "-" + ROLL.get(0), labels);
                running.addLast(worker);
            }
            for (ChildJvm worker : running) {
                awaitSales(worker, SALES_BEFORE_STOP);
            }
            for (String provider : ROLL.subList(1, ROLL.size())) {
                for (int i = 0; i < WORKERS; i++) {
                    ChildJvm fresh = startWorker(group, db, uri, provider, "w" + ++n + "-" + provider, labels);
                    awaitSales(fresh, SALES_BEFORE_STOP); // the new one sells while all old ones still do
                    ChildJvm old = running.removeFirst();
                    overlapsByWorker.put(labels.get(old), stop(old));
                    running.addLast(fresh);
                }
            }
            for (ChildJvm worker : running) {
                overlapsByWorker.put(labels.get(worker), stop(worker));
            }

            StockReport report = db.report();
            System.out.printf("rolling migration %s: %s; %d s%n", ROLL, report.summary(),
                    Duration.ofNanos(System.nanoTime() - started).toSeconds());
            assertEquals(0, report.overlaps(), "overlaps seen by the detector in the database");
            assertTrue(overlapsByWorker.values().stream().allMatch(o -> o == 0), overlapsByWorker::toString);
            assertEquals(0, report.lostUpdates(), report.summary());
            assertEquals(0, report.oversold(), report.summary());
            assertTrue(report.tokensIncreasing(), "fencing tokens in the order of sale, across providers");

            Map<String, Integer> salesByProvider = new TreeMap<>();
            Map<String, Integer> handOvers = new TreeMap<>();
            List<StockReport.Sale> sales = report.sales();
            for (int i = 0; i < sales.size(); i++) {
                salesByProvider.merge(sales.get(i).provider(), 1, Integer::sum);
                if (i > 0 && !sales.get(i).provider().equals(sales.get(i - 1).provider())) {
                    handOvers.merge(pair(sales.get(i - 1).provider(), sales.get(i).provider()), 1, Integer::sum);
                }
            }
            System.out.println("sales by provider " + salesByProvider + ", hand-overs between providers "
                    + handOvers);
            assertEquals(Set.copyOf(ROLL), salesByProvider.keySet(), salesByProvider::toString);
            for (int i = 1; i < ROLL.size(); i++) {
                String step = pair(ROLL.get(i - 1), ROLL.get(i));
                assertTrue(handOvers.getOrDefault(step, 0) > 1,
                        "the lock passed back and forth between " + step + ": " + handOvers);
            }
        }
    }

    private static ChildJvm startWorker(ChildJvm.Group group, StockDatabase db, String uri, String provider,
                                        String label, Map<ChildJvm, String> labels) {
        ChildJvm worker = group.start(StockWorker.class, "--jdbc=" + db.workerUrl(),
                "--lock=" + uri + "&provider=" + provider, "--label=" + label, "--think=2", "--loop");
        labels.put(worker, label);
        String ready = StockExample.expect(worker, WAIT, "READY ");
        assertEquals("READY " + provider, ready, "the URI's provider parameter chose the provider");
        worker.send("go");
        return worker;
    }

    private static void awaitSales(ChildJvm worker, int sales) {
        for (int i = 0; i < sales; i++) {
            StockExample.expect(worker, WAIT, "SOLD ");
        }
    }

    /** Stops a worker gracefully and returns the overlaps it saw. */
    private static int stop(ChildJvm worker) {
        worker.send("stop");
        String done = StockExample.expect(worker, WAIT, "DONE ");
        assertEquals(0, worker.awaitExit(WAIT), worker + " exit value");
        return Integer.parseInt(done.split(" ")[2]);
    }

    private static String pair(String a, String b) {
        return a.compareTo(b) < 0 ? a + "<->" + b : b + "<->" + a;
    }
}
