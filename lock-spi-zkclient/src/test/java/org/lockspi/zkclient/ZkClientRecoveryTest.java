package org.lockspi.zkclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * ZkClient opens a new session by itself when its session expires, silently to a caller that only uses its
 * operations: a lease of the old session must turn LOST and stay LOST in the new session, and a waiter of the old
 * session must queue again in the new one. A server restart within the session timeout keeps sessions, leases and
 * a waiter's place.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class ZkClientRecoveryTest {
    private final ZkClientLockProvider provider = new ZkClientLockProvider();
    private EmbeddedZooKeeperBackend server;

    @BeforeAll
    void startServer() {
        server = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        server.close();
    }

    private LockService open() {
        return Locks.open(server.uri() + "?sessionTimeout=4s&connectTimeout=5s", provider);
    }

    @Test
    void expiredSessionLosesItsLeaseForGoodAndItsWaiterQueuesAgain() throws Exception {
        String name = "zkc-recovery-expiry-" + System.nanoTime();
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = holder.mutex(name).acquire(Duration.ofSeconds(5));
            List<LeaseState> states = new CopyOnWriteArrayList<>();
            CountDownLatch lost = new CountDownLatch(1);
            held.addListener((lease, previous, current) -> {
                states.add(current);
                if (current == LeaseState.LOST) {
                    lost.countDown();
                }
            });
            CompletableFuture<Lease> waiting = new CompletableFuture<>();
            CountDownLatch releaseNow = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try (Lease lease = waiter.mutex(name).acquire(Duration.ofSeconds(30))) {
                    waiting.complete(lease);
                    releaseNow.await(); // a mutex lease is released by its own thread
                } catch (Throwable e) {
                    waiting.completeExceptionally(e);
                }
            }, "zkc-waiter");
            t.start();
            Poll.until("entries of " + name, 2, () -> server.residue(name).size(), Duration.ofSeconds(5));

            server.forceLoss(name); // expires both sessions; ZkClient opens new ones on its own

            assertTrue(lost.await(15, TimeUnit.SECONDS), "the holder hears that its lease is lost");
            Lease got = waiting.get(20, TimeUnit.SECONDS);
            assertTrue(got.isHeld(), "the waiter acquired in its new session");
            assertTrue(got.fencingToken() > held.fencingToken(), "later holder, larger token");
            assertEquals(1, server.residue(name).size(), "only the new holder's node: " + server.residue(name));

            // the holder's client is connected again, in a new session: the old lease must not come back
            try (Lease again = holder.mutex(name + "-other").acquire(Duration.ofSeconds(10))) {
                assertTrue(again.isHeld(), "the holder's client works in its new session");
            }
            assertEquals(LeaseState.LOST, held.state());
            assertFalse(held.isHeld());
            assertFalse(states.contains(LeaseState.HELD), "the lost lease was never reported HELD again: " + states);

            releaseNow.countDown();
            t.join(10_000);
            assertEquals(LeaseState.RELEASED, got.state());
            held.release(); // harmless on a lost lease, and leaves the new holder's node alone
            assertEquals(0, server.residue(name).size(), "nothing left: " + server.residue(name));
        }
    }

    @Test
    void leaseAndWaiterSurviveAQuickServerRestart() throws Exception {
        String name = "zkc-recovery-restart-" + System.nanoTime();
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = holder.semaphore(name, 1).acquire(Duration.ofSeconds(5));
            CountDownLatch restored = new CountDownLatch(1);
            held.addListener((lease, previous, current) -> {
                if (previous == LeaseState.UNCERTAIN && current == LeaseState.HELD) {
                    restored.countDown();
                }
            });
            CompletableFuture<Lease> waiting = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    waiting.complete(waiter.semaphore(name, 1).acquire(Duration.ofSeconds(30)));
                } catch (Throwable e) {
                    waiting.completeExceptionally(e);
                }
            }, "zkc-sem-waiter");
            t.start();
            // the holder's lease, and the waiter inside the internal mutex with its own lease node
            Poll.until("entries of " + name, 3, () -> server.residue(name).size(), Duration.ofSeconds(5));

            server.restart(); // sessions survive: both clients reconnect well within 4 s

            assertTrue(restored.await(10, TimeUnit.SECONDS), "the holder's lease went UNCERTAIN and back to HELD");
            assertFalse(waiting.isDone(), "still waiting while the holder holds");
            assertEquals(3, server.residue(name).size(), "the same entries: " + server.residue(name));
            held.release();
            Lease got = waiting.get(10, TimeUnit.SECONDS);
            assertTrue(got.isHeld());
            assertTrue(got.fencingToken() > held.fencingToken(), "later holder, larger token");
            got.release();
            t.join(10_000);
            assertEquals(0, server.residue(name).size(), "nothing left: " + server.residue(name));
        }
    }
}
