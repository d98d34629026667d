package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * §14.1 Fairness: waiters of a {@link LockFeature#FAIR} provider get the lock in the order they asked for it,
 * whichever client they use. The order of asking is made certain by starting each waiter only once the server
 * shows the entry of the one before ({@link TckBackend#residue(String)}).
 */
public interface FairnessContracts extends TckContext {

    @Test
    @Timeout(90)
    @DisplayName("§14.1 mutex: waiters from separate clients acquire in the order they enqueued")
    default void waitersAcquireInEnqueueOrder() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.FAIR);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.INSPECT);
        int waiters = 4;
        String name = uniqueName("fair");
        Lease held = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        Poll.until("entries of '" + name + "'", 1, () -> backend().residue(name).size(), Duration.ofSeconds(5));

        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        try (Workers pool = new Workers(waiters)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                int index = i;
                DistributedLock lock = openClient().mutex(name);
                done.add(pool.submit(() -> {
                    try (Lease lease = lock.acquire(Duration.ofSeconds(60))) {
                        order.add(index);
                    }
                    return null;
                }));
                Poll.until("entries of '" + name + "' with waiter " + i + " enqueued", i + 2,
                        () -> backend().residue(name).size(), Duration.ofSeconds(10));
            }
            assertEquals(List.of(), order, "no waiter acquires while the lock is held");
            held.release();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                expected.add(i);
            }
            assertEquals(expected, order, "order of acquisition");
        }
    }
}
