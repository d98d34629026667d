package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §14.2 Herd-free waiting: with N waiters queued the server holds exactly N watches on the lock, one on each
 * entry but the last (each waiter watches the one before it, not the holder, not the parent), and a release
 * wakes one waiter only: it acquires, the others keep waiting, and one watch is gone. The hand-over is followed
 * down the whole queue.
 */
@Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
@Inapplicable(shapes = ONE_WAITER, reason = "a herd needs several waiters")
public interface HerdFreeContracts extends TckContext {

    /**
     * (HERD_FREE, INSPECT, WAKEUP_REGISTRATIONS) A client holds a mutex and three clients wait: the server holds
     * exactly 3 watches on the lock's entries, one on each entry but the last. Each release hands on to exactly the
     * next waiter: it acquires, the others still wait, the count drops by one (still one on each entry but the last),
     * and the server shows the holder and the remaining waiters; at the end nothing is left.
     */
    @Test
    @Timeout(90)
    @Diagnosis("Each waiter must watch only its predecessor (ZooKeeper: getData on the node before it), not the "
            + "holder or the parent's children, and remove its watch when it stops waiting; a provider without such "
            + "watches must not declare HERD_FREE.")
    @Covers(kinds = MUTEX, shapes = SEVERAL_WAITERS)
    @CoveredBy(value = "§14.6", kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, shapes = MIXED_KINDS)
    @DisplayName("§14.2 mutex: N waiters hold N watches, and each release wakes exactly one of them")
    default void eachReleaseWakesOneWaiter() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.HERD_FREE);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.INSPECT);
        requireCapability(TckBackend.Capability.WAKEUP_REGISTRATIONS);
        int waiters = 3;
        String name = uniqueName("herd");
        Lease held = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        Poll.until("entries of '" + name + "'", 1, () -> backend().residue(name).size(), Duration.ofSeconds(5));
        // the queue as the server shows it: the holder's entry, then each waiter's in the order they enqueued
        List<String> queue = new ArrayList<>(backend().residue(name));

        List<CountDownLatch> acquired = new ArrayList<>();
        List<CountDownLatch> proceed = new ArrayList<>();
        List<Future<?>> done = new ArrayList<>();
        try (Workers pool = new Workers(waiters)) {
            try {
                for (int i = 0; i < waiters; i++) {
                    CountDownLatch got = new CountDownLatch(1);
                    CountDownLatch go = new CountDownLatch(1);
                    acquired.add(got);
                    proceed.add(go);
                    DistributedLock lock = openClient().mutex(name);
                    done.add(pool.submit(() -> {
                        try (Lease lease = lock.acquire(Duration.ofSeconds(60))) {
                            got.countDown();
                            assertTrue(go.await(60, TimeUnit.SECONDS), "told to release");
                        }
                        return null;
                    }));
                    Poll.until("entries of '" + name + "' with waiter " + i + " enqueued", i + 2,
                            () -> backend().residue(name).size(), Duration.ofSeconds(10));
                    List<String> entries = new ArrayList<>(backend().residue(name));
                    entries.removeAll(queue);
                    assertEquals(1, entries.size(), "one new entry for waiter " + i + ": " + entries);
                    queue.add(entries.get(0));
                }
                Poll.until("watches on '" + name + "' with " + waiters + " waiters", waiters,
                        () -> backend().wakeupRegistrations(name), Duration.ofSeconds(10));
                assertEachWatchesItsPredecessor(name, queue);

                held.release();
                for (int i = 0; i < waiters; i++) {
                    assertTrue(acquired.get(i).await(10, TimeUnit.SECONDS), "waiter " + i + " acquired after the"
                            + " release before it");
                    int left = waiters - 1 - i;
                    Poll.until("watches on '" + name + "' with " + left + " waiters left", left,
                            () -> backend().wakeupRegistrations(name), Duration.ofSeconds(10));
                    for (int j = i + 1; j < waiters; j++) {
                        assertEquals(1, acquired.get(j).getCount(), "waiter " + j + " still waits while waiter "
                                + i + " holds");
                    }
                    assertEquals(left + 1, backend().residue(name).size(), "entries: the holder and " + left
                            + " waiters");
                    queue.remove(0);
                    assertEachWatchesItsPredecessor(name, queue);
                    proceed.get(i).countDown();
                    done.get(i).get(10, TimeUnit.SECONDS);
                }
                Poll.until("entries of '" + name + "' at the end", 0, () -> backend().residue(name).size(),
                        Duration.ofSeconds(5));
            } finally {
                proceed.forEach(CountDownLatch::countDown); // let holders go before the workers are ended
            }
        }
    }

    /**
     * (HERD_FREE, INSPECT, WAKEUP_REGISTRATIONS) Every other waiting path, side by side: for the non-reentrant mutex,
     * the write half and a semaphore of one permit, a client holds the lock and three clients wait one after another;
     * for the read half, a client holds the write half and two readers and then a writer wait. Each waiter holds a
     * wake-up registration on the server (at least as many as waiters: a holder's last look at the permits may leave
     * one, fired once by the next change), and no entry or part of the lock other than a holder's entry carries more
     * than one, so no change of one wakes two waiters (where the entries are paths below the lock, each path's own
     * registrations are counted). Each release hands on to the waiters it lets in and no other: the others still
     * wait; down the queue until nothing is left.
     */
    @Test
    @Timeout(90)
    @Diagnosis("Every way a waiter waits must register on the one entry ahead of it, or for a semaphore's first "
            + "waiter on the set of permits: a semaphore's internal-lock waiters on their predecessor (not the locks' "
            + "children), a writer on its predecessor, a reader on the first writer ahead. A registration on the "
            + "lock's children wakes every waiter at each change.")
    @Covers(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, shapes = {SEVERAL_WAITERS, MIXED_KINDS})
    @CoveredBy(value = "§14.2", kinds = MUTEX)
    @DisplayName("§14.6 non-reentrant mutex, read and write halves, semaphore: each waiter holds a wake-up "
            + "registration, none shared by two, and each release wakes only the waiters it lets in")
    default void everyWaitingPathWakesOneWaiter() throws InterruptedException {
        requireFeature(LockFeature.HERD_FREE);
        List<Kind> kinds = Kind.supported(provider().features()).stream().filter(k -> k != Kind.MUTEX)
                .collect(Collectors.toList());
        boolean readers = provider().features().contains(LockFeature.READ_WRITE);
        if (kinds.isEmpty()) {
            requireFeature(LockFeature.NON_REENTRANT_MUTEX); // skips, naming the first of them
        }
        requireCapability(TckBackend.Capability.INSPECT);
        requireCapability(TckBackend.Capability.WAKEUP_REGISTRATIONS);
        List<Async<Void>> paths = new ArrayList<>();
        for (Kind kind : kinds) {
            paths.add(Async.start("herd-" + kind, () -> {
                List<Acquirable> queue = new ArrayList<>();
                String name = uniqueName("herd-" + kind);
                for (int i = 0; i < 3; i++) {
                    queue.add(kind.of(openClient(), name));
                }
                handOff(kind.toString(), name, kind.of(openClient(), name), queue, List.of(1, 1, 1));
                return null;
            }));
        }
        if (readers) {
            paths.add(Async.start("herd-read", () -> {
                String name = uniqueName("herd-read");
                List<Acquirable> queue = List.of(openClient().readWriteLock(name).readLock(),
                        openClient().readWriteLock(name).readLock(), openClient().readWriteLock(name).writeLock());
                handOff("read", name, openClient().readWriteLock(name).writeLock(), queue, List.of(2, 1));
                return null;
            }));
        }
        for (Async<Void> path : paths) {
            path.get(Duration.ofSeconds(80));
        }
    }

    /**
     * A holder and a queue of waiters, each started once the server shows the one before; then the holder releases,
     * and each group of waiters let in together (sizes {@code grants}) releases in turn.
     */
    private void handOff(String kind, String name, Acquirable holder, List<Acquirable> queue, List<Integer> grants)
            throws Exception {
        Lease held = holder.acquire(Duration.ofSeconds(10));
        List<String> holders = Poll.settled(kind + ": the holder's entries", () -> backend().residue(name),
                Duration.ofMillis(300), Duration.ofSeconds(10));
        List<CountDownLatch> acquired = new ArrayList<>();
        List<CountDownLatch> proceed = new ArrayList<>();
        try (Workers pool = new Workers(queue.size())) {
            try {
                for (int i = 0; i < queue.size(); i++) {
                    CountDownLatch got = new CountDownLatch(1);
                    CountDownLatch go = new CountDownLatch(1);
                    acquired.add(got);
                    proceed.add(go);
                    Acquirable lock = queue.get(i);
                    List<String> before = backend().residue(name);
                    pool.submit(() -> {
                        try (Lease lease = lock.acquire(Duration.ofSeconds(60))) {
                            got.countDown();
                            assertTrue(go.await(60, TimeUnit.SECONDS), "told to release");
                        }
                        return null;
                    });
                    Poll.until(kind + ": waiter " + i + "'s entry", true,
                            () -> !before.containsAll(backend().residue(name)), Duration.ofSeconds(10));
                    Poll.settled(kind + ": the entries with waiter " + i, () -> backend().residue(name),
                            Duration.ofMillis(300), Duration.ofSeconds(10));
                }
                int waiting = queue.size();
                assertOneWakeUpPerChange(kind, name, waiting, holders);
                held.release();
                int first = 0;
                for (int group : grants) {
                    for (int i = first; i < first + group; i++) {
                        assertTrue(acquired.get(i).await(10, TimeUnit.SECONDS), kind + ": waiter " + i
                                + " acquired after the release before it");
                    }
                    waiting -= group;
                    for (int j = first + group; j < queue.size(); j++) {
                        assertEquals(1, acquired.get(j).getCount(), kind + ": waiter " + j + " still waits while "
                                + "waiters " + first + " to " + (first + group - 1) + " hold");
                    }
                    List<String> holding = new ArrayList<>(backend().residue(name));
                    assertOneWakeUpPerChange(kind, name, waiting, holding);
                    for (int i = first; i < first + group; i++) {
                        proceed.get(i).countDown();
                    }
                    first += group;
                }
                Poll.until(kind + ": entries of '" + name + "' at the end", 0, () -> backend().residue(name).size(),
                        Duration.ofSeconds(5));
            } finally {
                proceed.forEach(CountDownLatch::countDown); // let holders go before the workers are ended
            }
        }
    }

    /**
     * The server holds at least {@code waiting} registrations in all, and (where the entries are paths below the lock)
     * no path but a holder's entry holds more than one of its own: counted on each entry and on each part of the lock
     * above the entries, less what the parts below hold.
     *
     * @param holders the entries that may carry several (the waiters a release of them lets in together); any
     *                entries present when the holders were read
     */
    private void assertOneWakeUpPerChange(String kind, String name, int waiting, List<String> holders) {
        // at least one a waiter (a holder's last look at the permits may leave one more, which the next change of
        // them fires once: no herd)
        Poll.until(kind + ": wake-up registrations on '" + name + "' with " + waiting + " waiting (at least one "
                + "each)", true, () -> backend().wakeupRegistrations(name) >= waiting, Duration.ofSeconds(10));
        Set<String> paths = new TreeSet<>();
        for (String entry : backend().residue(name)) {
            int at = entry.indexOf("/" + name + "/");
            if (at < 0) {
                return; // not a path below the lock: the total is all the backend can tell
            }
            for (String path = entry.substring(at + 1); path.length() > name.length();
                 path = path.substring(0, path.lastIndexOf('/'))) {
                paths.add(path);
            }
        }
        paths.add(name);
        Map<String, Integer> own = new TreeMap<>();
        for (String path : paths) {
            int below = paths.stream().filter(p -> p.startsWith(path + "/") && p.indexOf('/', path.length() + 1) < 0)
                    .mapToInt(p -> backend().wakeupRegistrations(p)).sum();
            own.put(path, backend().wakeupRegistrations(path) - below);
        }
        List<String> herds = own.entrySet().stream().filter(e -> e.getValue() > 1)
                .filter(e -> holders.stream().noneMatch(h -> h.endsWith("/" + e.getKey())))
                .map(e -> e.getKey() + " holds " + e.getValue()).collect(Collectors.toList());
        assertEquals(List.of(), herds, kind + ": registrations on one entry or part of the lock, which one change "
                + "wakes at once (registrations by path: " + own + ")");
    }

    /**
     * Each entry of the queue but the last has exactly one watch (its successor's), the last none, counted with
     * {@link TckBackend#wakeupRegistrations(String)} on the lock's name extended by the entry's path below the lock. Done
     * where the entries are paths below the lock's name (ZooKeeper), as a refinement of the total count.
     */
    private void assertEachWatchesItsPredecessor(String name, List<String> queue) {
        for (int k = 0; k < queue.size(); k++) {
            String entry = queue.get(k);
            int at = entry.indexOf("/" + name + "/");
            if (at < 0) {
                return; // not a path below the lock: the total count is all the backend can tell
            }
            String node = entry.substring(at + 1);
            int expected = k < queue.size() - 1 ? 1 : 0;
            String role = k == 0 ? "the holder" : "waiter " + k + " in line";
            Poll.until("watches on " + role + "'s entry " + entry + " (queue " + queue + ")", expected,
                    () -> backend().wakeupRegistrations(node), Duration.ofSeconds(10));
        }
    }
}
