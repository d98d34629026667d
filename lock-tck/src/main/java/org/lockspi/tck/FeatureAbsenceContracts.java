package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireAbsent;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §9 Feature absence: a feature the provider does not declare is refused with UnsupportedOperationException
 * naming it. For a declared feature the test is skipped with the reason "declares X"; its own contracts test it.
 * What a provider declares is fixed: the set {@code features()} returns cannot be used to change it (§9.8).
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface FeatureAbsenceContracts extends TckContext {

    /**
     * Skipped for a provider that declares REENTRANT_MUTEX; otherwise {@code mutex(name)} throws
     * {@code UnsupportedOperationException} naming REENTRANT_MUTEX within 2 s.
     */
    @Test
    @Diagnosis("The engine refuses a kind missing from LockProvider.features(), read when the service opens: a "
            + "failure means features() answers differently between calls (a set built per call or from "
            + "configuration), or the lock-api is not the kit's.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "another "
            + "feature's absence: §9.2 to §9.4")
    @DisplayName("§9.1 without REENTRANT_MUTEX, mutex(name) throws UnsupportedOperationException")
    default void noReentrantMutex() {
        requireAbsent(provider(), LockFeature.REENTRANT_MUTEX);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "mutex(name)",
                () -> client.mutex(uniqueName("absent"))), LockFeature.REENTRANT_MUTEX.name());
    }

    /**
     * Skipped for a provider that declares NON_REENTRANT_MUTEX; otherwise {@code nonReentrantMutex(name)} throws
     * {@code UnsupportedOperationException} naming NON_REENTRANT_MUTEX within 2 s.
     */
    @Test
    @Diagnosis("As §9.1 for NON_REENTRANT_MUTEX: the refusal is the engine's, from the LockProvider.features() the "
            + "service was opened with; look for a features() that changes between calls, or a second lock-api on the "
            + "class path.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @Inapplicable(kinds = {MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "another feature's absence: "
            + "§9.1, §9.3, §9.4")
    @DisplayName("§9.2 without NON_REENTRANT_MUTEX, nonReentrantMutex(name) throws UnsupportedOperationException")
    default void noNonReentrantMutex() {
        requireAbsent(provider(), LockFeature.NON_REENTRANT_MUTEX);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "nonReentrantMutex(name)",
                () -> client.nonReentrantMutex(uniqueName("absent"))), LockFeature.NON_REENTRANT_MUTEX.name());
    }

    /**
     * Skipped for a provider that declares READ_WRITE; otherwise {@code readWriteLock(name)} throws
     * {@code UnsupportedOperationException} naming READ_WRITE within 2 s.
     */
    @Test
    @Diagnosis("As §9.1 for READ_WRITE: the refusal is the engine's, from the LockProvider.features() the service was "
            + "opened with; look for a features() that changes between calls, or a second lock-api on the class path.")
    @Covers(kinds = {READ, WRITE})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, SEMAPHORE}, reason = "another feature's absence: §9.1, §9.2, "
            + "§9.4")
    @Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = "the thread-free read-write lock needs READ_WRITE too; the "
            + "engine refuses it by the same check")
    @DisplayName("§9.3 without READ_WRITE, readWriteLock(name) throws UnsupportedOperationException")
    default void noReadWrite() {
        requireAbsent(provider(), LockFeature.READ_WRITE);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "readWriteLock(name)",
                () -> client.readWriteLock(uniqueName("absent"))), LockFeature.READ_WRITE.name());
    }

    /**
     * Skipped for a provider that declares SEMAPHORE; otherwise {@code semaphore(name, 2)} throws
     * {@code UnsupportedOperationException} naming SEMAPHORE within 2 s.
     */
    @Test
    @Diagnosis("As §9.1 for SEMAPHORE: the refusal is the engine's, from the LockProvider.features() the service was "
            + "opened with; look for a features() that changes between calls, or a second lock-api on the class path.")
    @Covers(kinds = SEMAPHORE)
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, THREAD_FREE, ASYNC}, reason = "another feature's "
            + "absence: §9.1 to §9.3")
    @DisplayName("§9.4 without SEMAPHORE, semaphore(name, permits) throws UnsupportedOperationException")
    default void noSemaphore() {
        requireAbsent(provider(), LockFeature.SEMAPHORE);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "semaphore(name, 2)",
                () -> client.semaphore(uniqueName("absent"), 2)), LockFeature.SEMAPHORE.name());
    }

    /**
     * Skipped for a provider that declares FENCING_TOKENS; otherwise a lease of the first declared kind throws
     * {@code UnsupportedOperationException} naming FENCING_TOKENS from {@code fencingToken()} within 2 s, and is still
     * {@code HELD}.
     */
    @Test
    @Diagnosis("The refusal is the engine's; the lease must still work: BackendLease.fencingToken() may return -1, "
            + "but a lease not HELD means isLost() is true or confirmedUntilNanos() or validUntilNanos() is already "
            + "past when the engine registers it.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "a feature of "
            + "every lease: the first kind declared is asked, and the engine refuses it for every lease alike")
    @DisplayName("§9.5 without FENCING_TOKENS, lease.fencingToken() throws UnsupportedOperationException")
    default void noFencingTokens() throws InterruptedException {
        requireAbsent(provider(), LockFeature.FENCING_TOKENS);
        Kind kind = requireSomeKind(provider()).get(0);
        try (Lease lease = kind.of(openClient(), uniqueName("absent")).acquire(WAIT)) {
            assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "fencingToken()",
                    lease::fencingToken), LockFeature.FENCING_TOKENS.name());
            assertEquals(LeaseState.HELD, lease.state());
        }
    }

    /**
     * Skipped for a provider that declares LOST_NOTIFICATION; otherwise {@code addListener} throws
     * {@code UnsupportedOperationException} naming LOST_NOTIFICATION within 2 s. With FORCE_LOSS, the server then ends
     * the lease's state, and for {@link #crashReleaseBound()} the lease must never say {@code LOST}: a provider that
     * signals losses must declare the feature, so that §12, §16, §17 and §18 hold it to what it signals.
     */
    @Test
    @Timeout(90)
    @Diagnosis("The lease turned LOST without LOST_NOTIFICATION: the backend set BackendLease.isLost(), called "
            + "BackendEvents.leaseLost, or let validUntilNanos() pass. Declare LOST_NOTIFICATION in "
            + "LockProvider.features() and pass its rules, or report no loss at all.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "a feature of "
            + "every lease: the first kind declared is asked, and the engine refuses it for every lease alike")
    @DisplayName("§9.6 without LOST_NOTIFICATION, lease.addListener(l) throws UnsupportedOperationException, and "
            + "(FORCE_LOSS) a lease whose state the server ended does not turn LOST: a loss it signals is declared")
    default void noLostNotification() throws InterruptedException {
        requireAbsent(provider(), LockFeature.LOST_NOTIFICATION);
        Kind kind = requireSomeKind(provider()).get(0);
        String name = uniqueName("absent");
        try (Lease lease = kind.of(openClient(), name).acquire(WAIT)) {
            assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "addListener(l)",
                    () -> lease.addListener((l, previous, current) -> { })), LockFeature.LOST_NOTIFICATION.name());
            if (backend().capabilities().contains(TckBackend.Capability.FORCE_LOSS)) {
                // a provider that reports the loss implements LOST_NOTIFICATION: undeclared, its rules never ran
                backend().forceLoss(name);
                long deadline = System.nanoTime() + crashReleaseBound().toNanos();
                while (System.nanoTime() - deadline < 0) {
                    assertNotEquals(LeaseState.LOST, lease.state(), "provider '" + provider().name() + "' "
                            + "signals a lost lease (LOST after forceLoss) without declaring LOST_NOTIFICATION: "
                            + "declare it, so that its rules (§12, §16, §17, §18) hold it to what it signals");
                    Thread.sleep(20); // the state has no event without LOST_NOTIFICATION: look until the bound
                }
            }
        }
    }

    /**
     * Skipped for a provider that declares INSPECTION; otherwise {@code inspect(name)} and {@code list("")} throw
     * {@code UnsupportedOperationException} naming INSPECTION within 2 s.
     */
    @Test
    @Diagnosis("The engine refuses inspect and list without INSPECTION in LockProvider.features(): a failure means "
            + "features() changes between calls or the lock-api is not the kit's. A provider that implements "
            + "LockBackend.inspect should declare INSPECTION.")
    @Covers(kinds = {})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason =
            "inspection is the service's: no lock is taken")
    @DisplayName("§9.7 without INSPECTION, inspect(name) and list(prefix) throw UnsupportedOperationException")
    default void noInspection() {
        requireAbsent(provider(), LockFeature.INSPECTION);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "inspect(name)",
                () -> client.inspect(uniqueName("absent"))), LockFeature.INSPECTION.name());
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "list(prefix)",
                () -> client.list("")), LockFeature.INSPECTION.name());
    }

    /**
     * Two calls of {@code features()} return equal sets. The test then removes a declared feature from the set returned
     * and adds an absent one: the change is refused with {@code UnsupportedOperationException}, or shows neither in the
     * next {@code features()} nor in a service opened after it.
     */
    @Test
    @Diagnosis("LockProvider.features() must return an unmodifiable set or a copy (Set.of, "
            + "Collections.unmodifiableSet of an EnumSet): handing out the provider's own EnumSet field lets one "
            + "caller switch a feature off for every service opened after.")
    @Covers(kinds = {})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason =
            Why.NO_LOCK)
    @DisplayName("§9.8 features() is the same on every call and cannot be changed through the set it returns")
    default void declaredFeaturesAreFixed() {
        Set<LockFeature> first = provider().features();
        assertNotNull(first, "features()");
        Set<LockFeature> declared = EnumSet.noneOf(LockFeature.class);
        declared.addAll(first);
        Set<LockFeature> returned = provider().features();
        assertEquals(declared, returned, "two calls of features() differ");
        Set<LockFeature> absent = EnumSet.allOf(LockFeature.class);
        absent.removeAll(declared);
        boolean changed = false;
        try {
            // what a caller may do to "switch a feature off" for itself: the provider must not be changed by it
            changed = !declared.isEmpty() && returned.remove(declared.iterator().next());
            changed |= !absent.isEmpty() && returned.add(absent.iterator().next());
        } catch (UnsupportedOperationException refused) {
            // an unmodifiable set: the declaration is safe
        }
        try {
            assertEquals(declared, provider().features(), "a change to the set features() returned changed what "
                    + "provider '" + provider().name() + "' declares (it returns its own modifiable set)");
            assertEquals(declared, openClient().features(), "a service opened after a change to the set "
                    + "features() returned reports other features than the provider declared");
        } finally {
            if (changed) {
                returned.clear(); // undo the change for the tests that follow
                returned.addAll(declared);
            }
        }
    }
}
