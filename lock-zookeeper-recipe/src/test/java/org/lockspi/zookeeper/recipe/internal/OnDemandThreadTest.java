package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The cleaner's executor: as many threads as tasks under way, up to its width, the rest queued. */
@Timeout(30)
class OnDemandThreadTest {

    @Test
    void tasksOneAtATimeUseOneThread() throws Exception {
        ThreadPoolExecutor pool = OnDemandThread.executor("test-one", new AtomicInteger(), 8);
        try {
            for (int i = 0; i < 20; i++) {
                pool.submit(() -> { }).get(5, TimeUnit.SECONDS);
                awaitIdleThread(pool); // as a release's caller finds it: the thread back waiting for work
            }
            assertEquals(1, pool.getLargestPoolSize(), "threads started for 20 tasks, one at a time");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tasksAtOnceRunAtOnceUpToTheWidthAndTheRestQueue() throws Exception {
        ThreadPoolExecutor pool = OnDemandThread.executor("test-wide", new AtomicInteger(), 8);
        try {
            CountDownLatch running = new CountDownLatch(8);
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                tasks.add(pool.submit(() -> {
                    running.countDown();
                    go.await();
                    ran.incrementAndGet();
                    return null;
                }));
            }
            assertTrue(running.await(10, TimeUnit.SECONDS), "8 tasks under way at once");
            assertEquals(8, pool.getPoolSize());
            assertEquals(2, pool.getQueue().size(), "the two past the width wait");
            go.countDown();
            for (Future<?> task : tasks) {
                task.get(10, TimeUnit.SECONDS);
            }
            assertEquals(10, ran.get());
            assertEquals(8, pool.getLargestPoolSize());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aShutDownExecutorRefusesTasks() {
        ThreadPoolExecutor pool = OnDemandThread.executor("test-shut", new AtomicInteger(), 8);
        pool.shutdown();
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
    }

    private static void awaitIdleThread(ThreadPoolExecutor pool) {
        LinkedTransferQueue<Runnable> queue = (LinkedTransferQueue<Runnable>) pool.getQueue();
        while (!queue.hasWaitingConsumer()) { // no event tells it: the thread is between tasks for microseconds
            Thread.onSpinWait();
        }
    }
}
