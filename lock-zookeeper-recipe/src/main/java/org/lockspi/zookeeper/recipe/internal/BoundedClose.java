package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Closes a ZooKeeper client without waiting past a bound: during an outage a client's close sends
 * {@code closeSession} and waits for its connection attempts to give up (seconds), which {@code close()} of a lock
 * service must not wait for. The close runs on a thread of its own, joined for at most the bound; past it, it goes
 * on in the background and its threads end once the client gives up. With the server reachable it is done well
 * within the bound, so the caller sees it finished.
 */
public final class BoundedClose {
    private BoundedClose() {
    }

    /**
     * @param name  what is closed, for the thread's name (never credentials)
     * @param close the close
     * @param bound how long to wait for it
     * @throws RuntimeException what the close threw, if it ended within the bound
     */
    public static void run(String name, Runnable close, Duration bound) {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            try {
                close.run();
            } catch (RuntimeException e) {
                failure.set(e);
            }
        }, "lockspi-zk-close-" + name);
        closer.setDaemon(true);
        closer.start();
        boolean interrupted = false;
        long end = System.nanoTime() + bound.toNanos();
        while (closer.isAlive()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                closer.join(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        RuntimeException e = failure.get();
        if (e != null && !closer.isAlive()) {
            throw e;
        }
    }
}
