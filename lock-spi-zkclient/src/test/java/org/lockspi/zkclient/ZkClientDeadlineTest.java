package org.lockspi.zkclient;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LockConnectionException;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * ZkClient retries every operation until the connection returns; the provider must not: an acquisition with a
 * timeout returns within it also while the server is down, and so does close().
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class ZkClientDeadlineTest {
    /** What a call may take beyond its own timeout: the kit's bound, a few round trips on a loaded machine. */
    private static final long SLACK_MS = Checks.BOUND.toMillis();

    private EmbeddedZooKeeperBackend zk;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeAll
    void startServer() {
        zk = EmbeddedZooKeeperBackend.start();
    }

    @AfterEach
    void serverBack() {
        zk.stopServer();
        zk.startServer();
    }

    @AfterAll
    void stopServer() {
        pool.shutdownNow();
        zk.close();
    }

    private LockService open() {
        // a long session, so that only the deadline can end the calls below
        return Locks.open("zookeeper://" + zk.address() + "/deadline?sessionTimeout=20s&connectTimeout=5s",
                new ZkClientLockProvider());
    }

    @Test
    void waitingAcquireReturnsWithinItsTimeoutWhileTheServerIsDown() throws Exception {
        try (LockService holder = open(); LockService waiter = open()) {
            Lease held = holder.mutex("m1").acquire(Duration.ofSeconds(5));
            long timeoutMs = 2_000;
            long start = System.nanoTime();
            Future<Optional<Lease>> attempt = pool.submit(
                    () -> waiter.mutex("m1").tryAcquire(Duration.ofMillis(timeoutMs)));
            awaitChildren("/deadline/m1", 2); // the waiter is queued behind the holder
            zk.stopServer();
            finish(attempt, start, timeoutMs, "a queued tryAcquire(" + timeoutMs + " ms)");
            try {
                held.release();
            } catch (LockConnectionException e) {
                // allowed while the server is down: the node is deleted on reconnection or with the session
            }
        }
    }

    @Test
    void acquireStartedWhileTheServerIsDownReturnsWithinItsTimeout() throws Exception {
        LockService client = open();
        try {
            client.mutex("warm").acquire(Duration.ofSeconds(5)).release();
            // At once, without waiting for the client to notice: a call sent between the connection dropping and
            // ZooKeeper's Disconnected event would otherwise wait in the handle's queue for the next connect attempt.
            zk.stopServer();
            for (long timeoutMs : new long[] {0, 500, 1_500}) {
                long start = System.nanoTime();
                Future<Optional<Lease>> attempt = pool.submit(
                        () -> client.mutex("m2").tryAcquire(Duration.ofMillis(timeoutMs)));
                finish(attempt, start, timeoutMs, "tryAcquire(" + timeoutMs + " ms)");
            }
            long start = System.nanoTime();
            client.close();
            long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(closeMs <= 5_000 + SLACK_MS, "close() while the server is down took " + closeMs + " ms");
        } finally {
            client.close(); // idempotent
        }
    }

    /**
     * Waits for a call to end, which must be an empty result or a LockConnectionException, within its timeout plus
     * the slack, counted from {@code startNanos}.
     */
    private void finish(Future<Optional<Lease>> attempt, long startNanos, long timeoutMs, String what)
            throws InterruptedException {
        try {
            Optional<Lease> result = attempt.get(10, TimeUnit.SECONDS);
            assertTrue(result.isEmpty(), what + " acquired while the server is down");
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof LockConnectionException)) {
                fail(what + " failed with " + e.getCause(), e.getCause());
            }
        } catch (java.util.concurrent.TimeoutException e) {
            attempt.cancel(true);
            fail(what + " still runs 10 s later: ZkClient retried without bound");
        }
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        assertTrue(took <= timeoutMs + SLACK_MS, what + " took " + took + " ms");
    }

    /** Until {@code path} has {@code n} children on the server: no event tells a test of another client's node. */
    private void awaitChildren(String path, int n) {
        Poll.until("children of " + path, n, () -> {
            return zk.children(path).size();
        }, Duration.ofSeconds(10));
    }
}
