package org.lockspi.curator.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.Deadline;

/** The gate's logic, with a search that records its calls (the real-server case: CuratorRevocationTest). */
class RevocableLeftoversTest {
    private final List<String> searched = new CopyOnWriteArrayList<>();
    private final AtomicBoolean connected = new AtomicBoolean(true);

    @Test
    void theLastOneOutSearchesOnceAndOnlyAfterAFailure() throws InterruptedException {
        RevocableLeftovers gate = new RevocableLeftovers(connected::get, searched::add);
        gate.enter("/s", Deadline.none());
        gate.leave("/s");
        assertEquals(List.of(), searched, "no failure, no search");
        gate.enter("/s", Deadline.none());
        gate.enter("/s", Deadline.none());
        gate.enter("/t", Deadline.none());
        gate.failed("/s");
        gate.leave("/s");
        assertEquals(List.of(), searched, "another acquisition of /s is under way");
        gate.leave("/t");
        assertEquals(List.of(), searched, "/t did not fail");
        gate.leave("/s");
        assertEquals(List.of("/s"), searched, "the last one out of /s");
        gate.enter("/s", Deadline.none());
        gate.leave("/s");
        assertEquals(List.of("/s"), searched, "searched once");
    }

    @Test
    void whileDisconnectedTheSearchWaitsForTheNextOneOut() throws InterruptedException {
        RevocableLeftovers gate = new RevocableLeftovers(connected::get, searched::add);
        gate.enter("/s", Deadline.none());
        gate.failed("/s");
        connected.set(false);
        gate.leave("/s");
        assertEquals(List.of(), searched);
        connected.set(true);
        gate.enter("/s", Deadline.none());
        gate.leave("/s");
        assertEquals(List.of("/s"), searched);
    }

    @Test
    void anAcquisitionArrivingDuringTheSearchWaitsForItUntilItsDeadlineAndTheInterruptFlagIsKept() throws Exception {
        CountDownLatch searching = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicBoolean flagDuringSearch = new AtomicBoolean(true);
        AtomicBoolean flagAfter = new AtomicBoolean();
        RevocableLeftovers gate = new RevocableLeftovers(connected::get, path -> {
            flagDuringSearch.set(Thread.currentThread().isInterrupted());
            searching.countDown();
            try {
                finish.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        Thread failing = new Thread(() -> {
            try {
                gate.enter("/s", Deadline.none());
                gate.failed("/s");
                Thread.currentThread().interrupt(); // the failed acquisition's interrupt
                gate.leave("/s");
                flagAfter.set(Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        failing.start();
        assertTrue(searching.await(10, TimeUnit.SECONDS));
        assertFalse(flagDuringSearch.get(), "the search runs with the flag clear");
        assertFalse(gate.enter("/s", Deadline.after(Duration.ofMillis(50))), "a deadline ends the wait for it");
        CountDownLatch entered = new CountDownLatch(1);
        Thread arriving = new Thread(() -> {
            try {
                gate.enter("/s", Deadline.none());
                entered.countDown();
                gate.leave("/s");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        arriving.start();
        assertFalse(entered.await(200, TimeUnit.MILLISECONDS), "it waits while the search runs");
        finish.countDown();
        assertTrue(entered.await(10, TimeUnit.SECONDS), "it passes once the search is over");
        failing.join(10_000);
        arriving.join(10_000);
        assertFalse(failing.isAlive() || arriving.isAlive());
        assertTrue(flagAfter.get(), "the flag set again after the search");
    }
}
