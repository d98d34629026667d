package org.lockspi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * A holder paused past its lease: worker process A takes the lock, reads the stock and is stopped with
 * {@code SIGSTOP} before it writes. Its ZooKeeper session (2 s) expires; worker B takes the lock and sells one item
 * through the fence with a greater token. A is resumed and writes what it computed from its old read, with its old
 * token: the fence refuses it, so the stock row shows B's sale alone.
 */
class FencedWriteTest {
    private static final Duration LINE = Duration.ofSeconds(60);

    @Test
    void theLateWriteOfAHolderPausedPastItsLeaseIsRefused() {
        try (EmbeddedZooKeeperBackend zk = EmbeddedZooKeeperBackend.start();
             StockDatabase db = StockDatabase.start(3);
             ChildJvm.Group group = new ChildJvm.Group()) {
            String lock = "--lock=zookeeper://" + zk.address() + "/shop?sessionTimeout=2000ms";
            ChildJvm paused = group.start(StockWorker.class, "--jdbc=" + db.workerUrl(), lock, "--label=paused",
                    "--think=0", "--late-write");
            StockExample.expect(paused, LINE, "READY ");
            paused.send("go");
            String[] checked = StockExample.expect(paused, LINE, "CHECKED ").split(" ");
            long oldToken = Long.parseLong(checked[1]);
            assertEquals("3", checked[2], "A read the stock");
            paused.pause(); // between its check of the lease and its write

            long stopped = System.nanoTime();
            ChildJvm next = group.start(StockWorker.class, "--jdbc=" + db.workerUrl(), lock, "--label=next",
                    "--think=0");
            StockExample.expect(next, LINE, "READY ");
            next.send("go");
            String sold = StockExample.expect(next, LINE, "SOLD ", "STALE ", "SOLD_OUT");
            long newToken = Long.parseLong(sold.substring("SOLD ".length()));
            StockExample.expect(next, LINE, "DONE ");
            long handedOver = Duration.ofNanos(System.nanoTime() - stopped).toMillis();

            paused.resume();
            paused.send("write");
            String late = StockExample.expect(paused, LINE, "SOLD ", "STALE ");
            StockExample.expect(paused, LINE, "DONE ");
            StockReport report = db.report();
            System.out.printf("[fenced write] A paused with token %d; B sold with token %d %d ms later; A's late "
                    + "write: %s; %s%n", oldToken, newToken, handedOver, late, report.summary());

            assertTrue(newToken > oldToken, "B's token " + newToken + " after A's " + oldToken);
            assertEquals("STALE " + oldToken + " " + newToken, late, "A's late write must be refused");
            assertEquals(List.of(new StockReport.Sale("next", "zookeeper-raw", newToken)), report.sales());
            assertEquals(2, report.remaining(), "the stock row shows B's sale alone");
            assertEquals(0, report.lostUpdates(), report.summary());
            assertEquals(1, report.stale(), report.summary());
        }
    }
}
