package org.lockspi.tck.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Threads for the waiters of a contract, for try-with-resources: {@link #close()} interrupts what still runs and
 * waits for it, so a failing test leaves no thread behind and its failure is not hidden by the clean-up.
 */
public final class Workers implements AutoCloseable {
    private final ExecutorService pool;

    /** @param threads how many tasks may run at once */
    public Workers(int threads) {
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "lockspi-tck-worker");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * @param task the task
     * @param <T>  its result type
     * @return its future
     */
    public <T> Future<T> submit(Callable<T> task) {
        return pool.submit(task);
    }

    /**
     * Interrupts the tasks still running and waits up to 10 s for them to end.
     *
     * @throws IllegalStateException if some did not end, or the thread is interrupted
     */
    @Override
    public void close() {
        pool.shutdownNow();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("waiter threads still run 10 s after they were interrupted");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while ending waiter threads", e);
        }
    }
}
