package org.lockspi.curator.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class WatchdogTest {

    @Test
    void aCallPastItsDeadlineIsInterruptedAndTheInterruptTakenBack() {
        try (Watchdog watchdog = new Watchdog("test-watchdog")) {
            Watchdog.Ticket ticket = watchdog.arm(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
            assertNotNull(ticket);
            long start = System.nanoTime();
            assertThrows(InterruptedException.class, () -> new CountDownLatch(1).await(30, TimeUnit.SECONDS));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "the watchdog was late");
            assertTrue(watchdog.disarm(ticket));
            assertFalse(Thread.currentThread().isInterrupted());
        }
    }

    @Test
    void aCallWithinItsDeadlineIsLeftAlone() throws InterruptedException {
        try (Watchdog watchdog = new Watchdog("test-watchdog")) {
            Watchdog.Ticket late = watchdog.arm(System.nanoTime() + TimeUnit.MINUTES.toNanos(1));
            Watchdog.Ticket early = watchdog.arm(System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
            assertFalse(new CountDownLatch(1).await(20, TimeUnit.MILLISECONDS));
            assertFalse(watchdog.disarm(early));
            assertFalse(watchdog.disarm(late));
            assertFalse(Thread.currentThread().isInterrupted());
        }
    }

    @Test
    void cutAllInterruptsEveryArmedCallAtOnce() throws Exception {
        try (Watchdog watchdog = new Watchdog("test-watchdog-cut")) {
            Watchdog.Ticket ticket = watchdog.arm(System.nanoTime() + TimeUnit.MINUTES.toNanos(1));
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicBoolean otherCut = new AtomicBoolean();
            Thread other = new Thread(() -> {
                Watchdog.Ticket its = watchdog.arm(System.nanoTime() + TimeUnit.MINUTES.toNanos(1));
                waiting.countDown();
                try {
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // cut
                }
                otherCut.set(watchdog.disarm(its));
            });
            other.start();
            assertTrue(waiting.await(10, TimeUnit.SECONDS));
            watchdog.cutAll();
            assertTrue(Thread.currentThread().isInterrupted(), "this call is cut too");
            assertTrue(watchdog.disarm(ticket));
            assertFalse(Thread.currentThread().isInterrupted(), "the interrupt taken back");
            other.join(10_000);
            assertFalse(other.isAlive(), "the other call was cut");
            assertTrue(otherCut.get(), "by the watchdog");
        }
    }

    @Test
    void closeEndsItsThreadAndRefusesLaterCalls() throws InterruptedException {
        Watchdog watchdog = new Watchdog("test-watchdog-closed");
        watchdog.disarm(watchdog.arm(System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
        watchdog.close();
        watchdog.close(); // idempotent
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("test-watchdog-closed")) {
                t.join(5000);
                assertFalse(t.isAlive(), "watchdog thread left running");
            }
        }
        assertNull(watchdog.arm(System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
    }
}
