package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §6.8 and §6.9 Read-write with downgrades: a writer that queued before another client's downgrade waits until
 * the downgraded read is released, and downgrades mixed into concurrent readers and writers never put a writer
 * beside anyone.
 */
@Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, SEMAPHORE}, reason = Why.READ_WRITE_ONLY)
@Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "a downgrade is a thread's: the thread-free read-write lock has "
        + "none (§23)")
public interface ReadWriteDowngradeContracts extends TckContext {

    /**
     * Client A holds the write half and client B's writer queues behind it; A takes the read half (a downgrade) and
     * releases the write. While A's read is held, B's writer keeps waiting: a third client's write
     * {@code tryAcquire(300 ms)} and B's own {@code tryAcquire()} are empty and A's read stays {@code HELD}. Once A
     * releases the read, B's writer acquires within 2 s, and (INSPECT) nothing is left within 2 s of the end.
     */
    @Test
    @Diagnosis("The downgraded read must take the write's place in the queue (ZooKeeper: the read node gets the write "
            + "node's sequence number, as Curator's does), so a writer queued behind the write stays behind the read; "
            + "a read queued as a new entry lets it in.")
    @Covers(kinds = {READ, WRITE}, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§6.8 a writer queued before a downgrade waits until the downgraded read is released")
    default void queuedWriterWaitsForDowngradedRead() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
        String name = uniqueName("downgrade-queued");
        DistributedReadWriteLock first = openClient().readWriteLock(name);
        DistributedReadWriteLock second = openClient().readWriteLock(name);
        DistributedReadWriteLock third = openClient().readWriteLock(name);
        Lease write = first.writeLock().acquire(WAIT);
        AtomicBoolean readHeld = new AtomicBoolean();
        AtomicLong acquiredAt = new AtomicLong();
        Async<Boolean> writer = Async.start("queued-writer", () -> {
            try (Lease lease = second.writeLock().acquire(Duration.ofSeconds(30))) {
                acquiredAt.set(System.nanoTime());
                return !readHeld.get(); // false: it got in beside the downgraded read
            }
        });
        writer.awaitBlocked(BOUND);
        Lease read = first.readLock().tryAcquire(WAIT).orElseThrow(
                () -> new AssertionError("the writing thread could not take the read lock (downgrade)"));
        readHeld.set(true);
        write.release();
        assertEquals(LeaseState.HELD, read.state(), "releasing the write lock dropped the read lock");

        // the queued writer must keep waiting: its wake-up would come within a server round trip or two
        assertTrue(third.writeLock().tryAcquire(SHORT).isEmpty(), "a writer got in beside the downgraded read");
        assertEquals(0, acquiredAt.get(), "the writer queued before the downgrade acquired beside the downgraded read");
        writer.awaitBlocked(BOUND);
        if (inspect) {
            assertFalse(backend().residue(name).isEmpty(), "the downgraded read is not on the server");
        }
        assertTrue(second.writeLock().tryAcquire().isEmpty(), "the queued writer's client could write beside the read");
        assertEquals(LeaseState.HELD, read.state(), "the downgraded read was lost while the writer waited");

        readHeld.set(false);
        long released = System.nanoTime();
        read.release();
        assertTrue(writer.get(WAIT), "the writer queued before the downgrade acquired beside the downgraded read");
        Duration took = Duration.ofNanos(acquiredAt.get() - released);
        assertTrue(took.compareTo(BOUND) <= 0, "the queued writer got the lock " + took.toMillis()
                + " ms after the downgraded read was released, expected within " + BOUND.toMillis() + " ms");
        if (inspect) {
            Poll.until("entries of '" + name + "' after every release", List.of(), () -> backend().residue(name),
                    BOUND);
        }
        // and the lock is free for everyone again
        Lease again = third.writeLock().tryAcquire(WAIT).orElseThrow(
                () -> new AssertionError("the lock was not free after the downgrade and the queued writer"));
        again.release();
    }

    /**
     * Two clients, each with a downgrading writer (write, read, release the write, release the read), a writer and a
     * reader thread, run six rounds per thread, started together; each section works 3 ms. A writer is never inside
     * with a reader or another writer, also during a downgraded read, and all 12 writes and 12 downgrades complete
     * within 40 s.
     */
    @Test
    @Diagnosis("Look at what the release of a write under a downgraded read wakes: a waiting writer let in while the "
            + "downgraded read holds breaks this. A read granted through AcquireRequest.heldWrite() must count as a "
            + "reader in every later grant decision of LockBackend.acquire.")
    @Covers(kinds = {READ, WRITE}, shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @Inapplicable(shapes = ONE_WAITER, reason = "a hammer queues several at once")
    @DisplayName("§6.9 readers, writers and downgrading writers of several clients hammering: a writer is always alone")
    default void writerAloneAmongDowngrades() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("downgrade-hammer");
        int clients = 2;
        int rounds = 6;
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger downgrades = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Async<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            LockService client = openClient();
            DistributedReadWriteLock lock = client.readWriteLock(name);
            for (String role : new String[] {"downgrader", "writer", "reader"}) {
                workers.add(Async.start(role + "-" + c, () -> {
                    assertTrue(start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                    for (int r = 0; r < rounds; r++) {
                        switch (role) {
                            case "downgrader":
                                Lease write = lock.writeLock().acquire(WAIT);
                                enterAsWriter(writers, readers, violations);
                                Lease read = lock.readLock().acquire(WAIT); // the downgrade
                                readers.incrementAndGet();
                                writers.decrementAndGet();
                                write.release();
                                downgrades.incrementAndGet();
                                work(0, writers, violations); // reading after the downgrade
                                readers.decrementAndGet();
                                read.release();
                                break;
                            case "writer":
                                try (Lease lease = lock.writeLock().acquire(WAIT)) {
                                    enterAsWriter(writers, readers, violations);
                                    work(1, writers, violations);
                                    writers.decrementAndGet();
                                    writes.incrementAndGet();
                                }
                                break;
                            default:
                                try (Lease lease = lock.readLock().acquire(WAIT)) {
                                    readers.incrementAndGet();
                                    work(0, writers, violations);
                                    readers.decrementAndGet();
                                }
                                break;
                        }
                    }
                    return null;
                }));
            }
        }
        start.countDown();
        for (Async<Void> worker : workers) {
            worker.get(Duration.ofSeconds(40));
        }
        assertEquals(0, violations.get(), "a writer was inside together with a reader or another writer");
        assertEquals(clients * rounds, writes.get(), "completed writes");
        assertEquals(clients * rounds, downgrades.get(), "completed downgrades");
    }

    /** Counts a writer in; a violation if anyone else is inside. */
    private static void enterAsWriter(AtomicInteger writers, AtomicInteger readers, AtomicInteger violations) {
        if (writers.incrementAndGet() != 1 || readers.get() != 0) {
            violations.incrementAndGet();
        }
    }

    /**
     * The work inside a section: a few milliseconds, long enough for a wrongly woken writer (one server round
     * trip) to come in; a violation if the writers inside are not just the section's own, before or after.
     */
    private static void work(int own, AtomicInteger writers, AtomicInteger violations) {
        if (writers.get() != own) {
            violations.incrementAndGet();
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3));
        if (writers.get() != own) {
            violations.incrementAndGet();
        }
    }
}
