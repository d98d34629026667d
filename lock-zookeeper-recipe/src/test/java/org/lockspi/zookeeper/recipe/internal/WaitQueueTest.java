package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.mutex;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.path;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.read;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.write;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.lockspi.LockConnectionException;

/**
 * The wait loop and its queue rules on a fake client (no server): the order of holders, whom each waiter watches,
 * and what happens when a node goes at the wrong moment.
 */
class WaitQueueTest extends OnFakeClient {

    private static String foreign(String name, String base) {
        return path(name) + "/" + ZkLayout.protectedPrefix(UUID.randomUUID()) + base;
    }

    @Test
    void waitersHoldInTheOrderTheyQueuedEachWatchingOnlyItsPredecessor() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        FakeRecipe.Side c = recipe.open();
        ZkLease first = a.acquire(mutex("m"), LONG);
        CompletableFuture<ZkLease> second = b.acquireAsync(mutex("m"), LONG);
        zk.await("b watches a's node", () -> b.client().watches(first.path()) == 1);
        CompletableFuture<ZkLease> third = c.acquireAsync(mutex("m"), LONG);
        zk.await("c queued", () -> recipe.nodes("m").size() == 3);
        String bNode = path("m") + "/" + recipe.nodes("m").get(1);
        zk.await("c watches b's node", () -> c.client().watches(bNode) == 1);
        assertEquals(0, c.client().watches(first.path()), "c watches only its predecessor, not the holder");

