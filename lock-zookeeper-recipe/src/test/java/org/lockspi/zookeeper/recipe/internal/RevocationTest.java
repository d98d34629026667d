package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.mutex;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Revocation on a fake client (the logic; the providers' kit classes run it on a real server): the mark, the
 * request, the order on the holder's side, and the races the real server seldom shows.
 */
class RevocationTest extends OnFakeClient {

    @Test
    void theHolderIsToldBeforeItsNodeGoesAndOnlyThenDoesTheNextWaiterHold() throws Exception {
        FakeRecipe.Side holder = recipe.open();
        FakeRecipe.Side waiter = recipe.open();
        FakeRecipe.Side operator = recipe.open();
        ZkLease held = holder.acquire(mutex("m").revocable(), LONG);
        assertArrayEquals(ZkLayout.revocableData(), zk.data(held.path()), "the node carries the mark");
        List<Boolean> nodeThereWhenTold = new CopyOnWriteArrayList<>();
        holder.events().onLost = lease -> nodeThereWhenTold.add(lease.isLost() && zk.exists(lease.path()));
        CompletableFuture<ZkLease> next = waiter.acquireAsync(mutex("m"), LONG);
        zk.await("the waiter queued", () -> recipe.nodes("m").size() == 2);

        assertTrue(operator.backend().revoke("m", held.fencingToken(), "alice"), "a holder with the token");
        ZkLease got = next.get(10, TimeUnit.SECONDS);
        assertEquals(held.path() + ": revoked at the request of alice", holder.events().why.poll(5, TimeUnit.SECONDS));
        assertEquals(List.of(true), nodeThereWhenTold, "lost, and told, while its node was still there");
        assertTrue(got.fencingToken() > held.fencingToken());
        held.release(); // late: does nothing, throws nothing
        assertTrue(zk.exists(got.path()), "the next holder's node untouched");
        assertEquals(List.of(), List.copyOf(holder.events().why), "told once");
    }

    @Test
    void aHolderWithoutTheOptInIsRefusedAndNotWatched() throws Exception {
        FakeRecipe.Side holder = recipe.open();
        FakeRecipe.Side operator = recipe.open();
        ZkLease held = holder.acquire(mutex("plain"), LONG);
        assertArrayEquals(new byte[0], zk.data(held.path()), "no data, as before revocation existed");
        assertEquals(0, holder.client().watches(held.path()), "no watch on a lease that cannot be revoked");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> operator.backend().revoke("plain", held.fencingToken(), "alice"));
        assertTrue(e.getMessage().contains("revocable=true"), e.getMessage());
        assertArrayEquals(new byte[0], zk.data(held.path()), "nothing written");
        assertFalse(held.isLost());
        assertEquals(0, operator.client().calls("setData"));
    }

    @Test
    void aTokenNoHolderHasIsNotRevoked() throws Exception {
        FakeRecipe.Side holder = recipe.open();
        FakeRecipe.Side waiter = recipe.open();
        FakeRecipe.Side operator = recipe.open();
        ZkLease held = holder.acquire(mutex("t").revocable(), LONG);
        CompletableFuture<ZkLease> next = waiter.acquireAsync(mutex("t").revocable(), LONG);
        zk.await("the waiter queued", () -> recipe.nodes("t").size() == 2);
        long waiting = zk.czxid(FakeRecipe.path("t") + "/" + recipe.nodes("t").get(1));

        assertFalse(operator.backend().revoke("t", waiting, "alice"), "a waiting node is no holder");
        assertFalse(operator.backend().revoke("t", held.fencingToken() + 1000, "alice"), "no node has the token");
        assertFalse(operator.backend().revoke("none", held.fencingToken(), "alice"), "a name without state");
        assertEquals(0, operator.client().calls("setData"), "nothing written");
        assertFalse(held.isLost());
        held.release();
        next.get(10, TimeUnit.SECONDS).release();
    }

    @Test
    void aChangedNodeIsReadAgainAndAHolderCutOffReadsTheRequestWhenItIsBack() throws Exception {
        FakeRecipe.Side holder = recipe.open();
        FakeRecipe.Side operator = recipe.open();
        ZkLease held = holder.acquire(mutex("race").revocable(), LONG);
        zk.await("the holder watches its node", () -> holder.client().watches(held.path()) > 0);
        holder.client().disconnect(); // the holder's read after the watch fires meets the lost connection
        AtomicBoolean first = new AtomicBoolean(true);
        operator.client().hook((op, path) -> {
            if (op.equals("setData") && first.getAndSet(false)) {
                zk.setDataForeign(path, ZkLayout.revocationRequest("bob")); // another revoker, in between
            }
        });

        assertTrue(operator.backend().revoke("race", held.fencingToken(), "alice"), "asked (by bob, first)");
        assertEquals(2, operator.client().calls("data"), "read again after the versioned write failed");
        assertEquals("bob", ZkLayout.requestedBy(zk.data(held.path())), "bob's request not overwritten");
        assertFalse(held.isLost(), "the holder has not heard of it while cut off");
        assertTrue(zk.exists(held.path()), "nobody but the holder deletes its node");

        holder.client().reconnect(); // the read is done again
        assertEquals(held.path() + ": revoked at the request of bob", holder.events().why.poll(5, TimeUnit.SECONDS));
        assertTrue(held.isLost());
        zk.await("the holder deleted its node", () -> !zk.exists(held.path()));
    }
}
