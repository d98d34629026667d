package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The background threads of a backend's helper (the {@link ResidueCleaner}, the {@link RevocationWatch}): daemon
 * threads started when there is work, each gone one second after its last task.
 */
final class OnDemandThread {
    private OnDemandThread() {
    }

    /**
     * @param name    the thread's name before its number, e.g. {@code lockspi-zk-revocation}
     * @param numbers the counter that numbers the threads of that name
     * @return an executor of one thread, its tasks run in order; its owner shuts it down
     */
    static ThreadPoolExecutor executor(String name, AtomicInteger numbers) {
        return new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemons(name, numbers));
    }

    /**
     * An executor that runs up to {@code width} tasks at once and starts a thread only when a task finds no idle
     * one: as many threads as tasks under way, not {@code width} whenever there is work.
     *
     * @param name    the thread's name before its number, e.g. {@code lockspi-zk-cleaner}
     * @param numbers the counter that numbers the threads of that name
     * @param width   how many tasks run at once, at most; the others queue in order
     * @return the executor; its owner shuts it down
     */
    static ThreadPoolExecutor executor(String name, AtomicInteger numbers, int width) {
        HandOff queue = new HandOff();
        return new ThreadPoolExecutor(0, width, 1, TimeUnit.SECONDS, queue, daemons(name, numbers), (task, pool) -> {
            if (pool.isShutdown()) {
                throw new RejectedExecutionException("shut down: " + name);
            }
            queue.enqueue(task); // all width threads busy: the task waits for the first of them
            if (pool.getPoolSize() == 0 && queue.remove(task)) {
                pool.execute(task); // they all ended meanwhile (idle for the keep-alive): start one for it
            }
        });
    }

    /**
     * The executor's queue: a task offered goes to an idle thread or nowhere, so that the executor starts another
     * thread (up to its maximum) instead of queueing; past the maximum the executor's handler enqueues it. A thread
     * that ends replaces itself if a task waits ({@link ThreadPoolExecutor} keeps one for a non-empty queue), and
     * the handler starts one if none is left.
     */
    private static final class HandOff extends LinkedTransferQueue<Runnable> {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean offer(Runnable task) {
            return tryTransfer(task);
        }

        void enqueue(Runnable task) {
            super.offer(task);
        }
    }

    private static ThreadFactory daemons(String name, AtomicInteger numbers) {
        return r -> {
            Thread t = new Thread(r, name + "-" + numbers.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
