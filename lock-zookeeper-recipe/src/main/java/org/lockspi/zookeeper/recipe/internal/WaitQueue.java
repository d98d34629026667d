package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.spi.Deadline;
import org.lockspi.zookeeper.recipe.ZkOps;

/**
 * The wait loop of every queued node, written once for all lock kinds, as Curator's {@code LockInternals} is; the
 * kind's {@link QueueRule} says whom a node waits for. The loop: create our node (protected, ephemeral,
 * sequential), list the lock's children, ask the rule; hold, or set a one-shot {@code getData} watch on the node it
 * names and sleep until the watch fires, then look again. A node that vanishes between the listing and the watch
 * means "look again" at once. On timeout, interrupt, close or error our node is deleted before the loop returns
 * (now, or by the {@link ResidueCleaner} when the connection returns).
 *
 * <p><b>Hand-off.</b> A mutex waiter woken because the node it waited for was one of this backend's own, was
 * granted, and is deleted, holds without listing the queue again: it checks that its own node exists (see
 * {@link ZkOwnNode}). A hand-off between threads of one client then costs a request of constant size, not a
 * listing of the queue. The queue knows its mutex nodes in the current session; the release tells it
 * ({@link #released(String)}).
 *
 * <p>Thread-safe: many acquisitions run the loop at once, each with its own {@link Waiter}.
 */
final class WaitQueue {
    private final ZkOps ops;
    private final SessionGate gate;
    private final Nodes nodes;
    private final ResidueCleaner cleaner;
    private final long releaseBoundNanos;
    /** Our mutex nodes in this session, by path, for the waiter behind each (see {@link ZkOwnNode}). */
    private final Map<String, ZkOwnNode> ownNodes = new ConcurrentHashMap<>();

    /**
     * @param releaseBound how long a hand-off waits for the outcome of a release under way, at most
     */
    WaitQueue(ZkOps ops, SessionGate gate, Nodes nodes, ResidueCleaner cleaner, Duration releaseBound) {
        this.ops = ops;
        this.gate = gate;
        this.nodes = nodes;
        this.cleaner = cleaner;
        this.releaseBoundNanos = releaseBound.toNanos();
    }

    /**
     * Creates our node under {@code path} and waits until it holds the lock.
     *
     * @param path   the lock's full path
     * @param rule   the lock kind's rule
     * @param waiter the acquisition's wake-up call, given to the watches
     * @param gen    the session the acquisition runs in
     * @param data   our node's data ({@link ZkLayout#revocableData()} or empty)
     * @return our node, holding; null if the deadline passed first (the node is deleted then)
     * @throws SessionLost if the session ended, or our node is gone: the acquisition starts again
     */
    ZkOps.Node enqueue(String path, QueueRule rule, Waiter waiter, long gen, byte[] data, Deadline deadline)
            throws InterruptedException, SessionLost {
        String name = ZkLayout.protectedPrefix(UUID.randomUUID()) + rule.baseName();
        ZkOps.Node node = null;
        ZkOwnNode own = null;
        String watched = null;
        boolean held = false;
        Throwable failure = null;
        try {
            node = nodes.create(path, name, null, data, deadline, gen);
            String ours = ZkLayout.nodeName(node.path());
            if (rule.handsOff()) {
                own = new ZkOwnNode();
                ownNodes.put(node.path(), own);
            }
            ZkOwnNode predecessor = null; // the node we wait for, if it is one of our own mutex nodes
            while (true) {
                if (predecessor != null && predecessor.grantedAndGone(
                        Math.min(deadline.remainingNanos(), releaseBoundNanos))) {
                    // it held, and it is gone: so is everything that was ahead of us (see ZkOwnNode)
                    String ourPath = node.path();
                    if (gate.call(() -> ops.czxid(ourPath), deadline, gen) < 0) {
                        throw SessionLost.INSTANCE; // our node is gone
                    }
                    held = true;
                    own.granted();
                    return node;
                }
                List<String> children = gate.call(() -> Nodes.childrenOrEmpty(ops, path), deadline, gen);
                ZkPredicates.Verdict verdict = rule.verdict(children, ours);
                if (verdict == null) {
                    throw SessionLost.INSTANCE; // our node is gone
                }
                if (verdict.holds()) {
                    held = true;
                    if (own != null) {
                        own.granted();
                    }
                    return node;
                }
                if (deadline.hasExpired()) {
                    return null;
                }
                String target = ZkLayout.join(path, verdict.watch());
                predecessor = own != null ? ownNodes.get(target) : null;
                boolean set = gate.call(() -> ops.watchNode(target, waiter), deadline, gen);
                if (!set) {
                    continue; // it went between the listing and the watch: look again
                }
                watched = target;
                if (!waiter.await(deadline)) {
                    return null;
                }
                gate.checkOpen();
            }
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            if (watched != null && !held) {
                ops.unwatch(watched, waiter);
            }
            if (!held) {
                if (own != null) {
                    ownNodes.remove(node.path(), own);
                }
                cleaner.discard(path, node != null ? ZkLayout.nodeName(node.path()) : name, node != null, failure);
            }
        }
    }

    /**
     * Our mutex node at {@code path} is being released: the queue forgets it.
     *
     * @return what the waiter behind it knows of it, to be told the delete's outcome; null if it is not one of our
     *         mutex nodes of this session
     */
    ZkOwnNode released(String path) {
        return ownNodes.remove(path);
    }

    /** The session expired: none of our nodes is left. */
    void sessionExpired() {
        ownNodes.clear();
    }
}
