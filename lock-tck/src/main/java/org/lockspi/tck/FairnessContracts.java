package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.AsyncAcquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §14.1, §14.3, §14.4 Fairness: waiters of a {@link LockFeature#FAIR} provider get the lock in the order they asked
 * for it, whichever client they use and whatever the kind (mutex, semaphore, read-write). The order of asking is
 * made certain by starting each waiter only once the server shows the entry of the one before
 * ({@link TckBackend#residue(String)}).
 */
@Inapplicable(shapes = ONE_WAITER, reason = "order needs several waiters")
public interface FairnessContracts extends TckContext {

    /**
     * (FAIR, INSPECT) A client holds a mutex and four clients enqueue, each started once the server shows the entry of
     * the one before. None acquires while the lock is held; after the release they acquire in the order they enqueued.
     * Three rounds with the same five clients.
     */
    @Test
    @Timeout(90)
    @Diagnosis("FAIR promises FIFO across clients: waiters must queue on the server (sequential nodes, a sorted set) "
            + "and be granted in that order. A provider whose waiters poll with a back-off, or race when woken, must "
            + "not declare FAIR in LockProvider.features().")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @CoveredBy(value = "§14.5", kinds = {NON_REENTRANT_MUTEX, THREAD_FREE, ASYNC})
    @CoveredBy(value = "§14.4", kinds = {READ, WRITE}, shapes = MIXED_KINDS)
    @CoveredBy(value = "§14.3", kinds = SEMAPHORE)
    @DisplayName("§14.1 mutex: waiters from separate clients acquire in the order they enqueued")
    default void waitersAcquireInEnqueueOrder() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.FAIR);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.INSPECT);
        int waiters = 4;
        String name = uniqueName("fair");
        DistributedLock holder = openClient().mutex(name);
        List<DistributedLock> queue = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            queue.add(openClient().mutex(name));
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            expected.add(i);
        }
        // Three rounds: waiters that poll instead of queueing hit the order of asking by chance now and then (a
        // polling provider that claims FAIR did in about one run in fifty), hardly three times in a row.
        try (Workers pool = new Workers(waiters)) {
            for (int round = 1; round <= 3; round++) {
                Lease held = holder.acquire(Duration.ofSeconds(10));
                Poll.until("entries of '" + name + "'", 1, () -> backend().residue(name).size(),
                        Duration.ofSeconds(5));
                List<Integer> order = Collections.synchronizedList(new ArrayList<>());
                List<Future<?>> done = new ArrayList<>();
                for (int i = 0; i < waiters; i++) {
                    int index = i;
                    DistributedLock lock = queue.get(i);
                    done.add(pool.submit(() -> {
                        try (Lease lease = lock.acquire(Duration.ofSeconds(60))) {
                            order.add(index);
                        }
                        return null;
                    }));
                    Poll.until("entries of '" + name + "' with waiter " + i + " enqueued", i + 2,
                            () -> backend().residue(name).size(), Duration.ofSeconds(10));
                }
                assertEquals(List.of(), order, "round " + round + ": no waiter acquires while the lock is held");
                held.release();
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertEquals(expected, order, "round " + round + ": order of acquisition");
            }
        }
    }

    /**
     * (FAIR, SEMAPHORE, INSPECT) With one permit, and again with two: other clients hold every permit, four clients
     * enqueue one after another, the last holder releases one permit, and each waiter releases as soon as it acquires.
     * They acquire in the order they enqueued, each after the one before released, none while every permit is held.
     */
    @Test
    @Timeout(90)
    @Diagnosis("Permit waiters must be served in queue order (Curator's layout: through the internal lock's FIFO; a "
            + "fair Redis provider: through its queue): a freed permit taken by whichever waiter asks first breaks "
            + "it. Otherwise do not declare FAIR.")
    @Covers(kinds = SEMAPHORE, shapes = SEVERAL_WAITERS)
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE}, reason = Why.PERMITS_ONLY)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "a thread-free read-write lock counts no permits; "
            + "asynchronous permit waiters queue in §14.5's way, through the non-reentrant mutex's layout")
    @Inapplicable(shapes = MIXED_KINDS, reason = "a semaphore's permits are of one kind")
    @DisplayName("§14.3 semaphore: with one permit and with two, waiters from separate clients get permits in the "
            + "order they enqueued")
    default void semaphoreWaitersInEnqueueOrder() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.FAIR);
        requireFeature(LockFeature.SEMAPHORE);
        requireCapability(TckBackend.Capability.INSPECT);
        for (int permits = 1; permits <= 2; permits++) {
            int p = permits;
            String name = uniqueName("fair-permits-" + permits);
            // Every permit is taken; the last holder's release frees one permit, which the waiters pass on one by
            // one (each releases at once), so the order they acquire in is the order they are served in.
            List<Lease> holders = new ArrayList<>();
            for (int i = 0; i < permits; i++) {
                holders.add(openClient().semaphore(name, permits).acquire(Duration.ofSeconds(10)));
            }
            List<String> events = Collections.synchronizedList(new ArrayList<>());
            List<Callable<?>> waiters = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Acquirable semaphore = openClient().semaphore(name, permits);
                waiters.add(takeAndLog(semaphore, "s" + i, events));
            }
            try (Workers pool = new Workers(waiters.size())) {
                List<Future<?>> done = enqueueInOrder(pool, name, waiters);
                assertEquals(List.of(), events, "semaphore(" + p + "): no waiter acquires while every permit is held");
                Lease last = holders.remove(holders.size() - 1);
                last.release();
                awaitAll(done);
                assertEquals(List.of("+s0", "-s0", "+s1", "-s1", "+s2", "-s2", "+s3", "-s3"), events,
                        "semaphore(" + p + "): order of acquisition (+) and release (-)");
            }
            for (Lease held : holders) {
                held.release();
            }
        }
    }

    /**
     * (FAIR, READ_WRITE, INSPECT) A client holds the write half, and in a second round the read half; clients enqueue a
     * writer {@code w0}, readers {@code r1} and {@code r2} and a writer {@code w3}, each releasing as soon as it
     * acquires. None acquires while the holder holds (with a reader holding, {@code r1} and {@code r2} wait for
     * {@code w0}); then {@code w0} alone, then {@code r1} and {@code r2} in either order, then {@code w3}.
     */
    @Test
    @Timeout(90)
    @Diagnosis("In LockBackend.acquire a reader must wait for every writer queued before it, even while only readers "
            + "hold, and a writer for every entry before it; a read grant that looks only at current holders lets "
            + "readers overtake. Otherwise do not declare FAIR.")
    @Covers(kinds = {READ, WRITE}, shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @CoveredBy(value = "§14.5", kinds = {THREAD_FREE, ASYNC})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, SEMAPHORE}, reason = Why.READ_WRITE_ONLY)
    @DisplayName("§14.4 read-write: queued writers and readers are served in queue order; a reader never overtakes "
            + "a writer queued before it")
    default void readWriteWaitersInQueueOrder() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.FAIR);
        requireFeature(LockFeature.READ_WRITE);
        requireCapability(TckBackend.Capability.INSPECT);
        for (String holderHalf : List.of("write", "read")) {
            String name = uniqueName("fair-rw-" + holderHalf);
            DistributedReadWriteLock holderLock = openClient().readWriteLock(name);
            Lease held = ("write".equals(holderHalf) ? holderLock.writeLock() : holderLock.readLock())
                    .acquire(Duration.ofSeconds(10));
            // Queue: writer w0, readers r1 and r2, writer w3. Each releases as soon as it acquires.
            List<String> events = Collections.synchronizedList(new ArrayList<>());
            List<Callable<?>> waiters = new ArrayList<>();
            for (String waiter : List.of("w0", "r1", "r2", "w3")) {
                DistributedReadWriteLock lock = openClient().readWriteLock(name);
                waiters.add(takeAndLog(waiter.startsWith("w") ? lock.writeLock() : lock.readLock(), waiter, events));
            }
            try (Workers pool = new Workers(waiters.size())) {
                List<Future<?>> done = enqueueInOrder(pool, name, waiters);
                assertEquals(List.of(), events, holderHalf + " held: no waiter acquires while it is held (a reader "
                        + "behind the queued writer w0 waits for it, even while only a reader holds)");
                held.release();
                awaitAll(done);
            }
            String what = holderHalf + " held, queue w0 r1 r2 w3: order of acquisition (+) and release (-) "
                    + events;
            assertEquals(List.of("+w0", "-w0"), events.subList(0, 2), what + ": the writer queued first is served "
                    + "first, alone");
            assertEquals(Set.of("+r1", "+r2", "-r1", "-r2"), Set.copyOf(events.subList(2, 6)), what + ": then both "
                    + "readers, queued after it");
            assertEquals(List.of("+w3", "-w3"), events.subList(6, 8), what + ": the last writer waits for both "
                    + "readers queued before it");
        }
    }

    /**
     * (FAIR, INSPECT) Queues of several waiters of the other kinds, with synchronous and asynchronous acquisitions in
     * one queue, run side by side. (NON_REENTRANT_MUTEX) A client holds a non-reentrant mutex; five clients enqueue one
     * after another, alternately with {@code acquire} and {@code acquireAsync}; twice. (READ_WRITE) A client holds the
     * read half of {@code readWriteLock}; clients enqueue a thread-free writer with {@code acquireAsync} {@code w0},
     * a thread-bound reader {@code r1}, a thread-free reader with {@code acquireAsync} {@code r2}, a thread-bound
     * writer {@code w3} and a thread-free reader {@code r4}. Each waiter releases as soon as it acquires. None acquires
     * while its lock is held (the readers wait for {@code w0} although only a reader holds); then the non-reentrant
     * mutex's waiters in the order they enqueued, and {@code w0} alone, {@code r1} and {@code r2} in either order,
     * {@code w3} alone, {@code r4}.
     */
    @Test
    @Timeout(90)
    @Diagnosis("The other kinds queue apart from the mutex: a non-reentrant mutex in the semaphore's layout (its "
            + "internal lock's order) or a script of its own, a thread-free lock's halves as the read-write lock's. "
            + "Look at the grant of the kind that failed: it must serve the queue's head, whichever thread or future "
            + "asked. Otherwise do not declare FAIR.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, THREAD_FREE, ASYNC}, shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @CoveredBy(value = "§14.1", kinds = MUTEX)
    @CoveredBy(value = "§14.3", kinds = SEMAPHORE)
    @DisplayName("§14.5 non-reentrant mutex, and a queue of thread-bound and thread-free halves: waiters acquire in "
            + "the order they enqueued, synchronous and asynchronous alike")
    default void otherKindsWaitInEnqueueOrder() throws InterruptedException {
        requireFeature(LockFeature.FAIR);
        boolean nrm = provider().features().contains(LockFeature.NON_REENTRANT_MUTEX);
        boolean readWrite = provider().features().contains(LockFeature.READ_WRITE);
        if (!nrm && !readWrite) {
            requireFeature(LockFeature.NON_REENTRANT_MUTEX); // skips, naming the first of the two
        }
        requireCapability(TckBackend.Capability.INSPECT);
        List<Async<Void>> parts = new ArrayList<>();
        if (nrm) {
            parts.add(Async.start("fair-non-reentrant", () -> {
                nonReentrantQueueInOrder();
                return null;
            }));
        }
        if (readWrite) {
            parts.add(Async.start("fair-thread-free", () -> {
                mixedReadWriteQueueInOrder();
                return null;
            }));
        }
        for (Async<Void> part : parts) {
            part.get(Duration.ofSeconds(80));
        }
    }

    private void nonReentrantQueueInOrder() throws InterruptedException, ExecutionException, TimeoutException {
        int waiters = 5;
        String name = uniqueName("fair-nrm");
        AsyncAcquirable holder = openClient().nonReentrantMutex(name);
        List<AsyncAcquirable> queue = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            queue.add(openClient().nonReentrantMutex(name));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            expected.addAll(List.of("+n" + i, "-n" + i));
        }
        // Two rounds: five waiters polling instead of queueing hit the order by chance once in 120 rounds
        for (int round = 1; round <= 2; round++) {
            Lease held = holder.acquire(Duration.ofSeconds(10));
            List<String> events = Collections.synchronizedList(new ArrayList<>());
            List<Callable<?>> waiting = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                waiting.add(i % 2 == 0 ? takeAndLog(queue.get(i), "n" + i, events)
                        : takeAsyncAndLog(queue.get(i), "n" + i, events));
            }
            try (Workers pool = new Workers(waiting.size())) {
                List<Future<?>> done = enqueueInOrder(pool, name, waiting);
                assertEquals(List.of(), events, "non-reentrant mutex, round " + round + ": no waiter acquires while "
                        + "it is held");
                held.release();
                awaitAll(done);
            }
            assertEquals(expected, events, "non-reentrant mutex, round " + round + ", waiters enqueued n0 to n4 "
                    + "(odd ones with acquireAsync): order of acquisition (+) and release (-)");
        }
    }

    private void mixedReadWriteQueueInOrder() throws InterruptedException, ExecutionException, TimeoutException {
        String name = uniqueName("fair-thread-free");
        Lease held = openClient().readWriteLock(name).readLock().acquire(Duration.ofSeconds(10));
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        List<Callable<?>> waiting = List.of(
                takeAsyncAndLog(openClient().threadFreeReadWriteLock(name).writeLock(), "w0", events),
                takeAndLog(openClient().readWriteLock(name).readLock(), "r1", events),
                takeAsyncAndLog(openClient().threadFreeReadWriteLock(name).readLock(), "r2", events),
                takeAndLog(openClient().readWriteLock(name).writeLock(), "w3", events),
                takeAndLog(openClient().threadFreeReadWriteLock(name).readLock(), "r4", events));
        try (Workers pool = new Workers(waiting.size())) {
            List<Future<?>> done = enqueueInOrder(pool, name, waiting);
            assertEquals(List.of(), events, "a reader holds: no waiter acquires (r1 and r2 wait for the thread-free "
                    + "writer w0 queued before them)");
            held.release();
            awaitAll(done);
        }
        String what = "queue w0 (thread-free, async) r1 (bound) r2 (thread-free, async) w3 (bound) r4 (thread-free): "
                + "order of acquisition (+) and release (-) " + events;
        assertEquals(List.of("+w0", "-w0"), events.subList(0, 2), what + ": the writer queued first is served "
                + "first, alone");
        assertEquals(Set.of("+r1", "+r2", "-r1", "-r2"), Set.copyOf(events.subList(2, 6)), what + ": then both "
                + "readers queued after it");
        assertEquals(List.of("+w3", "-w3", "+r4", "-r4"), events.subList(6, 10), what + ": then the bound writer, "
                + "then the last reader");
    }

    /** A waiter that acquires with {@code acquireAsync}, logs {@code +label}, logs {@code -label} and releases. */
    private static Callable<?> takeAsyncAndLog(AsyncAcquirable lock, String label, List<String> events) {
        return () -> {
            try (Lease lease = lock.acquireAsync(Duration.ofSeconds(60)).get(70, TimeUnit.SECONDS)) {
                events.add("+" + label);
                events.add("-" + label);
            }
            return null;
        };
    }

    /** A waiter that acquires, logs {@code +label}, logs {@code -label} and releases. */
    private static Callable<?> takeAndLog(Acquirable lock, String label, List<String> events) {
        return () -> {
            try (Lease lease = lock.acquire(Duration.ofSeconds(60))) {
                events.add("+" + label);
                events.add("-" + label);
            }
            return null;
        };
    }

    /**
     * Starts the waiters one by one, each once the server shows the entries of the one before: the lock's residue
     * has grown and then stayed the same for 500 ms (a waiter may add more than one entry, as a
     * ZooKeeper semaphore waiter adds a lock node and then a lease node; the first fixes its place).
     *
     * @return the waiters' futures, in order
     */
    private List<Future<?>> enqueueInOrder(Workers pool, String name, List<Callable<?>> waiters) {
        List<Future<?>> done = new ArrayList<>();
        List<String> entries = backend().residue(name);
        for (int i = 0; i < waiters.size(); i++) {
            List<String> before = entries;
            done.add(pool.submit(waiters.get(i)));
            Poll.until("more entries of '" + name + "' than " + before + " with waiter " + i + " enqueued", true,
                    () -> backend().residue(name).size() > before.size(), Duration.ofSeconds(10));
            entries = settled(name);
        }
        return done;
    }

    /** @return the lock's residue once it has not changed for 500 ms (within 10 s) */
    private List<String> settled(String name) {
        return Poll.settled("the entries of '" + name + "'", () -> backend().residue(name), Duration.ofMillis(500),
                Duration.ofSeconds(10));
    }

    private static void awaitAll(List<Future<?>> done)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
    }
}
