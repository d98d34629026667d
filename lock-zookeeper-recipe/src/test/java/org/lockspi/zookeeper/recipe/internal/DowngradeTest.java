package org.lockspi.zookeeper.recipe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.path;
import static org.lockspi.zookeeper.recipe.internal.FakeRecipe.write;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.AcquireRequest;

/** The write-to-read downgrade on a fake client: Curator's layout, granted at once, and what it keeps out. */
class DowngradeTest extends OnFakeClient {

    private static String sequence(String path) {
        return path.substring(path.length() - 10);
    }

    @Test
    void theDowngradedReadTakesTheWriteNodesSequenceAndIsGrantedAtOnce() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease w = a.acquire(write("rw"), LONG);
        ZkLease r = a.acquire(AcquireRequest.read("rw", w), Duration.ZERO); // a passed deadline: one attempt
        String name = ZkLayout.nodeName(r.path());
        assertTrue(name.matches("_c_[0-9a-f-]{36}-__READ__\\d{10}"), "Curator's read node: " + name);
        assertEquals(sequence(w.path()), sequence(r.path()), "the write node's sequence, not a new one");
        assertTrue(r.fencingToken() > w.fencingToken(), "a node of its own, created later");
        assertEquals(0, a.client().watches(w.path()), "granted without waiting");
        r.release();
        w.release();
        assertEquals(List.of(), recipe.nodes("rw"));
    }

    @Test
    void aWriterQueuedBehindTheWriteWaitsUntilTheDowngradedReadIsReleasedToo() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        ZkLease w = a.acquire(write("rw"), LONG);
        CompletableFuture<ZkLease> writer = b.acquireAsync(write("rw"), LONG);
        zk.await("the writer waits behind the write", () -> b.client().watches(w.path()) == 1);
        ZkLease r = a.acquire(AcquireRequest.read("rw", w), LONG);

        w.release();
        zk.await("the writer now waits behind the read", () -> b.client().watches(r.path()) == 1);
        assertFalse(writer.isDone(), "the downgraded read sorts where the write did: ahead of the writer");
        FakeRecipe.Side c = recipe.open();
        ZkLease later = c.acquire(FakeRecipe.read("rw"), Duration.ZERO);
        assertTrue(later == null, "a reader after the queued writer waits for it");
        r.release();
        writer.get(10, TimeUnit.SECONDS).release();
    }

    @Test
    void aReadWhoseWriteIsGoneQueuesLikeAnyOther() throws Exception {
        FakeRecipe.Side a = recipe.open();
        ZkLease w = a.acquire(write("rw"), LONG);
        w.release();
        ZkLease r = a.acquire(AcquireRequest.read("rw", w), LONG);
        assertNotEquals(sequence(w.path()), sequence(r.path()), "a released write is no ground for its sequence");
        r.release();
    }

    @Test
    void aWriteOfAnotherLockIsNoGroundForADowngrade() throws Exception {
        FakeRecipe.Side a = recipe.open();
        FakeRecipe.Side b = recipe.open();
        ZkLease other = a.acquire(write("other"), LONG);
        ZkLease held = b.acquire(write("rw"), LONG);
        assertEquals(null, a.acquire(AcquireRequest.read("rw", other), Duration.ofMillis(100)),
                "the read queues behind the write of rw, whatever write the thread holds elsewhere");
        assertEquals(1, recipe.nodes("rw").size(), "and leaves nothing: " + recipe.nodes("rw"));
        held.release();
        other.release();
        assertEquals(List.of(), zk.children(path("rw")));
    }
}
