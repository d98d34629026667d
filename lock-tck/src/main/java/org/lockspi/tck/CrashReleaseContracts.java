package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;
import org.lockspi.tck.support.ChildJvm;
import org.lockspi.tck.process.HolderMain;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §11 Crash release: a client whose process dies (killed with {@code SIGKILL}, so it cannot clean up) loses what
 * it held or waited for within {@link TckContext#crashReleaseBound()}, and the waiters behind it go on.
 */
@Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
public interface CrashReleaseContracts extends TckContext {

    /**
     * (OTHER_PROCESSES) A child JVM holds a lock of every declared kind and the read half of another, so another
     * client's {@code tryAcquire()} of each is empty (of the write half, for the read half); a client here waits for
     * each ((INSPECT) until its entry shows), and the child is killed with {@code SIGKILL}. Each waiter acquires
     * within {@code C}, the {@link #crashReleaseBound()}, of the kill, (INSPECT) within 2 s of the server dropping the
     * dead holder's entries (no release wakes it: the server's own event or its polling fallback must), and
     * (FENCING_TOKENS) its token is greater than the killed holder's.
     */
    @Test
    @Timeout(120)
    @Diagnosis("A dead holder's claim must end with its process: ephemeral ZooKeeper nodes (the session expires), "
            + "Redis keys with a TTL of leaseTime renewed only by the live client; crashReleaseBound() must exceed "
            + "that time, and the waiter must see the lock freed.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ}, shapes = ONE_WAITER)
    @Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = "the holder's death frees the lock whatever "
            + "waits: §11.2 kills a waiter in a queue of several")
    @DisplayName("§11.1 a holder killed with SIGKILL loses its locks of every kind within the crash-release bound; "
            + "each waiter's token is greater")
    default void killedHolderLosesTheLock() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.CRASH_RELEASE);
        List<Contenders> kinds = Contenders.holding(provider());
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        Duration bound = crashReleaseBound();
        Map<Contenders, String> names = names(kinds, "crash-holder-");
        try (Workers waiters = new Workers(2 * kinds.size());
             ChildJvm child = ChildJvm.start(HolderMain.class, holdArguments(names))) {
            Map<String, Long> dead = awaitHeld(child, names);
            LockService client = openClient();
            // [acquired at (nanoTime), fencing token or Long.MIN_VALUE], or null if not acquired: a wait past the
            // bound fails the rule either way, so it waits a margin past it, not longer
            Duration wait = bound.plusSeconds(5);
            Map<Contenders, Future<long[]>> next = new LinkedHashMap<>();
            Map<Contenders, List<String>> dying = new LinkedHashMap<>();
            for (Contenders kind : kinds) {
                String name = names.get(kind);
                Acquirable lock = kind.other(client, name);
                assertTrue(lock.tryAcquire().isEmpty(), kind + ": the child holds '" + name + "'");
                List<String> holderOnly = inspect() ? backend().residue(name) : List.of();
                dying.put(kind, holderOnly);
                next.put(kind, waiters.submit(() -> {
                    Optional<Lease> got = lock.tryAcquire(wait);
                    if (got.isEmpty()) {
                        return null;
                    }
                    try (Lease lease = got.get()) {
                        long at = System.nanoTime();
                        return new long[] {at, tokenOrMin(lease)};
                    }
                }));
                if (inspect()) {
                    Poll.until(kind + ": the waiter's entry for '" + name + "' beside the holder's " + holderOnly,
                            true, () -> !holderOnly.containsAll(backend().residue(name)), Duration.ofSeconds(10));
                }
            }
            child.kill();
            long killedAt = System.nanoTime();
            // when the server dropped each dead holder's entries: no wake-up tells the waiters, only the server's
            // own event or their polling fallback, which must then take over within B
            Map<Contenders, Long> freedAt = inspect() ? freed(names, dying, wait) : Map.of();
            List<String> failures = new ArrayList<>();
            List<String> figures = new ArrayList<>();
            for (Contenders kind : kinds) {
                String name = names.get(kind);
                long[] acquired = next.get(kind).get(wait.plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
                if (acquired != null) {
                    Long freed = freedAt.get(kind);
                    figures.add(kind + " " + (acquired[0] - killedAt) / 1_000_000 + " ms"
                            + (freed == null ? "" : " (" + (acquired[0] - freed) / 1_000_000 + " ms after the server "
                            + "dropped the holder)"));
                }
                if (acquired == null) {
                    failures.add(kind + ": the waiter did not get '" + name + "' within " + wait.toMillis()
                            + " ms of the holder's kill (the crash-release bound is " + bound.toMillis()
                            + " ms): the dead holder's claim outlived its process"
                            + (inspect() ? "; the server still shows " + backend().residue(name) : ""));
                    continue;
                }
                Duration took = Duration.ofNanos(acquired[0] - killedAt);
                if (took.compareTo(bound) > 0) {
                    failures.add(kind + ": the waiter got '" + name + "' " + took.toMillis() + " ms after the "
                            + "holder was killed; the crash-release bound is " + bound.toMillis() + " ms");
                }
                Long freed = freedAt.get(kind);
                if (freed != null && acquired[0] - freed > Checks.BOUND.toNanos()) {
                    failures.add(kind + ": the waiter got '" + name + "' " + (acquired[0] - freed) / 1_000_000
                            + " ms after the server dropped the dead holder's entries, more than "
                            + Checks.BOUND.toMillis() + " ms: its wake-up (or its polling fallback) is late");
                }
                if (provider().features().contains(LockFeature.FENCING_TOKENS) && acquired[1] <= dead.get(name)) {
                    failures.add(kind + ": token of the next holder " + acquired[1] + " <= token of the killed "
                            + "holder " + dead.get(name));
                }
            }
            System.out.println("[§11 figures] §11.1 provider '" + provider().name() + "', C=" + bound.toMillis()
                    + " ms: SIGKILL -> waiter acquired: " + String.join(", ", figures));
            assertEquals(List.of(), failures, "waiters of a holder killed with SIGKILL");
        }
    }

    /**
     * (OTHER_PROCESSES, INSPECT) For every declared kind, and the read half waiting for a writer, a client here holds
     * the lock, a child JVM waits for it (one child waiting for all of them), and another client here waits behind
     * the child. The child is killed with {@code SIGKILL}: within {@link #crashReleaseBound()} its entries are gone
     * (the lock shows as many entries as a control lock held and waited for alike, with no child in its queue),
     * the waiters behind it still wait, and once the holders release each of those waiters gets its lock within 10 s.
     */
    @Test
    @Timeout(120)
    @Diagnosis("A waiter's entry must die with its process (ephemeral node, waiter key with a TTL), and the waiter "
            + "behind it, woken when the entry it watched vanished, must list the queue again and watch the next "
            + "entry ahead, not take the lock or stop watching.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ}, shapes = SEVERAL_WAITERS)
    @Inapplicable(shapes = ONE_WAITER, reason = "a dead waiter matters to the waiters behind it")
    @Inapplicable(shapes = MIXED_KINDS, reason = "each queue is of one kind")
    @DisplayName("§11.2 a waiter killed with SIGKILL leaves the queue of every kind: the waiter behind it gets the "
            + "lock when the holder releases")
    default void killedWaiterLeavesTheQueue() throws InterruptedException, ExecutionException, TimeoutException {
        requireFeature(LockFeature.CRASH_RELEASE);
        List<Contenders> kinds = Contenders.waiting(provider());
        requireCapability(TckBackend.Capability.OTHER_PROCESSES);
        requireCapability(TckBackend.Capability.INSPECT);
        Duration bound = crashReleaseBound();
        Map<Contenders, String> names = names(kinds, "crash-waiter-");
        // beside each lock a control, held and waited for alike but with no child in its queue: the killed
        // waiter's lock must come to show what the control shows (its own entries may share keys with the waiter
        // behind it, as Redis's set of waiting writers does, so they are judged by the control, not one by one)
        Map<Contenders, String> controls = names(kinds, "crash-waiter-control-");
        LockService holderClient = openClient();
        Map<Contenders, Lease> held = new LinkedHashMap<>();
        Map<Contenders, Lease> heldControls = new LinkedHashMap<>();
        for (Contenders kind : kinds) {
            held.put(kind, kind.holder(holderClient, names.get(kind)).acquire(Duration.ofSeconds(10)));
            heldControls.put(kind, kind.holder(holderClient, controls.get(kind)).acquire(Duration.ofSeconds(10)));
        }
        Map<Contenders, List<String>> holders = residues(names);
        try (Workers waiters = new Workers(2 * kinds.size());
             ChildJvm child = ChildJvm.start(HolderMain.class, holdArguments(names))) {
            for (Contenders kind : kinds) {
                String name = names.get(kind);
                Poll.until(kind + ": the child's waiting entry for '" + name + "' beside the holder's "
                        + holders.get(kind), true, () -> !holders.get(kind).containsAll(backend().residue(name)),
                        Duration.ofSeconds(60));
            }
            Map<Contenders, List<String>> withChild = Poll.settled("the entries once the child waits",
                    () -> residues(names), Duration.ofMillis(500), Duration.ofSeconds(10));
            Map<Contenders, List<String>> childs = new LinkedHashMap<>();
            for (Contenders kind : kinds) {
                List<String> entries = new ArrayList<>(withChild.get(kind));
                entries.removeAll(holders.get(kind));
                assertFalse(entries.isEmpty(), kind + ": the child's waiting entry for '" + names.get(kind)
                        + "' does not show: " + withChild.get(kind));
                childs.put(kind, entries);
            }
            LockService behindClient = openClient();
            Map<Contenders, Future<LeaseState>> behind = new LinkedHashMap<>();
            Map<Contenders, Future<LeaseState>> behindControls = new LinkedHashMap<>();
            for (Contenders kind : kinds) {
                behind.put(kind, waiters.submit(waitFor(kind.other(behindClient, names.get(kind)), bound)));
                behindControls.put(kind, waiters.submit(waitFor(kind.other(behindClient, controls.get(kind)),
                        bound)));
            }
            Poll.settled("the entries once the waiters behind the child wait", () -> residues(names),
                    Duration.ofMillis(500), Duration.ofSeconds(10));

            child.kill();
            for (Contenders kind : kinds) {
                String name = names.get(kind);
                String control = controls.get(kind);
                Poll.until(kind + ": the killed waiter's entries " + childs.get(kind) + " gone from '" + name
                        + "', which shows as much as its control " + control + " (number of entries)", true,
                        () -> backend().residue(name).size() == backend().residue(control).size(), bound);
            }
            for (Contenders kind : kinds) {
                assertFalse(behind.get(kind).isDone(), kind + ": the waiter behind the killed one still waits while "
                        + "the lock is held");
                held.get(kind).release();
                assertEquals(LeaseState.HELD, behind.get(kind).get(10, TimeUnit.SECONDS), kind + ": the waiter "
                        + "behind the killed one gets the lock once the holder releases");
                heldControls.get(kind).release();
                assertEquals(LeaseState.HELD, behindControls.get(kind).get(10, TimeUnit.SECONDS), kind + ": the "
                        + "control's waiter gets its lock once the holder releases");
            }
        }
    }

    /**
     * @return for each lock, when its dead holder's entries ({@code dying}) were first seen gone from the server
     *         (looked at every 10 ms), if within {@code wait}
     */
    private Map<Contenders, Long> freed(Map<Contenders, String> names, Map<Contenders, List<String>> dying,
                                        Duration wait) {
        Map<Contenders, Long> freed = new LinkedHashMap<>();
        long end = System.nanoTime() + wait.toNanos();
        while (freed.size() < names.size() && System.nanoTime() - end < 0) {
            names.forEach((kind, name) -> {
                if (!freed.containsKey(kind)
                        && backend().residue(name).stream().noneMatch(dying.get(kind)::contains)) {
                    freed.put(kind, System.nanoTime());
                }
            });
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return freed;
    }

    /** @return an acquisition that waits (up to the bound and 30 s) and tells the state of the lease it got */
    private static Callable<LeaseState> waitFor(Acquirable lock, Duration bound) {
        return () -> {
            try (Lease lease = lock.acquire(bound.plusSeconds(30))) {
                return lease.state();
            }
        };
    }

    /** @return a lock name for each kind */
    private Map<Contenders, String> names(List<Contenders> kinds, String stem) {
        Map<Contenders, String> names = new LinkedHashMap<>();
        for (Contenders kind : kinds) {
            names.put(kind, uniqueName(stem + kind));
        }
        return names;
    }

    /** @return HolderMain's arguments to hold (or wait for) each named lock of its kind */
    private String[] holdArguments(Map<Contenders, String> names) {
        List<String> args = new ArrayList<>(List.of("hold", clientUri(), provider().name()));
        names.forEach((kind, name) -> {
            args.add(name);
            args.add(kind.label());
        });
        return args.toArray(new String[0]);
    }

    /** @return each lock's token as the child printed it on {@code HELD}, once it holds them all */
    private static Map<String, Long> awaitHeld(ChildJvm child, Map<Contenders, String> names) {
        Map<String, Long> tokens = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            String held = child.awaitLine(Duration.ofSeconds(60), "HELD", "ERROR");
            assertTrue(held.startsWith("HELD "), () -> held + child.stderrTail());
            String[] words = held.split(" ");
            String name = words.length > 2 ? words[2] : names.values().iterator().next();
            tokens.put(name, "none".equals(words[1]) ? Long.MIN_VALUE : Long.parseLong(words[1]));
        }
        return tokens;
    }

    private Map<Contenders, List<String>> residues(Map<Contenders, String> names) {
        Map<Contenders, List<String>> residues = new LinkedHashMap<>();
        names.forEach((kind, name) -> residues.put(kind, backend().residue(name)));
        return residues;
    }

    private boolean inspect() {
        return backend().capabilities().contains(TckBackend.Capability.INSPECT);
    }

    /** @return the lease's fencing token, or {@link Long#MIN_VALUE} without {@link LockFeature#FENCING_TOKENS} */
    private long tokenOrMin(Lease lease) {
        return provider().features().contains(LockFeature.FENCING_TOKENS) ? lease.fencingToken() : Long.MIN_VALUE;
    }
}
