package org.lockspi.zookeeper.recipe.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a backend knows of one of its own mutex nodes, for the waiter right behind it: whether the node was granted
 * the lock, and whether its holder's delete went through.
 *
 * <p>Why that is enough to take the lock without listing the queue: in a mutex no node is ever created ahead of an
 * existing one (the server's sequence numbers only grow, and a mutex has no downgrade). A node that was granted saw
 * nothing ahead of itself, and nothing can come back ahead of it; so once it is gone, so is everything that was
 * ahead of the waiter behind it. The waiter still checks that its own node exists (one request of constant size,
 * instead of a listing as long as the queue). Anything less certain (the node was never granted, the wake-up was
 * spurious, the delete failed or is not known to have gone through in time) falls back to the listing.
 */
final class ZkOwnNode {
    private final CountDownLatch deleteDone = new CountDownLatch(1);
    private volatile boolean granted;
    private volatile boolean released;
    private volatile boolean deleted;

    /** The node holds the lock (set before its acquisition returns). */
    void granted() {
        granted = true;
    }

    /** Its holder starts releasing it; {@link #deleteDone(boolean)} follows, on every path. */
    void released() {
        released = true;
    }

    /**
     * @param gone whether the node is known to be gone from the server (our delete went through, or found it gone)
     */
    void deleteDone(boolean gone) {
        deleted = gone;
        deleteDone.countDown();
    }

    /**
     * @param waitNanos how long to wait for the outcome of a release under way (its delete and the wake-up race)
     * @return true only if the node was granted and is known to be gone
     * @throws InterruptedException if interrupted while waiting
     */
    boolean grantedAndGone(long waitNanos) throws InterruptedException {
        if (!granted || !released) {
            return false;
        }
        return deleteDone.await(Math.max(0, waitNanos), TimeUnit.NANOSECONDS) && deleted;
    }
}
