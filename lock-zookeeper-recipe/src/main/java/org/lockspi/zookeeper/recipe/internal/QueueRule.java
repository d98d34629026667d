package org.lockspi.zookeeper.recipe.internal;

import java.util.Collection;

/**
 * The strategy of the wait loop ({@link WaitQueue}), as Curator's {@code LockInternalsDriver} is of its
 * {@code LockInternals}: the base name of a queued node, and whom it waits for. The answers are
 * {@link ZkPredicates}', over the children as the server lists them.
 */
enum QueueRule {
    /** A mutex lease's node: the first holds, every other waits for its predecessor; hands off (see below). */
    MUTEX(ZkLayout.MUTEX, true, ZkLayout.MUTEX),
    /** The semaphore's internal mutex: a mutex whose nodes are never leases, so no hand-off. */
    SEMAPHORE_MUTEX(ZkLayout.MUTEX, false, ZkLayout.MUTEX),
    /** A write node: exclusive over the read and write nodes of one lock, in one ordering. */
    WRITE(ZkLayout.WRITE, false, ZkLayout.READ, ZkLayout.WRITE),
    /** A read node: holds while no write node is ahead of it, else waits for the first one ahead. */
    READ(ZkLayout.READ, false, ZkLayout.READ, ZkLayout.WRITE);

    private final String baseName;
    private final boolean handsOff;
    private final String[] order;

    QueueRule(String baseName, boolean handsOff, String... order) {
        this.baseName = baseName;
        this.handsOff = handsOff;
        this.order = order;
    }

    /** @return the base name of a node queued by this rule ({@link ZkLayout#MUTEX}, ...) */
    String baseName() {
        return baseName;
    }

    /**
     * @return whether a waiter right behind one of its own backend's granted nodes may hold, once that node is
     *         known deleted, without listing the queue again (see {@link ZkOwnNode}): true only where no node is
     *         ever created ahead of an existing one (a mutex; a read-write lock has its downgrade)
     */
    boolean handsOff() {
        return handsOff;
    }

    /**
     * One pass over the listing, no sort: a wake-up in a long queue costs the listing, not a sort of it.
     *
     * @param children the lock's children, in any order
     * @param ours     our node's name
     * @return the verdict, or null if our node is not among the children (it is gone)
     */
    ZkPredicates.Verdict verdict(Collection<String> children, String ours) {
        return this == READ ? ZkPredicates.read(children, ours) : ZkPredicates.exclusive(children, ours, order);
    }
}
