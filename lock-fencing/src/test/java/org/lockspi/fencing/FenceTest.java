package org.lockspi.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FenceTest {
    private final Fence fence = new Fence();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(5, TimeUnit.SECONDS));
    }

    @Test
    void acceptsEqualAndHigherTokensAndRefusesLowerOnes() {
        assertEquals(OptionalLong.empty(), fence.highest("r"));
        assertTrue(fence.tryAdvance("r", 10));
        assertTrue(fence.tryAdvance("r", 10), "one holder writes many times");
        assertFalse(fence.tryAdvance("r", 9));
        assertTrue(fence.tryAdvance("r", 11));
        assertEquals(OptionalLong.of(11), fence.highest("r"));
        assertTrue(fence.tryAdvance("other", 1), "resources are fenced apart");
        assertTrue(fence.tryAdvance("negative", Long.MIN_VALUE), "any long is a token");
    }

    @Test
    void aStaleWriteDoesNotRun() {
        List<String> store = new ArrayList<>();
        assertEquals("written", fence.write("r", 18, () -> {
            store.add("new holder");
            return "written";
        }));
        StaleTokenException e = assertThrows(StaleTokenException.class, () -> fence.write("r", 17, () -> {
            store.add("old holder");
            return null;
        }));
        assertEquals(List.of("new holder"), store);
        assertEquals("stale token 17 for resource 'r': 18 was accepted", e.getMessage());
        assertEquals(17, e.token());
        assertEquals(18, e.highest());
        assertEquals("r", e.resource());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(NullPointerException.class, () -> fence.tryAdvance(null, 1));
        assertEquals("resource is empty", assertThrows(IllegalArgumentException.class,
                () -> fence.tryAdvance("", 1)).getMessage());
        assertThrows(NullPointerException.class, () -> fence.write("r", 1, null));
        assertThrows(NullPointerException.class, () -> fence.highest(null));
    }

    /** The check and the write are one step: a newer holder waits for an older write that passed, then wins. */
    @Test
    void aWriteThatPassedFinishesBeforeANewerOneAndThenTheOlderTokenIsRefused() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        List<String> store = java.util.Collections.synchronizedList(new ArrayList<>());
        Future<?> old = threads.submit(() -> fence.write("r", 5, () -> {
            inside.countDown();
            finish.await();
            store.add("old");
            return null;
        }));
        assertTrue(inside.await(5, TimeUnit.SECONDS));
        Future<?> newer = threads.submit(() -> fence.write("r", 6, () -> store.add("new")));
        assertThrows(TimeoutException.class, () -> newer.get(100, TimeUnit.MILLISECONDS), "the newer write waits");
        assertTrue(fence.tryAdvance("other", 1), "another resource does not wait");
        finish.countDown();
        old.get(5, TimeUnit.SECONDS);
        newer.get(5, TimeUnit.SECONDS);
        assertEquals(List.of("old", "new"), store);
        assertThrows(StaleTokenException.class, () -> fence.write("r", 5, () -> store.add("late")));
    }

    /** Many writers with random tokens: the tokens written are in non-decreasing order, whatever the interleaving. */
    @Test
    void concurrentWritersOnlyEverMoveTheTokenUp() throws Exception {
        List<Long> written = new ArrayList<>(); // appended inside the fenced write only
        List<Future<?>> done = new ArrayList<>();
        int[] refused = new int[1];
        for (int t = 0; t < 8; t++) {
            done.add(threads.submit(() -> {
                for (int i = 0; i < 2_000; i++) {
                    long token = ThreadLocalRandom.current().nextLong(10_000);
                    try {
                        fence.write("r", token, () -> written.add(token));
                    } catch (StaleTokenException e) {
                        synchronized (refused) {
                            refused[0]++;
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        for (int i = 1; i < written.size(); i++) {
            assertTrue(written.get(i) >= written.get(i - 1), "token " + written.get(i) + " written after "
                    + written.get(i - 1));
        }
        assertEquals(16_000, written.size() + refused[0]);
    }
}
