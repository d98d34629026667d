package org.lockspi.tck.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockConnectionException;

/** Acquisitions that ask again while the server cannot be reached, as an application that waits out an outage. */
public final class Retrying {
    private Retrying() {
    }

    /**
     * Acquires, asking again after each {@link LockConnectionException} (the server is down, or the client is
     * reconnecting), until the deadline.
     *
     * @param lock     the lock
     * @param wait     how long in all
     * @param failures counts the acquisitions that failed so
     * @return the lease
     * @throws LockConnectionException the last one, once {@code wait} has passed
     * @throws InterruptedException    if the thread is interrupted
     */
    public static Lease acquire(DistributedLock lock, Duration wait, AtomicInteger failures)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                return lock.acquire(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (LockConnectionException e) {
                failures.incrementAndGet();
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(50); // back off before asking a server that is down again
            }
        }
    }
}
