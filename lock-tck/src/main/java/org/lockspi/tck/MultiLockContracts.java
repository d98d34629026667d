package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.OVERSHOOT;
import static org.lockspi.tck.internal.Checks.TIMED;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertBetween;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockPart;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.MultiLease;
import org.lockspi.MultiLock;
import org.lockspi.tck.internal.Async;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §25 Multi-locks: {@link LockService#multiLock} takes several locks of one service all or nothing, in one global
 * order, for one {@link MultiLease}. The engine does it over the provider's acquisitions and releases, so every rule
 * here holds on a provider whose single locks keep their own rules (§3, §5, §7, §8, §12).
 */
@Inapplicable(kinds = ASYNC, reason = "a multi-lock is acquired synchronously: MultiLock has no asynchronous form")
public interface MultiLockContracts extends TckContext {

    /**
     * Why the rules that judge how the engine takes and gives back the parts test them through one kind: it takes
     * the parts in one order and gives them back over the provider's single acquisitions, one piece of code for
     * every kind, and §25.2 holds a part of every kind.
     */
    String MULTI_ENGINE = "the engine takes the parts in one order and gives them back over the provider's single "
            + "acquisitions, one piece of code for every kind: tested through the first kind declared; §25.2 holds a "
            + "part of every kind";

    /** How many rounds each of the two clients of §25.3 takes its set. */
    int DEADLOCK_ROUNDS = 25;

    /** @return the part of the kit's kind {@code kind} named {@code name} */
    private static LockPart part(Kind kind, String name) {
        switch (kind) {
            case MUTEX:
                return LockPart.mutex(name);
            case NON_REENTRANT_MUTEX:
                return LockPart.nonReentrantMutex(name);
            case WRITE:
                return LockPart.write(name);
            default:
                return LockPart.semaphore(name, 1);
        }
    }

    private boolean inspects() {
        return backend().capabilities().contains(TckBackend.Capability.INSPECT);
    }

    /** Another client must get the lock at once; it releases it again. */
    private static void assertFree(Kind kind, LockService other, String name, String when) throws InterruptedException {
        Optional<Lease> lease = kind.of(other, name).tryAcquire(BOUND);
        assertTrue(lease.isPresent(), kind + " '" + name + "' was not free at once " + when);
        lease.get().release();
    }

    /**
     * Bad input is refused at once, before anything is acquired: no part ({@code IllegalArgumentException}), a null
     * collection or part ({@code NullPointerException}), a part twice, one name as two kinds (the write and read half,
     * a semaphore with two permit counts), a name the service uses as another kind ({@code IllegalArgumentException});
     * a kind the provider does not declare ({@code UnsupportedOperationException}); on a closed service
     * {@code IllegalStateException}. (INSPECT) Nothing of any of the names is on the server.
     */
    @Test
    @Diagnosis("The checks are the engine's (LockService.multiLock resolves every part through the service's own "
            + "factories before acquiring); a failure means the lock-api on the class path is not the kit's.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE}, reason = "checked by the "
            + "engine before a provider is asked, in one piece of code for every kind; the kit checks it through the "
            + "kinds tested here")
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§25.1 a multi-lock of no part, a null part, a part twice or a name as two kinds is refused at once "
            + "and nothing is acquired")
    default void badMultiLocksAreRefusedAtOnce() {
        Kind kind = requireSomeKind(provider()).get(0);
        LockService client = openClient();
        String a = uniqueName("multi-bad-a");
        String b = uniqueName("multi-bad-b");
        throwsWithin(IllegalArgumentException.class, BOUND, "multiLock()", client::multiLock);
        throwsWithin(NullPointerException.class, BOUND, "multiLock(null)",
                () -> client.multiLock((List<LockPart>) null));
        throwsWithin(NullPointerException.class, BOUND, "multiLock(part, null)",
                () -> client.multiLock(part(kind, a), null));
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "a part twice",
                () -> client.multiLock(part(kind, a), part(kind, b), part(kind, a))), a);
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "one name as two kinds",
                () -> client.multiLock(LockPart.mutex(a), LockPart.nonReentrantMutex(a))), a);
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "one semaphore with two permit counts",
                () -> client.multiLock(LockPart.semaphore(a, 1), LockPart.semaphore(a, 2))), a);
        for (LockFeature feature : List.of(LockFeature.REENTRANT_MUTEX, LockFeature.SEMAPHORE,
                LockFeature.READ_WRITE, LockFeature.NON_REENTRANT_MUTEX)) {
            if (!provider().features().contains(feature)) {
                LockPart absent = feature == LockFeature.REENTRANT_MUTEX ? LockPart.mutex(b)
                        : feature == LockFeature.SEMAPHORE ? LockPart.semaphore(b, 2)
                        : feature == LockFeature.READ_WRITE ? LockPart.read(b) : LockPart.nonReentrantMutex(b);
                throwsWithin(UnsupportedOperationException.class, BOUND, "a part of an undeclared kind: " + absent,
                        () -> client.multiLock(part(kind, a), absent));
            }
        }
        String used = uniqueName("multi-bad-used");
        kind.of(client, used);
        LockPart other = kind == Kind.MUTEX ? LockPart.semaphore(used, 3) : LockPart.mutex(used);
        if (provider().features().contains(kind == Kind.MUTEX ? LockFeature.SEMAPHORE : LockFeature.REENTRANT_MUTEX)) {
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "a name the service uses as another kind",
                    () -> client.multiLock(part(kind, a), other)), used);
        }
        MultiLock before = client.multiLock(part(kind, a), part(kind, b));
        client.close();
        throwsWithin(IllegalStateException.class, BOUND, "multiLock on a closed service",
                () -> client.multiLock(part(kind, a)));
        throwsWithin(IllegalStateException.class, BOUND, "acquire of a multi-lock of a closed service",
                () -> before.acquire(WAIT));
        if (inspects()) {
            for (String name : List.of(a, b, used)) {
                assertEquals(List.of(), backend().residue(name), "state of '" + name + "' on the server");
            }
        }
    }

    /**
     * One client takes a multi-lock of a part of every declared kind (the mutex, the non-reentrant mutex, the write
     * half, the read half, a semaphore of one permit, the write half of a thread-free read-write lock), given in an
     * order that is not the global one. Every part is held: another client's {@code tryAcquire()} of each is empty
     * (of the read half: of its write half; its read half is shared; of the thread-free write half: of its read
     * half); the multi-lease is {@code HELD}, named by the parts in order of name, its parts in that order;
     * {@code fencingToken()} throws {@code UnsupportedOperationException}, (FENCING_TOKENS) each part has its own
     * token; a part's own {@code release()} throws {@code UnsupportedOperationException} and the part stays held.
     * After the multi-lease's release each part is free at once for another client and (INSPECT) nothing is left.
     */
    @Test
    @Diagnosis("Each part is one acquisition of the provider's (§3, §6, §7 for the kind): a part that another client "
            + "gets while the multi-lease holds it, or that is not free after the release, points at that kind's "
            + "acquire or release in the backend (an owner token shared between a client's leases, a release that "
            + "deletes by name).")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE})
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§25.2 a multi-lock holds a part of every kind until its release, which frees them all; the "
            + "multi-lease has no token of its own")
    default void aMultiLockHoldsEveryPartUntilItsRelease() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        boolean readWrite = provider().features().contains(LockFeature.READ_WRITE);
        boolean tokens = provider().features().contains(LockFeature.FENCING_TOKENS);
        LockService client = openClient();
        LockService other = openClient();
        String base = uniqueName("multi-all");
        List<LockPart> parts = new ArrayList<>();
        for (int i = kinds.size() - 1; i >= 0; i--) { // the reverse of the names' order
            parts.add(part(kinds.get(i), base + "/" + (char) ('a' + i)));
        }
        if (readWrite) {
            parts.add(0, LockPart.read(base + "/r"));
            parts.add(0, LockPart.threadFreeWrite(base + "/t"));
        }
        MultiLease lease = client.multiLock(parts).acquire(WAIT);
        List<String> names = parts.stream().map(LockPart::name).sorted().toList();
        assertEquals(names, lease.parts().stream().map(Lease::lockName).toList(), "the parts, in order of name");
        assertEquals(String.join(" + ", names), lease.lockName());
        assertEquals(LeaseState.HELD, lease.state());
        lease.checkValid();
        for (int i = 0; i < kinds.size(); i++) {
            String name = base + "/" + (char) ('a' + i);
            assertTrue(kinds.get(i).of(other, name).tryAcquire().isEmpty(), "another client got " + kinds.get(i)
                    + " '" + name + "', a part of a held multi-lease");
            if (tokens) {
                assertTrue(lease.part(name).fencingToken() >= 0, "token of part '" + name + "'");
            }
        }
        if (readWrite) {
            assertTrue(other.readWriteLock(base + "/r").writeLock().tryAcquire().isEmpty(), "another client wrote "
                    + "while a multi-lease reads");
            other.readWriteLock(base + "/r").readLock().tryAcquire(BOUND).orElseThrow(
                    () -> new AssertionError("another reader was kept out by a multi-lease's read part")).release();
            assertTrue(other.threadFreeReadWriteLock(base + "/t").readLock().tryAcquire().isEmpty(), "another client "
                    + "read while a multi-lease holds a thread-free write part");
        }
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "the multi-lease's fencingToken()",
                lease::fencingToken), "part(name)");
        Lease first = lease.parts().get(0);
        throwsWithin(UnsupportedOperationException.class, BOUND, "release() of a part", first::release);
        assertEquals(LeaseState.HELD, first.state(), "a part released on its own");
        if (inspects()) {
            for (String name : names) {
                assertTrue(!backend().residue(name).isEmpty(), "no state of held part '" + name + "' on the server");
            }
        }
        lease.release();
        assertEquals(LeaseState.RELEASED, lease.state());
        for (int i = 0; i < kinds.size(); i++) {
            assertFree(kinds.get(i), other, base + "/" + (char) ('a' + i), "after the multi-lease's release");
        }
        if (readWrite) {
            other.readWriteLock(base + "/r").writeLock().tryAcquire(BOUND).orElseThrow(
                    () -> new AssertionError("the read part was not released")).release();
            other.threadFreeReadWriteLock(base + "/t").writeLock().tryAcquire(BOUND).orElseThrow(
                    () -> new AssertionError("the thread-free write part was not released")).release();
        }
        if (inspects()) {
            for (String name : names) {
                assertEquals(List.of(), backend().residue(name), "state of '" + name + "' left on the server");
            }
        }
    }

    /**
     * The order is global. A third client holds {@code b}; client A asks for {b, a} (given so) and waits: it has
     * taken {@code a} first (another client's {@code tryAcquire()} of {@code a} is empty); client B asks for {a, b}
     * and waits; the third client releases {@code b}: A, then B, get their sets within 10 s each (taking the parts
     * in the order given, A would hold {@code b} waiting for {@code a} while B holds {@code a}: a deadlock). Then the
     * two clients take {a, b} and {b, a} {@value #DEADLOCK_ROUNDS} rounds each, both starting each round together,
     * each acquisition with a timeout of 10 s: no acquisition times out, the two never hold their sets at once, and
     * every round completes. Prints the time taken.
     */
    @Test
    @Diagnosis("Ordering is the engine's, so a timeout means a part's acquisition waited for a lock nobody held: a "
            + "waiter not woken by a release (a missed watch or notification, §3.4), or a release that left state "
            + "behind (§8.1). An overlap means a part was granted while the other client held it (§3.1).")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE}, reason = MULTI_ENGINE)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§25.3 two clients taking {a,b} and {b,a} in a loop never deadlock and never hold together")
    default void opposingMultiLocksNeverDeadlock() throws InterruptedException {
        Kind kind = requireSomeKind(provider()).get(0);
        String a = uniqueName("multi-order-a");
        String b = uniqueName("multi-order-b");
        MultiLock ab = openClient().multiLock(part(kind, a), part(kind, b));
        MultiLock ba = openClient().multiLock(part(kind, b), part(kind, a));
        Lease third = kind.of(openClient(), b).acquire(WAIT);
        Async<Boolean> first = Async.startWaiter("multi-ba", backend(), b, () -> {
            acquireWithin(ba, "the first wait").release();
            return true;
        });
        assertTrue(kind.of(openClient(), a).tryAcquire().isEmpty(), "a multi-lock given {b, a} waits for b without "
                + "having taken a: its parts are taken in the order given, not in one global order");
        Async<Boolean> second = Async.startWaiter("multi-ab", backend(), a, () -> {
            acquireWithin(ab, "the first wait").release();
            return true;
        });
        third.release();
        assertEquals(Boolean.TRUE, first.get(WAIT.plus(BOUND)), "{b, a} after b was released");
        assertEquals(Boolean.TRUE, second.get(WAIT.plus(BOUND)), "{a, b} after {b, a} was released");

        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CyclicBarrier together = new CyclicBarrier(2);
        long start = System.nanoTime();
        List<Async<Integer>> clients = new ArrayList<>();
        for (MultiLock lock : List.of(ab, ba)) {
            clients.add(Async.start("multi-" + lock.name(), () -> {
                for (int i = 0; i < DEADLOCK_ROUNDS; i++) {
                    together.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    try (MultiLease lease = acquireWithin(lock, "round " + i)) {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        Thread.yield();
                        inside.decrementAndGet();
                    }
                }
                return DEADLOCK_ROUNDS;
            }));
        }
        int rounds = 0;
        for (Async<Integer> client : clients) {
            rounds += client.get(Duration.ofSeconds(55));
        }
        System.out.printf("[§25 figures] §25.3 provider '%s': 2 clients x %d rounds of {a,b} against {b,a} (%s) in "
                + "%d ms, %d overlaps%n", provider().name(), DEADLOCK_ROUNDS, kind,
                Duration.ofNanos(System.nanoTime() - start).toMillis(), overlaps.get());
        assertEquals(2 * DEADLOCK_ROUNDS, rounds);
        assertEquals(0, overlaps.get(), "the two clients held {a,b} at once");
    }

    /** Takes a multi-lock within 10 s; a timeout fails the rule as a deadlock. */
    private static MultiLease acquireWithin(MultiLock lock, String when) throws InterruptedException {
        try {
            return lock.acquire(WAIT);
        } catch (LockTimeoutException e) {
            throw new AssertionError(when + ": " + lock + " not acquired within " + WAIT + ": a deadlock, or a waiter "
                    + "never woken", e);
        }
    }

    /**
     * Another client holds {@code b}; a multi-lock of {@code c}, {@code b}, {@code a} (given in that order) is asked
     * for with a timeout of 100 ms. {@code acquire} throws {@code LockTimeoutException} (its {@code timeout()} the one
     * given, its message naming the parts) within 100 to 800 ms; {@code a}, taken before {@code b}, is free again at
     * once for another client and {@code c} was never taken: (INSPECT) nothing of {@code a} or {@code c} is on the
     * server and {@code b}'s state is the holder's alone. The same for {@code tryAcquire(100 ms)} (empty) and
     * {@code tryAcquire()} (empty at once). Once the holder releases, the multi-lock is acquired and released, and
     * (INSPECT) nothing is left.
     */
    @Test
    @Diagnosis("The engine releases the parts taken when a later one times out, through BackendLease.release: a part "
            + "still taken means that release left its node or key (§8.1); state of the waiting part left behind means "
            + "the backend's timed-out acquire does not clean up (§5.4).")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE}, reason = MULTI_ENGINE)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§25.4 a timeout part-way releases the parts already taken and leaves nothing behind")
    default void aTimeoutPartWayReleasesWhatWasTaken() throws InterruptedException {
        Kind kind = requireSomeKind(provider()).get(0);
        String base = uniqueName("multi-timeout");
        String a = base + "/a";
        String b = base + "/b";
        String c = base + "/c";
        LockService other = openClient();
        MultiLock lock = openClient().multiLock(part(kind, c), part(kind, b), part(kind, a));
        Lease held = kind.of(openClient(), b).acquire(WAIT);
        List<String> holderState = inspects() ? backend().residue(b) : List.of();
        long start = System.nanoTime();
        LockTimeoutException e = throwsWithin(LockTimeoutException.class, TIMED.plus(OVERSHOOT),
                "acquire(" + TIMED + ") of a multi-lock with a held part", () -> lock.acquire(TIMED));
        assertBetween(Duration.ofNanos(System.nanoTime() - start), TIMED, TIMED.plus(OVERSHOOT), "the multi-lock's "
                + "acquire(" + TIMED + ")");
        assertEquals(TIMED, e.timeout());
        assertNames(e, b);
        assertNothingTakenBut(b, holderState, a, c);
        assertFree(kind, other, a, "after the multi-lock timed out");

        start = System.nanoTime();
        assertTrue(lock.tryAcquire(TIMED).isEmpty(), "tryAcquire(" + TIMED + ") of a multi-lock with a held part");
        assertBetween(Duration.ofNanos(System.nanoTime() - start), TIMED, TIMED.plus(OVERSHOOT), "the multi-lock's "
                + "tryAcquire(" + TIMED + ")");
        assertNothingTakenBut(b, holderState, a, c);
        assertTrue(lock.tryAcquire().isEmpty(), "tryAcquire() of a multi-lock with a held part");
        assertNothingTakenBut(b, holderState, a, c);
        assertFree(kind, other, a, "after the multi-lock's tryAcquire() found b held");

        held.release();
        lock.acquire(WAIT).release();
        if (inspects()) {
            for (String name : List.of(a, b, c)) {
                assertEquals(List.of(), backend().residue(name), "state of '" + name + "' left on the server");
            }
        }
    }

    /** (INSPECT) Nothing of {@code free} on the server, and {@code held} shows its holder's state alone. */
    private void assertNothingTakenBut(String held, List<String> holderState, String... free) {
        if (inspects()) {
            for (String name : free) {
                assertEquals(List.of(), backend().residue(name), "state of '" + name + "' left on the server");
            }
            assertEquals(holderState, backend().residue(held), "the held part shows more than its holder");
        }
    }

    /**
     * Another client holds {@code b}; a thread of a client that holds nothing waits in {@code acquire()} of a
     * multi-lock of {@code a} and {@code b}, having taken {@code a}. Interrupted, it ends within 2 s with
     * {@code InterruptedException}, its interrupt flag cleared; {@code a} is free again at once for another client,
     * and (INSPECT) nothing of {@code a} is on the server and {@code b} shows its holder alone.
     */
    @Test
    @Diagnosis("The interrupted part's acquire must clean up and throw InterruptedException (§5.5); the part taken "
            + "before is released by the engine through BackendLease.release (§8.1).")
    @Covers(kinds = MUTEX, shapes = ONE_WAITER)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE}, reason = MULTI_ENGINE)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
    @DisplayName("§25.5 an interrupt part-way releases the parts already taken and leaves nothing behind")
    default void anInterruptPartWayReleasesWhatWasTaken() throws InterruptedException {
        Kind kind = requireSomeKind(provider()).get(0);
        String base = uniqueName("multi-interrupt");
        String a = base + "/a";
        String b = base + "/b";
        Lease held = kind.of(openClient(), b).acquire(WAIT);
        List<String> holderState = inspects() ? backend().residue(b) : List.of();
        MultiLock lock = openClient().multiLock(part(kind, a), part(kind, b));
        Async<Boolean> waiter = Async.startWaiter("multi-interrupted", backend(), b, () -> {
            try {
                lock.acquire().release();
                return null;
            } catch (InterruptedException e) {
                return Thread.currentThread().isInterrupted();
            }
        });
        waiter.thread().interrupt();
        Boolean flag = waiter.get(BOUND);
        assertEquals(Boolean.FALSE, flag, "the multi-lock's acquire() must end with InterruptedException and the flag "
                + "cleared");
        assertNothingTakenBut(b, holderState, a);
        assertFree(kind, openClient(), a, "after the interrupted multi-lock");
        held.release();
    }

    /**
     * (LOST_NOTIFICATION, FORCE_LOSS) A client holds a multi-lock of {@code a} and {@code b}, a listener on the
     * multi-lease; {@code forceLoss(b)}. Within {@code C} the multi-lease is {@code LOST} and the listener was told:
     * only {@code HELD->UNCERTAIN}, {@code UNCERTAIN->HELD}, {@code ->LOST}, exactly one change to {@code LOST},
     * last, each call naming the multi-lease; {@code b}'s part is {@code LOST}; {@code checkValid()} throws
     * {@code LeaseLostException} naming a lost part. The release does not throw, and another client then acquires
     * both within {@code C}; (INSPECT) after its release nothing is left.
     */
    @Test
    @Diagnosis("The multi-lease's state is the worst of its parts', from the parts' own loss reports: see §12.1 "
            + "(BackendLease.isLost and BackendEvents.leaseLost); a release that throws or harms the next holder is "
            + "§12.2's.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE}, reason = MULTI_ENGINE)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§25.6 a multi-lease turns LOST when a part is lost, its listener is told once, and its release "
            + "frees the rest")
    default void aLostPartMakesTheMultiLeaseLost() throws InterruptedException {
        requireFeature(LockFeature.LOST_NOTIFICATION);
        Kind kind = requireSomeKind(provider()).get(0);
        requireCapability(TckBackend.Capability.FORCE_LOSS);
        String base = uniqueName("multi-loss");
        String a = base + "/a";
        String b = base + "/b";
        MultiLease lease = openClient().multiLock(part(kind, a), part(kind, b)).acquire(WAIT);
        StateRecorder heard = new StateRecorder();
        lease.addListener(heard);
        backend().forceLoss(b);
        heard.awaitChangeTo(LeaseState.LOST, crashReleaseBound());
        assertEquals(LeaseState.LOST, lease.state());
        assertEquals(LeaseState.LOST, lease.part(b).state(), "the part whose state the server ended");
        List<String> changes = heard.changes();
        assertTrue(Set.of("HELD->UNCERTAIN", "UNCERTAIN->HELD", "HELD->LOST", "UNCERTAIN->LOST")
                .containsAll(changes), "only legal changes: " + changes);
        assertTrue(changes.get(changes.size() - 1).endsWith("->LOST"), "LOST comes last: " + changes);
        assertEquals(1, changes.stream().filter(change -> change.endsWith("->LOST")).count(), "LOST once: " + changes);
        heard.leases().forEach(told -> assertTrue(told == lease, "the listener is given the multi-lease: " + told));
        LeaseLostException e = throwsWithin(LeaseLostException.class, BOUND, "checkValid() of a lost multi-lease",
                lease::checkValid);
        assertEquals(LeaseState.LOST, e.state());
        assertTrue(e.lockName().equals(a) || e.lockName().equals(b), "names a part: " + e.lockName());
        lease.release();
        MultiLock again = openClient().multiLock(part(kind, a), part(kind, b));
        again.acquire(crashReleaseBound()).release();
        if (inspects()) {
            for (String name : List.of(a, b)) {
                assertEquals(List.of(), backend().residue(name), "state of '" + name + "' left on the server");
            }
        }
    }

    /**
     * A multi-lock with a mutex part (REENTRANT_MUTEX) belongs to the acquiring thread: another thread's
     * {@code release()} throws {@code IllegalMonitorStateException} and every part stays held. One of thread-free
     * parts only (NON_REENTRANT_MUTEX or SEMAPHORE) may be released by any thread. Releasing twice is harmless;
     * closing the service ends a multi-lease ({@code RELEASED}) and frees its parts for another client at once.
     */
    @Test
    @Diagnosis("Ownership and the close are the engine's; a part not freed by the close means the backend's close() "
            + "does not end its leases on the server (§8.4).")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX})
    @Inapplicable(kinds = {READ, WRITE}, reason = "a thread-owned part makes the multi-lease its thread's, whatever "
            + "the part's kind: tested through the mutex")
    @Inapplicable(kinds = SEMAPHORE, reason = "a multi-lease of parts no thread owns is released by any thread, "
            + "whatever their kind: tested through the non-reentrant mutex (the semaphore where it is the only one)")
    @Inapplicable(kinds = THREAD_FREE, reason = Why.SAME_REQUEST)
    @Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
    @DisplayName("§25.7 a multi-lease with a thread-owned part belongs to its thread; one of thread-free parts does "
            + "not; closing the service frees every part")
    default void multiLeaseOwnershipAndClose() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        LockService other = openClient();
        if (kinds.contains(Kind.MUTEX)) {
            String base = uniqueName("multi-owned");
            MultiLease owned = openClient().multiLock(LockPart.mutex(base + "/a"), LockPart.mutex(base + "/b"))
                    .acquire(WAIT);
            Throwable e = Async.start("multi-foreign-release", () -> {
                owned.release();
                return null;
            }).failure(BOUND);
            assertInstanceOf(IllegalMonitorStateException.class, e, "another thread's release of a multi-lease with a "
                    + "mutex part");
            assertEquals(LeaseState.HELD, owned.state());
            assertTrue(other.mutex(base + "/a").tryAcquire().isEmpty(), "a part was released by another thread");
            owned.release();
            owned.release();
            assertFree(Kind.MUTEX, other, base + "/b", "after the owner's release");
        }
        List<Kind> free = kinds.stream().filter(k -> k == Kind.NON_REENTRANT_MUTEX || k == Kind.SEMAPHORE).toList();
        String base = uniqueName("multi-free");
        if (!free.isEmpty()) {
            Kind kind = free.get(0);
            MultiLease lease = openClient().multiLock(part(kind, base + "/a"), part(kind, base + "/b")).acquire(WAIT);
            Async.start("multi-other-release", () -> {
                lease.release();
                return null;
            }).get(BOUND);
            assertEquals(LeaseState.RELEASED, lease.state());
            assertFree(kind, other, base + "/a", "after another thread's release");
        }
        Kind kind = kinds.get(0);
        LockService closing = openClient();
        MultiLease lease = closing.multiLock(part(kind, base + "/c"), part(kind, base + "/d")).acquire(WAIT);
        closing.close();
        assertEquals(LeaseState.RELEASED, lease.state());
        lease.release();
        for (String name : List.of(base + "/c", base + "/d")) {
            Acquirable lock = kind.of(other, name);
            Optional<Lease> next = lock.tryAcquire(BOUND);
            assertTrue(next.isPresent(), "'" + name + "' not freed by the close of its multi-lease's service");
            next.get().release();
        }
    }
}
