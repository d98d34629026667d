package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.WAIT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §3.5 The stock scenario: fifteen clients sell ten items through one mutex, each with an unguarded
 * read-then-update of a shared counter; with a working lock nothing is oversold.
 */
public interface StockScenarioContracts extends TckContext {

    /**
     * Fifteen clients each try once to buy one of ten items: under the mutex (30 s timeout) each reads a shared stock
     * counter, yields, and writes it back lowered by one if it is positive. Exactly ten are sold, five buyers are
     * turned away and the stock ends at zero; every buyer finishes within 40 s.
     */
    @Test
    @Diagnosis("An oversale is two holders at once (see §3.3: a grant not decided atomically on the server); a buyer "
            + "that times out after 30 s lost its wake-up under fifteen-way contention: look at the wait loop of "
            + "LockBackend.acquire.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = Why.ON_THE_MUTEX)
    @Inapplicable(shapes = {ONE_WAITER, MIXED_KINDS}, reason = "the scenario queues fifteen buyers of one kind")
    @DisplayName("§3.5 stock scenario: 15 clients sell 10 items through the mutex, nothing is oversold")
    default void nothingOversold() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("stock");
        int clients = 15;
        int items = 10;
        // The "table row": read and written in two steps, as an application without transactions does.
        AtomicInteger stock = new AtomicInteger(items);
        AtomicInteger sold = new AtomicInteger();
        AtomicInteger turnedAway = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Async<Void>> buyers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            DistributedLock lock = openClient().mutex(name);
            buyers.add(Async.start("buyer-" + c, () -> {
                assertTrue(start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                try (Lease lease = lock.acquire(Duration.ofSeconds(30))) {
                    int left = stock.get();
                    Thread.yield(); // the gap between SELECT and UPDATE
                    if (left > 0) {
                        stock.set(left - 1);
                        sold.incrementAndGet();
                    } else {
                        turnedAway.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Async<Void> buyer : buyers) {
            buyer.get(Duration.ofSeconds(40));
        }
        assertEquals(items, sold.get(), "items sold (more than " + items + " means oversold)");
        assertEquals(0, stock.get(), "stock left");
        assertEquals(clients - items, turnedAway.get(), "buyers turned away");
    }
}
