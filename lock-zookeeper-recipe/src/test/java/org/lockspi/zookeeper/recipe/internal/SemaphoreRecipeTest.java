package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.path;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.LockKind;

/** The semaphore on a fake client: permits counted by lease nodes (ours and anyone's), the internal mutex. */
class SemaphoreRecipeTest extends OnFakeClient {

    private static AcquireRequest semaphore(int permits) {
        return AcquireRequest.semaphore("sem", permits);
    }

    private List<String> leases() {
        return zk.children(path("sem") + "/" + ZkLayout.SEMAPHORE_LEASES);
    }

    private List<String> locks() {
        return zk.children(path("sem") + "/" + ZkLayout.SEMAPHORE_LOCKS);
    }

    @Test
    void permitsAreCountedAndAFreedPermitGoesToTheWaiter() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        FakeRecipe.Side c = recipe.open();
        ZkLease first = a.acquire(semaphore(2), LONG);
        ZkLease second = b.acquire(semaphore(2), LONG);
        assertEquals(2, leases().size());
        assertEquals(List.of(), locks(), "the internal mutex is free while permits are held");
        assertNull(c.acquire(semaphore(2), Duration.ofMillis(100)), "no third permit");
        assertEquals(2, leases().size(), "the timed-out try left no lease node");
        assertEquals(List.of(), locks(), "and released the internal mutex");

        CompletableFuture<ZkLease> third = c.acquireAsync(semaphore(2), LONG);
        zk.await("the waiter holds the internal mutex and its lease node", () -> leases().size() == 3
                && locks().size() == 1);
        assertFalse(third.isDone());
        first.release();
        ZkLease got = third.get(10, TimeUnit.SECONDS);
        assertTrue(got.fencingToken() > second.fencingToken());
        assertEquals(List.of(), locks());
        got.release();
        second.release();
        assertEquals(List.of(), leases());
    }

    @Test
    void aSecondWaiterQueuesOnTheInternalMutex() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        FakeRecipe.Side c = recipe.open();
        ZkLease held = a.acquire(semaphore(1), LONG);
        CompletableFuture<ZkLease> head = b.acquireAsync(semaphore(1), LONG);
        zk.await("b inside the internal mutex", () -> locks().size() == 1 && leases().size() == 2);
        CompletableFuture<ZkLease> next = c.acquireAsync(semaphore(1), LONG);
        zk.await("c queued on the internal mutex", () -> locks().size() == 2);
        assertEquals(2, leases().size(), "c has no lease node yet");
        held.release();
        ZkLease bLease = head.get(10, TimeUnit.SECONDS);
        zk.await("c inside the internal mutex", () -> locks().size() == 1 && leases().size() == 2);
        bLease.release();
        next.get(10, TimeUnit.SECONDS).release();
        assertEquals(List.of(), leases());
        assertEquals(List.of(), locks());
    }

    @Test
    void foreignLeaseNodesCountAgainstOurPermits() throws Exception {
        FakeRecipe.Side a = recipe.open();
        String leasePrefix = path("sem") + "/" + ZkLayout.SEMAPHORE_LEASES + "/"
                + ZkLayout.protectedPrefix(UUID.randomUUID()) + ZkLayout.LEASE;
        String theirs = zk.createForeign(leasePrefix);
        assertNull(a.acquire(semaphore(1), Duration.ofMillis(100)), "the foreign lease takes the one permit");
        zk.deleteForeign(theirs);
        a.acquire(semaphore(1), LONG).release();
    }

    @Test
    void aNonReentrantMutexIsASemaphoreOfOne() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        AcquireRequest nr = AcquireRequest.exclusive(LockKind.NON_REENTRANT_MUTEX, "sem");
        ZkLease held = a.acquire(nr, LONG);
        assertEquals(1, leases().size());
        assertTrue(ZkLayout.nodeName(held.path()).matches("_c_[0-9a-f-]{36}-lease-\\d{10}"), held.path());
        assertNull(b.acquire(nr, Duration.ofMillis(100)));
        held.release();
        b.acquire(nr, LONG).release();
    }
}
