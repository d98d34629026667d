package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.mutex;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.lockspi.LockConnectionException;

/** Release and close on a fake client: what the caller is told when the server cannot be, and what follows. */
class LeaseReleaseTest extends OnFakeClient {

    @Test
    void aReleaseWhileDisconnectedSaysSoAndTheNodeGoesWhenTheConnectionReturns() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease held = a.acquire(mutex("down"), LONG);
        a.client().disconnect();
        assertEquals("suspended", a.events().told.poll(5, TimeUnit.SECONDS));
        LockConnectionException e = assertThrows(LockConnectionException.class, held::release);
        assertEquals(DeleteFailures.notConnected(held.path(), "fake:2181").getMessage(), e.getMessage());
        assertEquals(1, recipe.nodes("down").size(), "still there");
        held.release(); // once only: nothing more to say
        a.client().reconnect();
        zk.await("deleted on reconnection", () -> recipe.nodes("down").isEmpty());
    }

    @Test
    void aReleaseAsSoonAsTheLeaseIsHeldAgainDeletesAtOnce() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease held = a.acquire(mutex("restored"), LONG);
        a.client().disconnect();
        // the engine turns the lease HELD when told "restored", and the holder releases it at once, on its own
        // thread, while the backend's connection event is still under way: here the event waits for that release
        CompletableFuture<Void> release = new CompletableFuture<>();
        a.events().onRestored = () -> {
            Thread holder = new Thread(() -> {
                try {
                    held.release();
                    release.complete(null);
                } catch (Throwable e) {
                    release.completeExceptionally(e);
                }
            }, "holder");
            holder.start();
            try {
                holder.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        a.client().reconnect();
        release.get(0, TimeUnit.SECONDS); // no LockConnectionException: the connection is up when the engine hears it
        assertEquals(List.of(), recipe.nodes("restored"), "deleted by the release itself");
    }

    @Test
    void aDeleteThatMeetsALostConnectionIsLeftToItsReturn() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease held = a.acquire(mutex("lost"), LONG);
        a.client().hook((op, path) -> {
            if (op.equals("delete")) {
                a.client().hook((o, p) -> { });
                a.client().disconnect(); // the delete's request meets the drop
            }
        });
        LockConnectionException e = assertThrows(LockConnectionException.class, held::release);
        assertEquals(DeleteFailures.connectionLost(held.path(), "fake:2181").getMessage(), e.getMessage());
        a.client().reconnect();
        zk.await("deleted on reconnection", () -> recipe.nodes("lost").isEmpty());
    }

    @Test
    void aDeleteStillUnansweredWhenTheConnectionDropsIsLeftToItsReturnAtOnce() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease held = a.acquire(mutex("unanswered"), LONG);
        CountDownLatch answer = new CountDownLatch(1);
        a.client().hook((op, path) -> {
            if (op.equals("delete")) {
                a.client().hook((o, p) -> { });
                a.client().disconnect();
                answer.await(); // the request waits for the client's next reconnection attempt, which fails it
            }
        });
        try {
            // not the release bound's "within 500 ms": the release stops waiting once the connection is known lost
            LockConnectionException e = assertThrows(LockConnectionException.class, held::release);
            assertEquals(DeleteFailures.connectionLost(held.path(), "fake:2181").getMessage(), e.getMessage());
        } finally {
            answer.countDown();
        }
        a.client().reconnect();
        zk.await("deleted on reconnection", () -> recipe.nodes("unanswered").isEmpty());
    }

    @Test
    void theReleasesOfTwoThreadsHaveTheirDeletesUnderWayAtOnce() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease first = a.acquire(mutex("together-1"), LONG);
        ZkLease second = a.acquire(mutex("together-2"), LONG);
        // each delete waits in its request for the other: one delete at a time would hold the second release
        // behind the first past the release bound (500 ms here), and both would fail
        CountDownLatch bothUnderWay = new CountDownLatch(2);
        a.client().hook((op, path) -> {
            if (op.equals("delete")) {
                bothUnderWay.countDown();
                bothUnderWay.await(5, TimeUnit.SECONDS);
            }
        });
        // a new thread each: two releases need two threads, and the common pool may have one
        CompletableFuture<Void> one = CompletableFuture.runAsync(first::release, r -> new Thread(r).start());
        CompletableFuture<Void> two = CompletableFuture.runAsync(second::release, r -> new Thread(r).start());
        one.get(10, TimeUnit.SECONDS);
        two.get(10, TimeUnit.SECONDS);
        assertEquals(0, bothUnderWay.getCount(), "both deletes were under way at once");
        assertEquals(List.of(), recipe.nodes("together-1"));
        assertEquals(List.of(), recipe.nodes("together-2"));
    }

    @Test
    void aLostLeaseTouchesNothingOnRelease() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        ZkLease held = a.acquire(mutex("lost"), LONG);
        a.client().expire();
        ZkLease next = b.acquire(mutex("lost"), LONG);
        held.release();
        assertEquals(List.of(ZkLayout.nodeName(next.path())), recipe.nodes("lost"), "the new holder's node stays");
        next.release();
    }

    @Test
    void closeFailsAWaitingAcquisitionWithIllegalStateAndEndsItsSession() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        ZkLease held = a.acquire(mutex("close"), LONG);
        CompletableFuture<ZkLease> waiting = b.acquireAsync(mutex("close"), LONG);
        zk.await("b waits", () -> b.client().watches(held.path()) == 1);
        b.backend().close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
        b.backend().close(); // idempotent
        assertEquals(List.of(ZkLayout.nodeName(held.path())), recipe.nodes("close"), "the waiter's node is gone");
        held.release();
    }
}
