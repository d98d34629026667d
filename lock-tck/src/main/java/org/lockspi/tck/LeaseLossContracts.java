package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.process.HolderMain;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §12 Lease loss: when the server ends a holder's claim behind its back ({@link TckBackend#forceLoss(String)}:
 * ZooKeeper expires the session, Redis deletes the key), the lease turns {@link LeaseState#LOST}, its listeners
 * are told, another client can take the lock, and the old holder's late release harms no one.
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface LeaseLossContracts extends TckContext {

    /**
     * (FORCE_LOSS) For every declared kind and the read half, a client of its own holds the lock with a listener, and
     * {@link TckBackend#forceLoss(String)} ends its state on the server. Within {@link #crashReleaseBound()} each
     * lease is {@code LOST}, not held ({@code checkValid()} throws), and a mutex or a half of a read-write lock is not
     * held by the thread; the listener saw only {@code HELD->UNCERTAIN}, {@code UNCERTAIN->HELD},
     * {@code HELD->LOST} and {@code UNCERTAIN->LOST}, exactly one change to {@code LOST}, last, each call naming the
     * lease.
     */
    @Test
    @Timeout(60)
    @Diagnosis("The backend must learn of the loss and report it: set BackendLease.isLost(), then call "
            + "BackendEvents.leaseLost (ZooKeeper: on session expiry; Redis: when a renewal finds the key gone or "
            + "another owner's). A renewal that recreates a deleted key hides the loss.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @DisplayName("§12.1 every kind: a lease whose session or state the server ended turns LOST and its listener is "
            + "told")
    default void lostLeaseIsReported() throws InterruptedException {
        requireFeature(LockFeature.LOST_NOTIFICATION);
        List<Contenders> kinds = Contenders.holding(provider());
        requireCapability(TckBackend.Capability.FORCE_LOSS);
        Map<Contenders, Acquirable> locks = new LinkedHashMap<>();
        Map<Contenders, Lease> leases = new LinkedHashMap<>();
        Map<Contenders, StateRecorder> recorders = new LinkedHashMap<>();
        for (Contenders kind : kinds) {
            Acquirable lock = kind.holder(openClient(), uniqueName("loss-" + kind));
            Lease lease = lock.acquire(Duration.ofSeconds(10));
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            locks.put(kind, lock);
            leases.put(kind, lease);
            recorders.put(kind, recorder);
        }
        for (Contenders kind : kinds) {
            backend().forceLoss(locks.get(kind).name());
        }
        for (Contenders kind : kinds) {
            Lease lease = leases.get(kind);
            recorders.get(kind).awaitChangeTo(LeaseState.LOST, crashReleaseBound());
            assertEquals(LeaseState.LOST, lease.state(), kind + ": the lease");
            assertFalse(lease.isHeld(), kind + ": isHeld()");
            assertThrows(LeaseLostException.class, lease::checkValid, kind + ": checkValid() of a LOST lease");
            if (locks.get(kind) instanceof DistributedLock) {
                assertFalse(((DistributedLock) locks.get(kind)).isHeldByCurrentThread(),
                        kind + ": a LOST lock is not held by the thread");
            }
            List<String> changes = recorders.get(kind).changes();
            assertTrue(Set.of("HELD->UNCERTAIN", "UNCERTAIN->HELD", "HELD->LOST", "UNCERTAIN->LOST")
                    .containsAll(changes), kind + ": only legal changes: " + changes);
            assertTrue(changes.get(changes.size() - 1).endsWith("->LOST"), kind + ": LOST comes last: " + changes);
            assertEquals(1, changes.stream().filter(c -> c.endsWith("->LOST")).count(), kind + ": LOST once: "
                    + changes);
            for (Lease reported : recorders.get(kind).leases()) {
                assertSame(lease, reported, kind + ": the listener is given the lease it was added to");
            }
        }
    }

    /**
     * (FORCE_LOSS) A client's mutex lease is lost by {@code forceLoss}; another client acquires within
     * {@link #crashReleaseBound()}, and (INSPECT) its entry is the only one. The old client acquires and releases
     * another lock (a ZooKeeper client then has a new session), then releases its {@code LOST} lease: no exception, the
     * old lease stays ended, (INSPECT) the server state is unchanged, the new lease is {@code HELD} and a third client
     * is excluded. After the new holder releases, nothing is left.
     */
    @Test
    @Timeout(60)
    @Diagnosis("BackendLease.release after a loss must touch only its own state: compare the owner token before "
            + "deleting (Redis), delete only its own node and not once its session has changed (ZooKeeper); a lost "
            + "lease's release never throws.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§12.3", kinds = NON_REENTRANT_MUTEX)
    @Inapplicable(kinds = {READ, WRITE, SEMAPHORE}, reason = "the late release of a lost lease is the owner-checked "
            + "delete of §12.2 and §12.3 (an exclusive key or a session's node): the shared kinds remove only their "
            + "own member or node")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @DisplayName("§12.2 mutex: after a loss another client acquires, and the old holder's late release leaves the "
            + "new holder's lock alone")
    default void lateReleaseOfLostMutexLeavesNewHolderAlone() throws InterruptedException {
        requireLossSetup(LockFeature.REENTRANT_MUTEX);
        lateReleaseLeavesNewHolderAlone("mutex");
    }

    /**
     * (FORCE_LOSS) §12.2 for the non-reentrant mutex; in ZooKeeper it uses Curator's semaphore layout, with its
     * {@code locks} and {@code leases} children.
     */
    @Test
    @Timeout(60)
    @Diagnosis("As §12.2 in the non-reentrant mutex's release: a lease node deleted by position, or a permit removed "
            + "by count instead of by its own member or path, deletes the new holder's.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§12.2", kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE, SEMAPHORE}, reason = "the late release of a lost lease is the owner-checked "
            + "delete of §12.2 and §12.3 (an exclusive key or a session's node): the shared kinds remove only their "
            + "own member or node")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @DisplayName("§12.3 non-reentrant mutex: after a loss another client acquires, and the old holder's late "
            + "release leaves the new holder's lease alone")
    default void lateReleaseOfLostNonReentrantMutexLeavesNewHolderAlone() throws InterruptedException {
        requireLossSetup(LockFeature.NON_REENTRANT_MUTEX);
        lateReleaseLeavesNewHolderAlone("non-reentrant");
    }

    /**
     * (FORCE_LOSS) A lease turns {@code LOST} by {@code forceLoss} within {@link #crashReleaseBound()}; a listener
     * added afterwards is called once within 5 s, with current state {@code LOST}, and given that lease.
     */
    @Test
    @Timeout(60)
    @Diagnosis("Calling a listener added to a LOST lease is the engine's (it is told the current state on the "
            + "service's event thread), so once §12.1 passes the provider cannot cause this; if it fails, the "
            + "lock-api on the class path is not the kit's.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "a listener is "
            + "the engine's, one piece of code for every lease: tested through the mutex")
    @DisplayName("§12.4 a listener added after the loss is called at once with LOST")
    default void listenerAddedAfterLossIsCalled() throws InterruptedException {
        requireLossSetup(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("loss-late-listener");
        Lease lease = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        StateRecorder first = new StateRecorder();
        lease.addListener(first);
        backend().forceLoss(name);
        first.awaitChangeTo(LeaseState.LOST, crashReleaseBound());

        StateRecorder late = new StateRecorder();
        lease.addListener(late);
        late.awaitChangeTo(LeaseState.LOST, Duration.ofSeconds(5));
        assertEquals(1, late.changes().size(), "called once: " + late.changes());
        assertSame(lease, late.leases().get(0));
    }

    /**
     * (FORCE_LOSS) A client loses its mutex lease by {@code forceLoss} and acquires the same lock again within
     * {@link #crashReleaseBound()}: the new lease is {@code HELD}, the hold count 1, the old lease stays {@code LOST},
     * and (FENCING_TOKENS) the new token is greater. After both are released (INSPECT) nothing is left.
     */
    @Test
    @Timeout(60)
    @Diagnosis("After a session loss LockBackend.acquire must serve again: open a new session (ZooKeeper) or use a "
            + "fresh owner token (Redis) instead of failing with the expired one; the lost lease's "
            + "BackendLease.release must not delete the new entry.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = Why.SESSION_WIDE)
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
    @DisplayName("§12.5 a client whose session the server ended acquires again, with a greater token")
    default void clientAcquiresAgainAfterLoss() throws InterruptedException {
        requireLossSetup(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("loss-again");
        DistributedLock lock = openClient().mutex(name);
        Lease lost = lock.acquire(Duration.ofSeconds(10));
        boolean tokens = provider().features().contains(LockFeature.FENCING_TOKENS);
        long lostToken = tokens ? lost.fencingToken() : 0;
        StateRecorder recorder = new StateRecorder();
        lost.addListener(recorder);
        backend().forceLoss(name);
        recorder.awaitChangeTo(LeaseState.LOST, crashReleaseBound());

        try (Lease again = lock.acquire(crashReleaseBound())) {
            assertEquals(LeaseState.HELD, again.state());
            assertTrue(lock.isHeldByCurrentThread());
            assertEquals(1, lock.holdCount(), "the LOST lease does not count as a hold");
            assertEquals(LeaseState.LOST, lost.state(), "the old lease stays LOST");
            if (tokens) {
                assertTrue(again.fencingToken() > lostToken, "new token " + again.fencingToken()
                        + " > lost token " + lostToken);
            }
        }
        lost.release();
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            assertEquals(List.of(), backend().residue(name), "nothing left on the server");
        }
    }

    private void requireLossSetup(LockFeature kind) {
        requireFeature(kind);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.FORCE_LOSS);
    }

    private void lateReleaseLeavesNewHolderAlone(String kind) throws InterruptedException {
        String name = uniqueName("loss-late-release");
        LockService oldClient = openClient();
        LockService newClient = openClient();
        LockService thirdClient = openClient();
        Lease old = HolderMain.lock(oldClient, name, kind).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        old.addListener(recorder);
        backend().forceLoss(name);
        recorder.awaitChangeTo(LeaseState.LOST, crashReleaseBound());

        Acquirable lock = HolderMain.lock(newClient, name, kind);
        Lease fresh = lock.acquire(crashReleaseBound());
        boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
        List<String> before = inspect ? backend().residue(name) : List.of();
        if (inspect) {
            assertEquals(1, before.size(), "one entry, the new holder's: " + before);
        }

        // the late release must be harmless also once the old client is connected again (a new session)
        Acquirable probeLock = HolderMain.lock(oldClient, uniqueName("loss-probe"), kind);
        try (Lease probe = probeLock.acquire(crashReleaseBound())) {
            assertEquals(LeaseState.HELD, probe.state(), "the old client serves again");
        }
        assertDoesNotThrow(old::release, "releasing a LOST lease is harmless");
        assertTrue(old.state().isTerminal(), "the old lease stays ended: " + old.state());

        if (inspect) {
            assertEquals(before, backend().residue(name), "the new holder's entry is still there");
        }
        assertEquals(LeaseState.HELD, fresh.state(), "the new holder still holds");
        assertTrue(HolderMain.lock(thirdClient, name, kind).tryAcquire().isEmpty(),
                "a third client still cannot acquire '" + name + "'");
        fresh.release();
        if (inspect) {
            assertEquals(List.of(), backend().residue(name), "nothing left on the server");
        }
    }
}