        first.release();
        ZkLease got = second.get(10, TimeUnit.SECONDS);
        assertEquals(bNode, got.path(), "b, queued first, holds next");
        assertFalse(third.isDone(), "c waits while b holds");
        got.release();
        ZkLease last = third.get(10, TimeUnit.SECONDS);
        assertTrue(first.fencingToken() < got.fencingToken() && got.fencingToken() < last.fencingToken(),
                "tokens grow with each holder");
        last.release();
        assertEquals(List.of(), recipe.nodes("m"), "nothing left");
    }

    @Test
    void aReaderWaitsForTheFirstWriterAheadAndAWriterForTheNodeJustAhead() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        String w1 = zk.createForeign(foreign("rw", ZkLayout.WRITE));
        String r2 = zk.createForeign(foreign("rw", ZkLayout.READ));
        String w3 = zk.createForeign(foreign("rw", ZkLayout.WRITE));
        CompletableFuture<ZkLease> reader = a.acquireAsync(read("rw"), LONG);
        zk.await("the reader watches the first writer", () -> a.client().watches(w1) == 1);
        CompletableFuture<ZkLease> writer = b.acquireAsync(write("rw"), LONG);
        zk.await("the writer queued", () -> recipe.nodes("rw").size() == 5);
        String r4 = path("rw") + "/" + recipe.nodes("rw").get(3);
        zk.await("the writer watches the reader just ahead", () -> b.client().watches(r4) == 1);
        assertEquals(0, a.client().watches(w3), "not the nearest writer");

        zk.deleteForeign(w1);
        zk.await("the reader now watches the next writer", () -> a.client().watches(w3) == 1);
        assertFalse(reader.isDone(), "a writer is still ahead");
        zk.deleteForeign(w3);
        ZkLease read = reader.get(10, TimeUnit.SECONDS);
        assertEquals(r4, read.path(), "readers share: the foreign read ahead does not block");
        assertFalse(writer.isDone(), "the writer waits for the readers");
        read.release();
        zk.await("the writer now watches the foreign reader", () -> b.client().watches(r2) == 1);
        zk.deleteForeign(r2);
        writer.get(10, TimeUnit.SECONDS).release();
        assertEquals(List.of(), recipe.nodes("rw"));
    }

    @Test
    void aPredecessorGoneBetweenTheListingAndTheWatchMeansLookAgain() throws Exception {
        FakeRecipe.Side b = recipe.open();
        String holder = zk.createForeign(foreign("race", ZkLayout.MUTEX));
        AtomicBoolean raced = new AtomicBoolean();
        b.client().hook((op, path) -> {
            if (op.equals("watchNode") && path.equals(holder) && raced.compareAndSet(false, true)) {
                zk.deleteForeign(holder); // the holder releases right after our listing
            }
        });
        int listings = b.client().calls("children");
        ZkLease lease = b.acquire(mutex("race"), Duration.ofSeconds(5));
        assertTrue(raced.get(), "the race was run");
        assertEquals(listings + 2, b.client().calls("children"), "listed once, and once more after the refused watch");
        assertEquals(1, b.client().calls("watchNode"), "one watch asked for, refused on the missing node");
        assertEquals(0, b.client().watches(holder), "no watch left behind");
        lease.release();
    }

    @Test
    void aTimedOutWaiterLeavesNeitherItsNodeNorItsWatch() throws Exception {
        FakeRecipe.Side b = recipe.open();
        String holder = zk.createForeign(foreign("timeout", ZkLayout.MUTEX));
        assertNull(b.acquire(mutex("timeout"), Duration.ofMillis(100)), "not granted while the foreign node holds");
        assertEquals(List.of(ZkLayout.nodeName(holder)), recipe.nodes("timeout"), "only the holder's node");
        assertEquals(0, b.client().watches(holder), "the watch on the holder is dropped");
    }

    @Test
    void aLostCreateAnswerFindsTheNodeByItsProtectedNameInsteadOfCreatingASecond() throws Exception {
        FakeRecipe.Side b = recipe.open();
        AtomicBoolean lost = new AtomicBoolean();
        b.client().hook((op, path) -> {
            if (op.equals("create") && lost.compareAndSet(false, true)) {
                b.client().createUnanswered(path); // the create went through; its answer is lost
                b.client().disconnect();
                b.client().reconnect();
                throw new org.apache.zookeeper.KeeperException.ConnectionLossException();
            }
        });
        ZkLease lease = b.acquire(mutex("lost-create"), Duration.ofSeconds(5));
        List<String> nodes = recipe.nodes("lost-create");
        assertEquals(1, nodes.size(), "one node of ours, not two: " + nodes);
        assertEquals(path("lost-create") + "/" + nodes.get(0), lease.path());
        assertEquals(zk.czxid(lease.path()), lease.fencingToken(), "the token is the found node's czxid");
        assertEquals(1, b.client().calls("create"), "no second create");
        lease.release();
    }

    @Test
    void aConnectionThatStaysDownFailsTheAcquisitionAndItsNodeGoesWhenTheConnectionReturns() throws Exception {
        FakeRecipe.Side b = recipe.open();
        zk.createForeign(foreign("down", ZkLayout.MUTEX));
        b.client().hook((op, path) -> {
            if (op.equals("children") && path.equals(path("down"))) {
                b.client().disconnect();
                b.client().hook((o, p) -> { });
            }
        });
        long start = System.nanoTime();
        LockConnectionException e = org.junit.jupiter.api.Assertions.assertThrows(LockConnectionException.class,
                () -> b.acquire(mutex("down"), LONG));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(e.getMessage().contains("lost and not back within"), e.getMessage());
        assertTrue(took < LONG.toMillis() / 2, "gave up after the connect timeout, not the deadline: " + took + " ms");
        assertEquals(2, recipe.nodes("down").size(), "our node could not be deleted yet");
        b.client().reconnect();
        zk.await("our node deleted on reconnection", () -> recipe.nodes("down").size() == 1);
    }

    @Test
    void ourNodeDeletedByAnotherClientIsNeverHeld() throws Exception {
        FakeRecipe.Side b = recipe.open();
        String holder = zk.createForeign(foreign("deleted", ZkLayout.MUTEX));
        CompletableFuture<ZkLease> waiting = b.acquireAsync(mutex("deleted"), LONG);
        zk.await("b waits", () -> b.client().watches(holder) == 1);
        String ours = path("deleted") + "/" + recipe.nodes("deleted").get(1);
        zk.deleteForeign(ours);
        zk.deleteForeign(holder);
        // Its node gone in a live session, the acquisition waits for a new session, which does not come: it fails
        // after the connect timeout. What matters here: it never holds without a node.
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> waiting.get(10, TimeUnit.SECONDS));
        assertInstanceOf(LockConnectionException.class, e.getCause());
        assertEquals(List.of(), recipe.nodes("deleted"), "nothing left");
    }

    @Test
    void aWaiterWhoseSessionExpiresQueuesAgainInTheNewOne() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        ZkLease held = a.acquire(mutex("expiry"), LONG);
        CompletableFuture<ZkLease> waiting = b.acquireAsync(mutex("expiry"), LONG);
        zk.await("b waits", () -> b.client().watches(held.path()) == 1);
        String old = recipe.nodes("expiry").get(1);

        b.client().expire();
        zk.await("b queued again", () -> recipe.nodes("expiry").size() == 2 && !recipe.nodes("expiry").contains(old));
        assertFalse(waiting.isDone(), "still waiting behind the holder");
        held.release();
        ZkLease got = waiting.get(10, TimeUnit.SECONDS);
        assertFalse(got.isLost());
        assertTrue(got.fencingToken() > held.fencingToken());
        got.release();
    }

    @Test
    void theHolderWhoseSessionExpiresIsToldItsLeaseIsLost() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease held = a.acquire(mutex("lost"), LONG);
        a.client().expire();
        assertEquals("lost " + held.path(), a.events().told.poll(5, TimeUnit.SECONDS));
        assertTrue(held.isLost());
        held.release(); // touches nothing
        ZkLease next = a.acquire(mutex("lost"), LONG);
        assertTrue(next.fencingToken() > held.fencingToken(), "the new session acquires anew");
        next.release();
    }

    @Test
    void aHandOffBetweenThreadsOfOneBackendDoesNotListTheQueueAgain() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease first = a.acquire(mutex("handoff"), LONG);
        CompletableFuture<ZkLease> second = a.acquireAsync(mutex("handoff"), LONG);
        zk.await("the second thread waits", () -> a.client().watches(first.path()) == 1);
        List<String> after = new CopyOnWriteArrayList<>();
        a.client().hook((op, path) -> after.add(op + " " + path));

        first.release();
        ZkLease got = second.get(10, TimeUnit.SECONDS);
        String ours = got.path();
        assertTrue(after.contains("czxid " + ours), "checked that its own node exists: " + after);
        assertFalse(after.stream().anyMatch(s -> s.startsWith("children")), "no listing of the queue: " + after);
        got.release();
    }
}
