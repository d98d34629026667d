package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two clients take overlapping sets in opposite orders, {a, b} and {b, a}, 1,000 rounds each, started together
 * every round, each grant coming back 200 us after the server made it (as a reply over a network, so that the
 * other client asks meanwhile): with the parts taken in one global order neither ever holds one while waiting for
 * the other's, so no acquisition times out (a deadlock would show as a timeout of 10 s), and they never hold both
 * at once. The engine taking the parts in the order given deadlocks in the first rounds.
 */
class MultiLockDeadlockTest extends EngineTestBase {
    private static final int ROUNDS = 1_000;
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    @Timeout(120)
    void opposingOrdersNeverDeadlockNorOverlap() throws Throwable {
        LockService first = otherClient();
        LockService second = otherClient();
        provider.opened().forEach(b -> b.grantLatency(Duration.ofNanos(200_000)));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CyclicBarrier together = new CyclicBarrier(2);
        long start = System.nanoTime();
        FutureTask<Integer> ab = start("ab", () -> rounds(first, List.of(LockPart.mutex("a"), LockPart.mutex("b")),
                inside, overlaps, together));
        FutureTask<Integer> ba = start("ba", () -> rounds(second, List.of(LockPart.mutex("b"), LockPart.mutex("a")),
                inside, overlaps, together));
        int done = ab.get(110, TimeUnit.SECONDS) + ba.get(110, TimeUnit.SECONDS);
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        System.out.printf("[multi-lock] 2 clients x %d rounds, {a,b} against {b,a}: %d sets held, %d overlaps, "
                + "in %d ms%n", ROUNDS, done, overlaps.get(), millis);
        assertEquals(2 * ROUNDS, done, "every round held both locks");
        assertEquals(0, overlaps.get(), "two clients held the set at once");
    }

    private static int rounds(LockService client, List<LockPart> parts, AtomicInteger inside, AtomicInteger overlaps,
                              CyclicBarrier together) throws Exception {
        MultiLock lock = client.multiLock(parts);
        int held = 0;
        for (int i = 0; i < ROUNDS; i++) {
            together.await(10, TimeUnit.SECONDS);
            MultiLease lease;
            try {
                lease = lock.acquire(WAIT);
            } catch (LockTimeoutException e) {
                throw new AssertionError("round " + i + ": " + lock + " waited " + WAIT + ": a deadlock", e);
            }
            try (lease) {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                lease.checkValid();
                inside.decrementAndGet();
                held++;
            }
        }
        return held;
    }
}
