package org.lockspi.inmemory.internal;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How a space treats the acquisitions of one client. {@link #STANDARD} is the provider's and the only one it
 * uses. The class is open so that a conformance kit can build, from this provider, the broken providers its
 * self-tests must catch: each override there breaks one rule on purpose. Every hook is called with the space's
 * lock held and must not block.
 */
public class Conduct {
    /** The provider's conduct: FIFO grants, nothing left behind, waiters park. */
    public static final Conduct STANDARD = new Conduct();

    /** For subclasses; use {@link #STANDARD}. */
    protected Conduct() {
    }

    /**
     * Whether a waiting entry may be granted now.
     *
     * @param byTheRules what the rules of its kind say (no other holder; readers with readers; at most N permits)
     * @return {@code byTheRules}
     */
    protected boolean grantable(boolean byTheRules) {
        return byTheRules;
    }

    /**
     * The order in which waiting entries are considered for a grant; the first that may not be granted stops the
     * others behind it.
     *
     * @param queue the lock's entries in arrival order (a copy the hook may reorder)
     * @return {@code queue}: first come, first served
     */
    protected List<Entry> grantOrder(List<Entry> queue) {
        return queue;
    }

    /** @return whether an acquisition that timed out leaves its entry in the queue: {@code false} */
    protected boolean leavesEntryOnTimeout() {
        return false;
    }

    /** @return whether an interrupted acquisition leaves its entry in the queue: {@code false} */
    protected boolean leavesEntryOnInterrupt() {
        return false;
    }

    /**
     * @param spaceLock the space's lock, which the waiter must release while it sleeps
     * @return how an acquisition of this client waits: {@link Waiter.Parked}
     */
    protected Waiter newWaiter(ReentrantLock spaceLock) {
        return new Waiter.Parked(spaceLock);
    }
}
