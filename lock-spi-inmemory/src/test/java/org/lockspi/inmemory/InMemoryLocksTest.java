package org.lockspi.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockService;
import org.lockspi.Locks;

/** The provider as an application's test uses it: spaces, their URIs, and a lease lost on purpose. */
@Timeout(30)
class InMemoryLocksTest {

    @Test
    void theSchemeMemIsServedByThisProviderFromTheClassPath() {
        try (LockService locks = Locks.open(InMemoryLocks.newSpace())) {
            assertEquals("inmemory", locks.providerName());
        }
    }

    @Test
    void servicesOfOneSpaceContendAndSpacesAreIndependent() throws InterruptedException {
        String uri = InMemoryLocks.newSpace();
        String other = InMemoryLocks.newSpace();
        assertNotEquals(uri, other);
        try (LockService a = Locks.open(uri); LockService b = Locks.open(uri); LockService c = Locks.open(other)) {
            Lease held = a.mutex("orders/42").acquire(Duration.ofSeconds(1));
            assertEquals(Optional.empty(), b.mutex("orders/42").tryAcquire());
            try (Lease elsewhere = c.mutex("orders/42").acquire(Duration.ofSeconds(1))) {
                assertTrue(elsewhere.isHeld());
            }
            held.release();
            try (Lease next = b.mutex("orders/42").acquire(Duration.ofSeconds(1))) {
                assertTrue(next.fencingToken() > held.fencingToken());
                assertTrue(held.fencingToken() > 1L << 32, "tokens start above 2^32: " + held.fencingToken());
            }
        }
    }

    @Test
    void aPathPutsLockNamesUnderIt() throws InterruptedException {
        String uri = InMemoryLocks.newSpace();
        try (LockService root = Locks.open(uri); LockService app = Locks.open(uri + "/app");
             LockService other = Locks.open(uri + "/other")) {
            Lease held = app.mutex("job").acquire(Duration.ofSeconds(1));
            assertTrue(other.mutex("job").tryAcquire().isPresent(), "another path, another lock");
            assertEquals(Optional.empty(), root.mutex("app/job").tryAcquire(), "the same lock seen from the root");
            held.release();
        }
    }

    @Test
    void aSpaceLivesWhileAServiceUsesIt() throws InterruptedException {
        String uri = InMemoryLocks.newSpace();
        LockConnectionException none = assertThrows(LockConnectionException.class,
                () -> Locks.open(uri + "?ifExists=true"));
        assertTrue(none.getMessage().contains(uri.substring("mem://".length())), none.getMessage());
        try (LockService first = Locks.open(uri)) {
            first.mutex("a").acquire(Duration.ofSeconds(1));
            try (LockService second = Locks.open(uri + "?ifExists=true")) {
                assertEquals(Optional.empty(), second.mutex("a").tryAcquire(), "the same space");
            }
        }
        assertThrows(LockConnectionException.class, () -> Locks.open(uri + "?ifExists=true"),
                "the space ended with its last service");
        try (LockService again = Locks.open(uri)) {
            assertTrue(again.mutex("a").tryAcquire().isPresent(), "a new space of the same name is empty");
        }
    }

    @Test
    void expireMakesTheHolderLoseTheLockAndTheNextWaiterGetIt() throws Exception {
        String uri = InMemoryLocks.newSpace();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (LockService app = Locks.open(uri); LockService other = Locks.open(uri)) {
            Lease lease = app.mutex("jobs/report").acquire(Duration.ofSeconds(1));
            List<LeaseState> seen = new CopyOnWriteArrayList<>();
            java.util.concurrent.CountDownLatch told = new java.util.concurrent.CountDownLatch(1);
            lease.addListener((l, before, now) -> {
                seen.add(now);
                told.countDown();
            });
            Future<Lease> waiter = pool.submit(() -> other.mutex("jobs/report").acquire(Duration.ofSeconds(10)));

            assertEquals(1, InMemoryLocks.expire(uri, "jobs/report"));
            Lease next = waiter.get(10, TimeUnit.SECONDS);
            assertEquals(LeaseState.LOST, lease.state());
            assertTrue(next.fencingToken() > lease.fencingToken());
            assertTrue(told.await(5, TimeUnit.SECONDS), "the listener was not told of the loss");
            assertEquals(List.of(LeaseState.LOST), seen);
            lease.release(); // a late release of the lost lease leaves the new holder alone
            assertEquals(Optional.empty(), app.mutex("jobs/report").tryAcquire());
            pool.submit(next::release).get(10, TimeUnit.SECONDS); // by the thread that holds it
            assertEquals(0, InMemoryLocks.expire(uri, "jobs/report"), "nobody holds it");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, InMemoryLocks.expire(uri, "jobs/report"), "no service uses the space");
    }

    @Test
    void badUrisAreRefusedAtOnce() {
        String uri = InMemoryLocks.newSpace();
        String space = uri.substring("mem://".length());
        for (String bad : List.of("mem://user:secret@" + space, "mem://" + space + ":2181",
                "mem://" + space + ",other", uri + "?ifExists=maybe", uri + "?sessionTimeout=1s")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Locks.open(bad), bad);
            assertTrue(!e.getMessage().contains("secret"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> InMemoryLocks.expire("redis://h", "a"));
        assertThrows(NullPointerException.class, () -> InMemoryLocks.expire(uri, null));
    }
}
