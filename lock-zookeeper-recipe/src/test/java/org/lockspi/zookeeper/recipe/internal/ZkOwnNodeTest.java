package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** When the waiter behind one of our own mutex nodes may hold without listing the queue: only when it is certain. */
class ZkOwnNodeTest {

    @Test
    void grantedReleasedAndDeletedIsGone() throws InterruptedException {
        ZkOwnNode node = new ZkOwnNode();
        node.granted();
        node.released();
        node.deleteDone(true);
        assertTrue(node.grantedAndGone(0));
    }

    @Test
    void neverGrantedIsNotEnough() throws InterruptedException {
        ZkOwnNode abandoned = new ZkOwnNode();
        abandoned.released();
        abandoned.deleteDone(true);
        assertFalse(abandoned.grantedAndGone(TimeUnit.SECONDS.toNanos(10)), "a waiter that gave up proves nothing");
    }

    @Test
    void stillHeldIsNotGone() throws InterruptedException {
        ZkOwnNode held = new ZkOwnNode();
        held.granted();
        long start = System.nanoTime();
        assertFalse(held.grantedAndGone(TimeUnit.SECONDS.toNanos(10)), "a spurious wake-up while it holds");
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "answered at once, not after a wait");
    }

    @Test
    void failedDeleteIsNotGone() throws InterruptedException {
        ZkOwnNode node = new ZkOwnNode();
        node.granted();
        node.released();
        node.deleteDone(false);
        assertFalse(node.grantedAndGone(0));
    }

    @Test
    void releaseUnderWayIsAwaitedWithinTheBound() throws Exception {
        ZkOwnNode node = new ZkOwnNode();
        node.granted();
        node.released();
        assertFalse(node.grantedAndGone(TimeUnit.MILLISECONDS.toNanos(50)), "delete not done within the bound");
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return node.grantedAndGone(TimeUnit.SECONDS.toNanos(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        node.deleteDone(true);
        assertTrue(waiting.get(10, TimeUnit.SECONDS), "the delete's outcome ends the wait");
    }
}
