package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.LinkedBlockingQueue;
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
        return executor(name, numbers, 1);
    }

    /**
     * @param name    the thread's name before its number, e.g. {@code lockspi-zk-cleaner}
     * @param numbers the counter that numbers the threads of that name
     * @param width   how many tasks run at once, at most; the others queue in order
     * @return the executor; its owner shuts it down
     */
    static ThreadPoolExecutor executor(String name, AtomicInteger numbers, int width) {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(width, width, 1, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, name + "-" + numbers.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true); // no thread while there is no work
        return executor;
    }
}
