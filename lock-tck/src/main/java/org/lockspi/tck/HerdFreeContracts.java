package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;

/**
 * §14.2 Herd-free waiting: with N waiters queued the server holds exactly N watches on the lock, one on each
 * entry but the last (each waiter watches the one before it, not the holder, not the parent), and a release
 * wakes one waiter only: it acquires, the others keep waiting, and one watch is gone. The hand-over is followed
 * down the whole queue.
 */
public interface HerdFreeContracts extends TckContext {

    @Test
    @Timeout(90)
    @DisplayName("§14.2 mutex: N waiters hold N watches, and each release wakes exactly one of them")
    default void eachReleaseWakesOneWaiter() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.HERD_FREE);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.INSPECT);
        requireCapability(TckBackend.Capability.WAKEUP_REGISTRATIONS);
        int waiters = 3;
        String name = uniqueName("herd");
        Lease held = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        Poll.until("entries of '" + name + "'", 1, () -> backend().residue(name).size(), Duration.ofSeconds(5));
        // the queue as the server shows it: the holder's entry, then each waiter's in the order they enqueued
        List<String> queue = new ArrayList<>(backend().residue(name));

        List<CountDownLatch> acquired = new ArrayList<>();
        List<CountDownLatch> proceed = new ArrayList<>();
        List<Future<?>> done = new ArrayList<>();
        try (Workers pool = new Workers(waiters)) {
            try {
                for (int i = 0; i < waiters; i++) {
                    CountDownLatch got = new CountDownLatch(1);
                    CountDownLatch go = new CountDownLatch(1);
                    acquired.add(got);
                    proceed.add(go);
                    DistributedLock lock = openClient().mutex(name);
                    done.add(pool.submit(() -> {
                        try (Lease lease = lock.acquire(Duration.ofSeconds(60))) {
                            got.countDown();
                            assertTrue(go.await(60, TimeUnit.SECONDS), "told to release");
                        }
                        return null;
                    }));
                    Poll.until("entries of '" + name + "' with waiter " + i + " enqueued", i + 2,
                            () -> backend().residue(name).size(), Duration.ofSeconds(10));
                    List<String> entries = new ArrayList<>(backend().residue(name));
                    entries.removeAll(queue);
                    assertEquals(1, entries.size(), "one new entry for waiter " + i + ": " + entries);
                    queue.add(entries.get(0));
                }
                Poll.until("watches on '" + name + "' with " + waiters + " waiters", waiters,
                        () -> backend().wakeupRegistrations(name), Duration.ofSeconds(10));
                assertEachWatchesItsPredecessor(name, queue);

                held.release();
                for (int i = 0; i < waiters; i++) {
                    assertTrue(acquired.get(i).await(10, TimeUnit.SECONDS), "waiter " + i + " acquired after the"
                            + " release before it");
                    int left = waiters - 1 - i;
                    Poll.until("watches on '" + name + "' with " + left + " waiters left", left,
                            () -> backend().wakeupRegistrations(name), Duration.ofSeconds(10));
                    for (int j = i + 1; j < waiters; j++) {
                        assertEquals(1, acquired.get(j).getCount(), "waiter " + j + " still waits while waiter "
                                + i + " holds");
                    }
                    assertEquals(left + 1, backend().residue(name).size(), "entries: the holder and " + left
                            + " waiters");
                    queue.remove(0);
                    assertEachWatchesItsPredecessor(name, queue);
                    proceed.get(i).countDown();
                    done.get(i).get(10, TimeUnit.SECONDS);
                }
                Poll.until("entries of '" + name + "' at the end", 0, () -> backend().residue(name).size(),
                        Duration.ofSeconds(5));
            } finally {
                proceed.forEach(CountDownLatch::countDown); // let holders go before the workers are ended
            }
        }
    }

    /**
     * Each entry of the queue but the last has exactly one watch (its successor's), the last none, counted with
     * {@link TckBackend#wakeupRegistrations(String)} on the lock's name extended by the entry's path below the lock. Done
     * where the entries are paths below the lock's name (ZooKeeper), as a refinement of the total count.
     */
    private void assertEachWatchesItsPredecessor(String name, List<String> queue) {
        for (int k = 0; k < queue.size(); k++) {
            String entry = queue.get(k);
            int at = entry.indexOf("/" + name + "/");
            if (at < 0) {
                return; // not a path below the lock: the total count is all the backend can tell
            }
            String node = entry.substring(at + 1);
            int expected = k < queue.size() - 1 ? 1 : 0;
            String role = k == 0 ? "the holder" : "waiter " + k + " in line";
            Poll.until("watches on " + role + "'s entry " + entry + " (queue " + queue + ")", expected,
                    () -> backend().wakeupRegistrations(node), Duration.ofSeconds(10));
        }
    }
}
