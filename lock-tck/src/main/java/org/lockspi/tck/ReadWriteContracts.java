package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.SHORT;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/** §6 Read-write: readers share, a writer excludes, write-to-read downgrade works, read-to-write upgrade is refused. */
@Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, SEMAPHORE}, reason = Why.READ_WRITE_ONLY)
public interface ReadWriteContracts extends TckContext {

    /**
     * {@code readLock()} and {@code writeLock()} return the same instances on every call. Client a holds the read half;
     * client b's {@code tryAcquire()} and client c's {@code tryAcquire(300 ms)} of the read half both succeed, and the
     * three leases are {@code HELD} at once.
     */
    @Test
    @Diagnosis("A LockKind.READ request must be granted beside other readers: look for a read served by the write "
            + "recipe (readers exclude each other) or a read grant in LockBackend.acquire that waits for any holder "
            + "instead of for writers only.")
    @Covers(kinds = READ)
    @CoveredBy(value = "§23.6", kinds = THREAD_FREE)
    @Inapplicable(kinds = WRITE, reason = "writers never share: §6.2")
    @Inapplicable(kinds = ASYNC, reason = Why.NO_ASYNC_FORM)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§6.1 readers share: several clients hold the read lock at once")
    default void readersShare() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("readers");
        DistributedReadWriteLock a = openClient().readWriteLock(name);
        DistributedReadWriteLock b = openClient().readWriteLock(name);
        DistributedReadWriteLock c = openClient().readWriteLock(name);
        assertSame(a.readLock(), a.readLock(), "readLock() must return the same instance");
        assertSame(a.writeLock(), a.writeLock(), "writeLock() must return the same instance");
        assertEquals(name, a.name());
        Lease ra = a.readLock().acquire(WAIT);
        Optional<Lease> rb = b.readLock().tryAcquire();
        assertTrue(rb.isPresent(), "a second client could not read while the first reads");
        Optional<Lease> rc = c.readLock().tryAcquire(SHORT);
        assertTrue(rc.isPresent(), "a third client could not read while two read");
        assertTrue(ra.isHeld() && rb.get().isHeld() && rc.get().isHeld());
        ra.release();
        rb.get().release();
        rc.get().release();
    }

    /**
     * While client a holds the write half, client b's {@code tryAcquire()} of either half and its read
     * {@code tryAcquire(300 ms)} are empty; while a holds the read half, b's write {@code tryAcquire()} and
     * {@code tryAcquire(300 ms)} are empty. After a's release b gets the write half within 10 s.
     */
    @Test
    @Diagnosis("A LockKind.WRITE grant must exclude readers and writers of other clients: look for a write served by "
            + "the read recipe, a write grant that checks other writers only, or a read grant that ignores a write "
            + "entry that holds.")
    @Covers(kinds = {READ, WRITE}, shapes = ONE_WAITER)
    @CoveredBy(value = "§23.6", kinds = {THREAD_FREE, ASYNC})
    @CoveredBy(value = "§6.5", shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @DisplayName("§6.2 a writer excludes readers and writers of every other client, and waits for readers")
    default void writerExcludes() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("writer");
        DistributedReadWriteLock a = openClient().readWriteLock(name);
        DistributedReadWriteLock b = openClient().readWriteLock(name);
        try (Lease write = a.writeLock().acquire(WAIT)) {
            assertTrue(b.readLock().tryAcquire().isEmpty(), "a reader got in while another client writes");
            assertTrue(b.writeLock().tryAcquire().isEmpty(), "a writer got in while another client writes");
            assertTrue(b.readLock().tryAcquire(SHORT).isEmpty(), "the same with a timeout");
        }
        try (Lease read = a.readLock().acquire(WAIT)) {
            assertTrue(b.writeLock().tryAcquire().isEmpty(), "a writer got in while another client reads");
            assertTrue(b.writeLock().tryAcquire(SHORT).isEmpty(), "the same with a timeout");
        }
        Optional<Lease> write = b.writeLock().tryAcquire(WAIT);
        assertTrue(write.isPresent(), "the write lock was not freed by the last reader");
        write.get().release();
    }

    /**
     * The thread holding the write half takes the read half of the same lock within 2 s (a downgrade), while another
     * client's read {@code tryAcquire()} is empty. After the write is released the read stays {@code HELD}, another
     * client reads within 10 s, and a third client's write {@code tryAcquire()} is empty.
     */
    @Test
    @Diagnosis("A READ request with AcquireRequest.heldWrite() set must be granted at once beside that write "
            + "(ZooKeeper: a read node taking the write node's sequence; Redis: the downgrade argument naming the "
            + "write entry); ignoring heldWrite queues the read behind its own write.")
    @Covers(kinds = {READ, WRITE})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "a downgrade is a thread's: the thread-free read-write lock "
            + "has none (§23)")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§6.3 downgrade: the writing thread may take the read lock, then release the write lock")
    default void downgrade() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("downgrade");
        DistributedReadWriteLock lock = openClient().readWriteLock(name);
        DistributedReadWriteLock other = openClient().readWriteLock(name);
        DistributedReadWriteLock third = openClient().readWriteLock(name);
        Lease write = lock.writeLock().acquire(WAIT);
        long start = System.nanoTime();
        Optional<Lease> read = lock.readLock().tryAcquire(WAIT);
        assertTrue(read.isPresent(), "the writing thread could not take the read lock (downgrade)");
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(BOUND) <= 0,
                "the downgrade waited; it must be granted at once");
        assertTrue(lock.readLock().isHeldByCurrentThread() && lock.writeLock().isHeldByCurrentThread());
        assertTrue(other.readLock().tryAcquire().isEmpty(), "another client read while the downgrading thread writes");
        write.release();
        assertEquals(LeaseState.HELD, read.get().state(), "releasing the write lock dropped the read lock");
        assertFalse(lock.writeLock().isHeldByCurrentThread());
        Optional<Lease> otherRead = other.readLock().tryAcquire(WAIT);
        assertTrue(otherRead.isPresent(), "after the downgrade another client could not read");
        assertTrue(third.writeLock().tryAcquire().isEmpty(), "a writer got in while the downgraded reader reads");
        otherRead.get().release();
        read.get().release();
    }

    /**
     * The thread holding the read half calls {@code acquire()}, {@code acquire(10 s)}, {@code tryAcquire()} and
     * {@code tryAcquire(10 s)} of the write half: each throws {@code IllegalMonitorStateException} within 500 ms, the
     * first naming the lock. The read stays {@code HELD} and the write hold count 0; another client's writer is
     * excluded and its reader gets in; after the read's release the thread takes the write half.
     */
    @Test
    @Diagnosis("The refusal is the engine's: an upgrade never reaches LockBackend.acquire. If another client's reader "
            + "is refused afterwards, or the final write does not come, the read's BackendLease or its release is at "
            + "fault (see §6.1 and §8.1).")
    @Covers(kinds = {READ, WRITE})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "an upgrade is refused to the thread that reads: the "
            + "thread-free lock's writer waits for its readers instead (§23.6)")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§6.4 upgrade refused at once: read then write by one thread throws IllegalMonitorStateException, the read stays held")
    default void upgradeRefused() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("upgrade");
        DistributedReadWriteLock lock = openClient().readWriteLock(name);
        DistributedReadWriteLock other = openClient().readWriteLock(name);
        Duration atOnce = Duration.ofMillis(500);
        try (Lease read = lock.readLock().acquire(WAIT)) {
            assertNames(throwsWithin(IllegalMonitorStateException.class, atOnce, "upgrade by acquire()",
                    () -> lock.writeLock().acquire()), name);
            throwsWithin(IllegalMonitorStateException.class, atOnce, "upgrade by acquire(timeout)",
                    () -> lock.writeLock().acquire(WAIT));
            throwsWithin(IllegalMonitorStateException.class, atOnce, "upgrade by tryAcquire()",
                    () -> lock.writeLock().tryAcquire());
            throwsWithin(IllegalMonitorStateException.class, atOnce, "upgrade by tryAcquire(timeout)",
                    () -> lock.writeLock().tryAcquire(WAIT));
            assertEquals(LeaseState.HELD, read.state(), "a refused upgrade changed the read lease");
            assertTrue(lock.readLock().isHeldByCurrentThread());
            assertFalse(lock.writeLock().isHeldByCurrentThread());
            assertEquals(0, lock.writeLock().holdCount());
            assertTrue(other.writeLock().tryAcquire().isEmpty(), "a refused upgrade freed the read lock");
            assertTrue(other.readLock().tryAcquire().map(l -> {
                l.release();
                return true;
            }).orElse(false), "a refused upgrade left a writer in the way of readers");
        }
        Optional<Lease> write = lock.writeLock().tryAcquire(WAIT);
        assertTrue(write.isPresent(), "after releasing the read lock the same thread could not write");
        write.get().release();
    }

    /**
     * Client a reads; client b's writer waits for it; client c's reader, arriving after the writer, gets empty from
     * {@code tryAcquire()}. Once a releases, b's writer acquires within 10 s, and after its release c reads within 10
     * s.
     */
    @Test
    @Diagnosis("A reader must wait for every writer queued before it, not only one that holds: look at the read "
            + "predicate of LockBackend.acquire (ZooKeeper: a read node waits for any write node with a lower "
            + "sequence; Redis: the waiting-writers mark a queued writer sets and readers check).")
    @Covers(kinds = {READ, WRITE}, shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @CoveredBy(value = "§14.5", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(shapes = ONE_WAITER, reason = "a writer blocks later readers only with a reader ahead of it: the "
            + "queue has two kinds")
    @DisplayName("§6.5 a waiting writer blocks readers that arrive after it (no writer starvation)")
    default void waitingWriterBlocksLaterReaders() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("writer-first");
        DistributedReadWriteLock reader = openClient().readWriteLock(name);
        DistributedReadWriteLock writer = openClient().readWriteLock(name);
        DistributedReadWriteLock late = openClient().readWriteLock(name);
        Lease read = reader.readLock().acquire(WAIT);
        Async<Boolean> waitingWriter = Async.startWaiter("waiting-writer", backend(), name, () -> {
            try (Lease write = writer.writeLock().acquire(WAIT)) {
                return write.isHeld();
            }
        });
        assertTrue(late.readLock().tryAcquire().isEmpty(), "a reader overtook a waiting writer");
        read.release();
        assertTrue(waitingWriter.get(WAIT), "the waiting writer did not get the lock");
        Optional<Lease> lateRead = late.readLock().tryAcquire(WAIT);
        assertTrue(lateRead.isPresent(), "the late reader could not read after the writer finished");
        lateRead.get().release();
    }

    /**
     * One thread takes the write half twice and the read half twice, nested: the write hold count is 2 and the read
     * hold count goes to 1, 2 and back to 1; after the releases both are 0.
     */
    @Test
    @Diagnosis("Hold counts are the engine's; the provider's part is the first read of a thread that holds the write "
            + "half, a downgrade (see §6.3): a backend that ignores AcquireRequest.heldWrite() waits here for its own "
            + "write until the 10 s timeout.")
    @Covers(kinds = {READ, WRITE})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.THREAD_OWNED)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§6.6 both halves are reentrant per thread, with their own hold counts")
    default void halvesReentrant() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        DistributedReadWriteLock lock = openClient().readWriteLock(uniqueName("rw-reentrant"));
        try (Lease w1 = lock.writeLock().acquire(WAIT); Lease w2 = lock.writeLock().acquire(WAIT);
             Lease r1 = lock.readLock().acquire(WAIT)) {
            assertEquals(2, lock.writeLock().holdCount());
            assertEquals(1, lock.readLock().holdCount());
            try (Lease r2 = lock.readLock().tryAcquire().orElseThrow(() -> new AssertionError("nested read"))) {
                assertEquals(2, lock.readLock().holdCount());
            }
            assertEquals(1, lock.readLock().holdCount());
        }
        assertEquals(0, lock.writeLock().holdCount());
        assertEquals(0, lock.readLock().holdCount());
    }

    /**
     * Two clients, each with a writer and two reader threads, take the lock eight times per thread, started together. A
     * writer inside never meets another writer or a reader, and all 16 writes complete within 40 s.
     */
    @Test
    @Diagnosis("A writer beside a reader comes from a read or write grant that is not decided atomically on the "
            + "server (check the readers and the writer in one script or one listing), or from a reader's release "
            + "that wakes a writer while other readers still hold.")
    @Covers(kinds = {READ, WRITE}, shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = ONE_WAITER, reason = "a hammer queues several at once")
    @DisplayName("§6.7 readers and writers of several clients hammering: a writer is always alone")
    default void writerAlwaysAlone() throws InterruptedException {
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("rw-hammer");
        int clients = 2;
        int rounds = 8;
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Async<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            LockService client = openClient();
            DistributedReadWriteLock lock = client.readWriteLock(name);
            for (boolean writing : new boolean[] {true, false, false}) {
                workers.add(Async.start((writing ? "writer-" : "reader-") + c, () -> {
                    assertTrue(start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                    for (int r = 0; r < rounds; r++) {
                        if (writing) {
                            try (Lease lease = lock.writeLock().acquire(WAIT)) {
                                if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                                    violations.incrementAndGet();
                                }
                                Thread.yield();
                                writers.decrementAndGet();
                                writes.incrementAndGet();
                            }
                        } else {
                            try (Lease lease = lock.readLock().acquire(WAIT)) {
                                readers.incrementAndGet();
                                if (writers.get() != 0) {
                                    violations.incrementAndGet();
                                }
                                Thread.yield();
                                readers.decrementAndGet();
                            }
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
    }
}
