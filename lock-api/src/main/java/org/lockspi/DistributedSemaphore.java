package org.lockspi;

/**
 * A distributed counting semaphore: at most {@link #permits()} leases on its name at any time, across all
 * clients. Each acquisition takes one permit; its lease may be released by any thread, and releasing it twice
 * is harmless. Every client must use the same number of permits for one name. It can be acquired
 * asynchronously ({@link AsyncAcquirable}).
 */
public interface DistributedSemaphore extends AsyncAcquirable {

    /** {@inheritDoc} Each permit acquired through the view is held for at most the lease time. */
    @Override
    DistributedSemaphore withLeaseTime(java.time.Duration leaseTime);

    /** @return the number of permits, at least 1 */
    int permits();
}
