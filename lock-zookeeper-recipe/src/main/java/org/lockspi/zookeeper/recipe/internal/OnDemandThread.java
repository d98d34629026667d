package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one background thread of a backend's helper (the {@link ResidueCleaner}, the {@link RevocationWatch}): a
 * daemon thread started when there is work and gone one second after the last task, its tasks run in order.
 */
final class OnDemandThread {
    private OnDemandThread() {
    }

    /**
     * @param name    the thread's name before its number, e.g. {@code lockspi-zk-cleaner}
     * @param numbers the counter that numbers the threads of that name
     * @return the executor; its owner shuts it down
     */
    static ThreadPoolExecutor executor(String name, AtomicInteger numbers) {
        return new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name + "-" + numbers.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
