package org.lockspi.tck;

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
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.DistributedReadWriteLock;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;

/**
 * §14.1, §14.3, §14.4 Fairness: waiters of a {@link LockFeature#FAIR} provider get the lock in the order they asked
 * for it, whichever client they use and whatever the kind (mutex, semaphore, read-write). The order of asking is
 * made certain by starting each waiter only once the server shows the entry of the one before
 * ({@link TckBackend#residue(String)}).
 */
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
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> last = backend().residue(name);
        long since = System.nanoTime();
        while (System.nanoTime() - since < TimeUnit.MILLISECONDS.toNanos(500)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the entries of '" + name + "' kept changing for 10 s: " + last);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            List<String> now = backend().residue(name);
            if (!now.equals(last)) {
                last = now;
                since = System.nanoTime();
            }
        }
        return last;
    }

    private static void awaitAll(List<Future<?>> done)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
    }
}
