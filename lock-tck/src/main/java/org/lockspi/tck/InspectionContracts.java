package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §22 Inspection: {@code LockService.inspect(name)} and {@code list(prefix)} show the server's state of a lock
 * (holders with their fencing tokens and since when, waiters) to any client, and the names of held locks.
 */
public interface InspectionContracts extends TckContext {

    /** How far the server's clock may be from this JVM's when a holder's time is checked. */
    java.time.Duration CLOCK = BOUND;

    /**
     * {@code inspect(name)} of a lock no client used equals {@code LockInfo.empty(name)}: kind {@code NONE}, no holder,
     * no waiter, the name as given.
     */
    @Test
    @Diagnosis("LockBackend.inspect must return LockInfo.empty(name) when the server has no state for the key: a "
            + "missing node or nil reply is not an error, and a view built from an absent key must not report kind "
            + "MUTEX.")
    @Covers(kinds = {})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "an "
            + "unused name has no kind on the server")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§22.1 a lock with no state on the server shows as an empty view: kind NONE, no holder, no waiter")
    default void freeLockShowsNothing() {
        requireFeature(LockFeature.INSPECTION);
        String name = uniqueName("inspect-free");
        LockInfo info = openClient().inspect(name);
        assertEquals(LockInfo.empty(name), info, "view of a lock nobody used");
        assertFalse(info.isHeld());
    }

    /**
     * For the mutex and the non-reentrant mutex (each declared), a held lock is inspected by its holder's client and by
     * another: one holder and no waiter; kind {@code MUTEX} and mode {@code EXCLUSIVE} for the mutex, {@code MUTEX} or
     * {@code SEMAPHORE} for the non-reentrant mutex; the lease's token (FENCING_TOKENS) or none; a time, if shown,
     * within 2 s of the acquisition; {@code own} true for the holder's client only. After the release the view is
     * empty.
     */
    @Test
    @Diagnosis("Look at LockBackend.inspect: own must match this backend's live leases (node paths, owner tokens), "
            + "the token must be BackendLease.fencingToken()'s (the czxid, not a sequence), the time the server's "
            + "grant time in epoch milliseconds.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX})
    @CoveredBy(value = "§22.4", kinds = {READ, WRITE})
    @CoveredBy(value = "§22.5", kinds = SEMAPHORE)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§22.2 a held mutex shows one holder with the lease's token and time, own only to its client")
    default void heldMutexShowsItsHolder() throws InterruptedException {
        requireFeature(LockFeature.INSPECTION);
        List<Kind> kinds = requireSomeKind(provider()).stream()
                .filter(k -> k == Kind.MUTEX || k == Kind.NON_REENTRANT_MUTEX).collect(Collectors.toList());
        LockService other = openClient();
        for (Kind kind : kinds) {
            LockService holder = openClient();
            String name = uniqueName("inspect-held-" + kind);
            Instant before = Instant.now();
            try (Lease lease = kind.of(holder, name).acquire(WAIT)) {
                Instant after = Instant.now();
                for (LockService asker : List.of(holder, other)) {
                    boolean own = asker == holder;
                    LockInfo info = asker.inspect(name);
                    String what = kind + " as seen by " + (own ? "its holder" : "another client") + ": " + info;
                    assertEquals(name, info.name(), what);
                    assertEquals(1, info.holders().size(), "one holder of " + what);
                    assertEquals(0, info.waiters(), "no waiter of " + what);
                    LockInfo.Holder h = info.holders().get(0);
                    if (kind == Kind.MUTEX) {
                        assertEquals(LockInfo.Kind.MUTEX, info.kind(), what);
                        assertEquals(LockInfo.Mode.EXCLUSIVE, h.mode(), what);
                    } else {
                        assertTrue(info.kind() == LockInfo.Kind.MUTEX || info.kind() == LockInfo.Kind.SEMAPHORE,
                                "a non-reentrant mutex shows as MUTEX or SEMAPHORE: " + what);
                    }
                    assertEquals(own, h.own(), "own flag of " + what);
                    checkHolder(h, lease, before, after, what);
                }
            }
            assertEquals(LockInfo.empty(name), other.inspect(name), kind + " after its release");
        }
    }

    /**
     * For the mutex and the non-reentrant mutex (each declared), a client holds the lock and three clients start
     * waiting one after another: {@code waiters()} shows 1, 2, then 3, each within 2 s, with the one holder and its
     * token. After every waiter has acquired and released, the view is empty. Then three threads of one client
     * wait: that client's view counts 3, another client's 1 (the client queues its threads locally and lets one ask
     * the server), and after they passed the view is empty.
     */
    @Test
    @Diagnosis("LockBackend.inspect must count the waiting acquisitions (ZooKeeper: the nodes that do not hold; "
            + "Redis: the waiter keys): look for a count that includes the holder, waiter marks set only after a "
            + "first poll, or marks that earlier waiters left. With threads of one client, the engine adds its local "
            + "queue to its own view; another client seeing more than one waiter means a provider sends a client's "
            + "threads to the server itself, around the engine's queue.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX}, shapes = SEVERAL_WAITERS)
    @CoveredBy(value = "§22.4", kinds = {READ, WRITE}, shapes = ONE_WAITER)
    @CoveredBy(value = "§22.5", kinds = SEMAPHORE)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = MIXED_KINDS, reason = "the view counts waiters, whatever their kind: §22.4 shows readers "
            + "holding and a writer waiting")
    @DisplayName("§22.3 acquisitions waiting for a held mutex or non-reentrant mutex are counted; after they pass the "
            + "view is empty")
    default void waitersAreCounted() throws InterruptedException {
        requireFeature(LockFeature.INSPECTION);
        List<Kind> kinds = requireSomeKind(provider()).stream()
                .filter(k -> k == Kind.MUTEX || k == Kind.NON_REENTRANT_MUTEX).collect(Collectors.toList());
        if (kinds.isEmpty()) {
            requireFeature(LockFeature.REENTRANT_MUTEX); // skips, naming the first of the two
        }
        LockService observer = openClient();
        int n = 3;
        for (Kind kind : kinds) {
            String name = uniqueName("inspect-waiters-" + kind);
            List<Async<Long>> waiters = new ArrayList<>();
            try (Lease held = kind.of(openClient(), name).acquire(WAIT)) {
                for (int i = 0; i < n; i++) {
                    LockService client = openClient();
                    waiters.add(Async.startWaiter("inspect-waiter-" + i, backend(), name, () -> {
                        try (Lease lease = kind.of(client, name).acquire(WAIT)) {
                            return 1L;
                        }
                    }));
                    int expected = i + 1;
                    Poll.until(kind + ": waiters shown while " + expected + " wait", expected,
                            () -> observer.inspect(name).waiters(), BOUND);
                }
                LockInfo info = observer.inspect(name);
                assertEquals(1, info.holders().size(), kind + ": the holder, with " + n + " waiting: " + info);
                if (provider().features().contains(LockFeature.FENCING_TOKENS)) {
                    assertEquals(held.fencingToken(), info.holders().get(0).fencingToken().getAsLong(),
                            kind + ": token: " + info);
                }
            }
            for (Async<Long> waiter : waiters) {
                waiter.get(WAIT.plus(BOUND));
            }
            assertEquals(LockInfo.empty(name), observer.inspect(name), kind + ": after every waiter passed");

            // threads of one client: it queues them locally and lets one ask the server; it counts them all
            LockService client = openClient();
            List<Async<Long>> threads = new ArrayList<>();
            try (Lease held = kind.of(openClient(), name).acquire(WAIT)) {
                for (int i = 0; i < n; i++) {
                    threads.add(Async.startWaiter("inspect-thread-" + i, backend(), name, () -> {
                        try (Lease lease = kind.of(client, name).acquire(WAIT)) {
                            return 1L;
                        }
                    }));
                }
                Poll.until(kind + ": the waiting client's own view counts its " + n + " waiting threads", n,
                        () -> client.inspect(name).waiters(), BOUND);
                assertEquals(1, observer.inspect(name).waiters(), kind + ": another client sees one waiter of a "
                        + "client whose " + n + " threads wait (one asks the server at a time): "
                        + observer.inspect(name));
            }
            for (Async<Long> thread : threads) {
                thread.get(WAIT.plus(BOUND));
            }
            assertEquals(LockInfo.empty(name), observer.inspect(name), kind + ": after every thread passed");
        }
    }

    /**
     * Two clients hold the read half: kind {@code READ_WRITE}, two {@code READ} holders with their tokens and times,
     * one {@code own} to the first client. A third client's writer waits: 1 waiter, the two readers hold. Both readers
     * release: the writer alone, mode {@code WRITE}, not {@code own} to an observer, no waiter; after its release the
     * view is empty.
     */
    @Test
    @Diagnosis("LockBackend.inspect must apply the read-write rule: readers ahead of the first writer hold, the rest "
            + "wait. Look for a view that shows every node as a holder, the queued writer as a holder, or forgets the "
            + "reader set kept beside the lock key.")
    @Covers(kinds = {READ, WRITE}, shapes = ONE_WAITER)
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, SEMAPHORE}, reason = Why.READ_WRITE_ONLY)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = SEVERAL_WAITERS, reason = "§22.3 counts several waiters")
    @Inapplicable(shapes = MIXED_KINDS, reason = "the view counts waiters, whatever their kind")
    @DisplayName("§22.4 a read-write lock shows its readers, a waiting writer, then the writer alone")
    default void readWriteShowsReadersAndWriter() throws InterruptedException {
        requireFeature(LockFeature.INSPECTION);
        requireFeature(LockFeature.READ_WRITE);
        String name = uniqueName("inspect-rw");
        LockService a = openClient();
        LockService b = openClient();
        LockService observer = openClient();
        Instant before = Instant.now();
        Lease readA = a.readWriteLock(name).readLock().acquire(WAIT);
        Lease readB = b.readWriteLock(name).readLock().acquire(WAIT);
        Instant after = Instant.now();
        LockInfo info = a.inspect(name);
        assertEquals(LockInfo.Kind.READ_WRITE, info.kind(), "two readers: " + info);
        assertEquals(2, info.holders().size(), "two readers: " + info);
        assertEquals(1, info.holders().stream().filter(LockInfo.Holder::own).count(), "one own reader: " + info);
        for (LockInfo.Holder h : info.holders()) {
            assertEquals(LockInfo.Mode.READ, h.mode(), "two readers: " + info);
            checkHolder(h, h.own() ? readA : readB, before, after, "reader in " + info);
        }
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        LockService writer = openClient();
        Async<Boolean> writing = Async.startWaiter("inspect-writer", backend(), name, () -> {
            try (Lease lease = writer.readWriteLock(name).writeLock().acquire(WAIT)) {
                held.countDown();
                return done.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        });
        Poll.until("a waiting writer shown", 1, () -> observer.inspect(name).waiters(), BOUND);
        assertEquals(2, observer.inspect(name).holders().size(), "the readers hold while the writer waits");
        readA.release();
        readB.release();
        try {
            assertTrue(held.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the writer never acquired");
            LockInfo writing1 = observer.inspect(name);
            assertEquals(LockInfo.Kind.READ_WRITE, writing1.kind(), "the writer alone: " + writing1);
            assertEquals(1, writing1.holders().size(), "the writer alone: " + writing1);
            assertEquals(LockInfo.Mode.WRITE, writing1.holders().get(0).mode(), "the writer alone: " + writing1);
            assertFalse(writing1.holders().get(0).own(), "the observer does not own the write: " + writing1);
            assertEquals(0, writing1.waiters(), "nobody waits: " + writing1);
        } finally {
            done.countDown();
            assertTrue(writing.get(WAIT), "the writer was not let go");
        }
        assertEquals(LockInfo.empty(name), observer.inspect(name), "after the write was released");
    }

    /**
     * Two clients hold both permits of a semaphore of 2: kind {@code SEMAPHORE}, {@code permitsInUse()} 2,
     * {@code PERMIT} holders with the leases' tokens, none {@code own} to an observer, no waiter. A third client waits:
     * 1 waiter, still 2 in use. One permit is released: the waiter acquires, 2 in use, one {@code own} to the waiter's
     * client; after every release the view is empty.
     */
    @Test
    @Diagnosis("For a semaphore LockBackend.inspect counts lease entries as holders and queued entries as waiters "
            + "(ZooKeeper: leases/ and locks/ children; Redis: live members of the permit set): an internal lock node "
            + "counted as a permit, or expired members, give wrong numbers.")
    @Covers(kinds = SEMAPHORE, shapes = ONE_WAITER)
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE}, reason = Why.PERMITS_ONLY)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = SEVERAL_WAITERS, reason = "§22.3 counts several waiters")
    @Inapplicable(shapes = MIXED_KINDS, reason = "a semaphore's permits are of one kind")
    @DisplayName("§22.5 a semaphore shows its permits in use, each with its token, and a waiter for a permit")
    default void semaphoreShowsPermitsInUse() throws InterruptedException {
        requireFeature(LockFeature.INSPECTION);
        requireFeature(LockFeature.SEMAPHORE);
        String name = uniqueName("inspect-sem");
        int permits = 2;
        LockService observer = openClient();
        List<Lease> leases = new ArrayList<>();
        Instant before = Instant.now();
        for (int i = 0; i < permits; i++) {
            leases.add(openClient().semaphore(name, permits).acquire(WAIT));
        }
        Instant after = Instant.now();
        LockInfo info = observer.inspect(name);
        assertEquals(LockInfo.Kind.SEMAPHORE, info.kind(), "two permits held: " + info);
        assertEquals(permits, info.permitsInUse(), "two permits held: " + info);
        assertEquals(0, info.waiters(), "nobody waits: " + info);
        if (provider().features().contains(LockFeature.FENCING_TOKENS)) {
            Set<Long> tokens = leases.stream().map(Lease::fencingToken).collect(Collectors.toSet());
            assertEquals(tokens, info.holders().stream().map(h -> h.fencingToken().getAsLong())
                    .collect(Collectors.toSet()), "the permits' tokens: " + info);
        }
        for (LockInfo.Holder h : info.holders()) {
            assertEquals(LockInfo.Mode.PERMIT, h.mode(), info.toString());
            assertFalse(h.own(), "the observer holds no permit: " + info);
            h.since().ifPresent(t -> checkSince(t, before, after, "permit in " + info));
        }
        LockService waiting = openClient();
        Async<Lease> waiter = Async.startWaiter("inspect-sem-waiter", backend(), name,
                () -> waiting.semaphore(name, permits).acquire(WAIT));
        Poll.until("a waiter for a permit shown", 1, () -> observer.inspect(name).waiters(), BOUND);
        assertEquals(permits, observer.inspect(name).permitsInUse(), "the waiter holds no permit yet");
        leases.remove(0).release();
        Lease third = waiter.get(WAIT);
        leases.add(third);
        LockInfo now = waiting.inspect(name);
        assertEquals(permits, now.permitsInUse(), "after the hand-over: " + now);
        assertEquals(1, now.holders().stream().filter(LockInfo.Holder::own).count(), "the waiter's own: " + now);
        leases.forEach(Lease::release);
        assertEquals(LockInfo.empty(name), observer.inspect(name), "after every permit was released");
    }

    /**
     * For every declared kind, a held lock's view {@code isHeld()}, and the read half's holder has mode {@code READ};
     * after each release the view is empty.
     */
    @Test
    @Diagnosis("LockBackend.inspect must recognise each kind's layout (a semaphore's children or permit set, the "
            + "reader set); a view not empty after release means BackendLease.release left state (§8.1), or inspect "
            + "takes an empty parent or member set for a holder.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§22.6 after every kind is released its view is empty")
    default void releasedLocksShowNothing() throws InterruptedException {
        requireFeature(LockFeature.INSPECTION);
        LockService client = openClient();
        for (Kind kind : requireSomeKind(provider())) {
            String name = uniqueName("inspect-released-" + kind);
            try (Lease lease = kind.of(client, name).acquire(WAIT)) {
                assertTrue(client.inspect(name).isHeld(), kind + " held: " + client.inspect(name));
            }
            assertEquals(LockInfo.empty(name), client.inspect(name), kind + " after its release");
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            String name = uniqueName("inspect-released-read");
            try (Lease lease = client.readWriteLock(name).readLock().acquire(WAIT)) {
                assertEquals(LockInfo.Mode.READ, client.inspect(name).holders().get(0).mode(), "a reader");
            }
            assertEquals(LockInfo.empty(name), client.inspect(name), "the read half after its release");
        }
    }

    /**
     * One client holds {@code <base>/a}, {@code <base>/b/c}, {@code <base>/user:ann@example.com} (its key starts with
     * {@code ~}), {@code <base>-x} and another name. {@code list("<base>/")} is exactly the first three, sorted;
     * {@code list("<base>")} adds {@code <base>-x}; {@code list("")} contains all five; {@code list("<base>/user:")} is
     * the third alone; {@code list("<base>/zz")} and {@code list("<base>//")} are empty. After the releases
     * {@code list("<base>")} is empty.
     */
    @Test
    @Diagnosis("LockBackend.list may return more names than match, never fewer: look for a walk that stops one level "
            + "down (misses b/c), a scan matching the raw prefix against '~' keys (misses user:), or names not mapped "
            + "back; locks with only empty parents left must not be listed.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "list() names "
            + "locks whatever their kind: the first kind declared holds them")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§22.7 list(prefix) names the held locks that start with the prefix, and no others")
    default void listNamesHeldLocks() throws InterruptedException {
        requireFeature(LockFeature.INSPECTION);
        Kind kind = requireSomeKind(provider()).get(0);
        String base = uniqueName("inspect-list");
        // a name outside the readable form is found by its name, though its key starts with '~'
        List<String> inside = List.of(base + "/a", base + "/b/c", base + "/user:ann@example.com");
        String sibling = base + "-x";
        String outside = uniqueName("inspect-list-other");
        LockService holder = openClient();
        LockService observer = openClient();
        List<Lease> leases = new ArrayList<>();
        for (String name : List.of(inside.get(0), inside.get(1), inside.get(2), sibling, outside)) {
            leases.add(kind.of(holder, name).acquire(WAIT));
        }
        try {
            assertEquals(inside, observer.list(base + "/"), "list('" + base + "/')");
            List<String> withSibling = new ArrayList<>(inside);
            withSibling.add(sibling);
            withSibling.sort(null);
            assertEquals(withSibling, observer.list(base), "list('" + base + "')");
            List<String> all = observer.list("");
            assertTrue(all.containsAll(withSibling) && all.contains(outside), "list('') lacks a held lock: " + all);
            assertEquals(List.of(), observer.list(base + "/zz"), "list of a prefix nothing starts with");
            assertEquals(List.of(inside.get(2)), observer.list(base + "/user:"), "list of a prefix outside the "
                    + "readable form");
            assertEquals(List.of(), observer.list(base + "//"), "list of a prefix no held name starts with");
        } finally {
            for (Lease lease : leases) {
                lease.release();
            }
        }
        assertEquals(List.of(), observer.list(base), "list('" + base + "') after every release");
    }

    /**
     * {@code inspect(null)} and {@code list(null)} throw {@code NullPointerException}; {@code inspect} of the empty
     * name, of a name with an unpaired surrogate and of a name of 4097 bytes throws {@code IllegalArgumentException};
     * all within 2 s.
     */
    @Test
    @Diagnosis("These checks are the engine's, made before LockBackend.inspect and list are called; a failure means "
            + "the lock-api on the class path is not the kit's, e.g. an older copy shaded into the provider's jar.")
    @Covers(kinds = {})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "the "
            + "view of a name no lock can have: nothing is taken")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§22.8 inspect and list refuse bad arguments at once: null, and names no lock can have")
    default void badNamesRefused() {
        requireFeature(LockFeature.INSPECTION);
        LockService client = openClient();
        throwsWithin(NullPointerException.class, BOUND, "inspect(null)", () -> client.inspect(null));
        throwsWithin(NullPointerException.class, BOUND, "list(null)", () -> client.list(null));
        for (String name : List.of("", "a\uD800", "s".repeat(4097))) {
            throwsWithin(IllegalArgumentException.class, BOUND, "inspect of a name no lock can have ("
                    + name.length() + " chars)", () -> client.inspect(name));
        }
    }

    private void checkHolder(LockInfo.Holder h, Lease lease, Instant before, Instant after, String what) {
        if (provider().features().contains(LockFeature.FENCING_TOKENS)) {
            assertTrue(h.fencingToken().isPresent(), "no fencing token: " + what);
            assertEquals(lease.fencingToken(), h.fencingToken().getAsLong(), "fencing token of " + what);
        } else {
            assertFalse(h.fencingToken().isPresent(), "a token without FENCING_TOKENS: " + what);
        }
        h.since().ifPresent(t -> checkSince(t, before, after, what));
    }

    private static void checkSince(Instant since, Instant before, Instant after, String what) {
        assertFalse(since.isBefore(before.minus(CLOCK)), "since " + since + " is before the acquisition began at "
                + before + " (clock bound " + CLOCK + "): " + what);
        assertFalse(since.isAfter(after.plus(CLOCK)), "since " + since + " is after the acquisition returned at "
                + after + " (clock bound " + CLOCK + "): " + what);
        assertFalse(since.isAfter(Instant.now().plus(CLOCK)), "since " + since + " is in the future: " + what);
    }
}
