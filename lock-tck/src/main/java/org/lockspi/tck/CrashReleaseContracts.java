package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.process.HolderMain;

/**
 * §11 Crash release: a client whose process dies (killed with {@code SIGKILL}, so it cannot clean up) loses what
 * it held or waited for within {@link TckContext#crashReleaseBound()}, and the waiters behind it go on.
 */
public interface CrashReleaseContracts extends TckContext {

    @Test
    @Timeout(120)
    @DisplayName("§11.1 a holder killed with SIGKILL loses the mutex within the crash-release bound; the waiter's "
            + "token is greater")
    default void killedHolderLosesTheLock() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.CRASH_RELEASE);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        String name = uniqueName("crash-holder");
        Duration bound = crashReleaseBound();
        try (Workers waiter = new Workers(1);
             ChildJvm child = ChildJvm.start(HolderMain.class, "hold", clientUri(), provider().name(), name,
                     "mutex")) {
            String held = child.awaitLine(Duration.ofSeconds(60), "HELD", "ERROR");
            assertTrue(held.startsWith("HELD "), () -> held + child.stderrTail());
            DistributedLock lock = openClient().mutex(name);
            assertTrue(lock.tryAcquire().isEmpty(), "the child holds '" + name + "'");

            // [acquired at (nanoTime), fencing token or Long.MIN_VALUE], or null if not acquired: a wait past the
            // bound fails the rule either way, so it waits a margin past it, not longer
            Duration wait = bound.plusSeconds(5);
            Future<long[]> next = waiter.submit(() -> {
                Optional<Lease> got = lock.tryAcquire(wait);
                if (got.isEmpty()) {
                    return null;
                }
                try (Lease lease = got.get()) {
                    long at = System.nanoTime();
                    return new long[] {at, tokenOrMin(lease)};
                }
            });
            if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                Poll.until("entries of holder and waiter of '" + name + "'", 2,
                        () -> backend().residue(name).size(), Duration.ofSeconds(10));
            }
            child.kill();
            long killedAt = System.nanoTime();
            long[] acquired = next.get(wait.plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
            if (acquired == null) {
                String left = backend().capabilities().contains(TckBackend.Capability.INSPECT)
                        ? "; the server still shows " + backend().residue(name) : "";
                throw new AssertionError("the waiter did not get '" + name + "' within " + wait.toMillis()
                        + " ms of the holder's kill (the crash-release bound is " + bound.toMillis()
                        + " ms): the dead holder's claim outlived its process" + left);
            }
            Duration took = Duration.ofNanos(acquired[0] - killedAt);
            assertTrue(took.compareTo(bound) <= 0, "the waiter got '" + name + "' " + took.toMillis()
                    + " ms after the holder was killed; the crash-release bound is " + bound.toMillis() + " ms");
            if (provider().features().contains(LockFeature.FENCING_TOKENS)) {
                long dead = Long.parseLong(held.substring("HELD ".length()));
                assertTrue(acquired[1] > dead, "token of the next holder " + acquired[1]
                        + " > token of the killed holder " + dead);
            }
        }
    }

    @Test
    @Timeout(120)
    @DisplayName("§11.2 a waiter killed with SIGKILL leaves the queue: the waiter behind it gets the mutex when the "
            + "holder releases")
    default void killedWaiterLeavesTheQueue() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.CRASH_RELEASE);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        requireCapability(TckBackend.Capability.INSPECT);
        String name = uniqueName("crash-waiter");
        Duration bound = crashReleaseBound();
        try (Workers waiter = new Workers(1);
             ChildJvm child = ChildJvm.start(HolderMain.class, "hold", clientUri(), provider().name(), name,
                     "mutex")) {
            LockService holderClient = openClient();
            Lease held = holderClient.mutex(name).acquire(Duration.ofSeconds(10));
            Poll.until("entries of the holder and the child waiting for '" + name + "'", 2,
                    () -> backend().residue(name).size(), Duration.ofSeconds(60));
            DistributedLock behind = openClient().mutex(name);
            Future<LeaseState> next = waiter.submit(() -> {
                try (Lease lease = behind.acquire(bound.plusSeconds(30))) {
                    return lease.state();
                }
            });
            Poll.until("entries of holder, child and waiter of '" + name + "'", 3,
                    () -> backend().residue(name).size(), Duration.ofSeconds(10));

            child.kill();
            Poll.until("entries once the killed waiter's session ended", 2,
                    () -> backend().residue(name).size(), bound);
            assertFalse(next.isDone(), "the waiter behind the killed one still waits while the lock is held");
            held.release();
            assertEquals(LeaseState.HELD, next.get(10, TimeUnit.SECONDS),
                    "the waiter behind the killed one gets the lock once the holder releases");
        }
    }

    /** @return the lease's fencing token, or {@link Long#MIN_VALUE} without {@link LockFeature#FENCING_TOKENS} */
    private long tokenOrMin(Lease lease) {
        return provider().features().contains(LockFeature.FENCING_TOKENS) ? lease.fencingToken() : Long.MIN_VALUE;
    }
}
