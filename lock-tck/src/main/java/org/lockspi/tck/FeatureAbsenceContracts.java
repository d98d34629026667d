package org.lockspi.tck;

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

/**
 * §9 Feature absence: a feature the provider does not declare is refused with UnsupportedOperationException
 * naming it. For a declared feature the test is skipped with the reason "declares X"; its own contracts test it.
 * What a provider declares is fixed: the set {@code features()} returns cannot be used to change it (§9.8).
 */
public interface FeatureAbsenceContracts extends TckContext {

    @Test
    @DisplayName("§9.1 without REENTRANT_MUTEX, mutex(name) throws UnsupportedOperationException")
    default void noReentrantMutex() {
        requireAbsent(provider(), LockFeature.REENTRANT_MUTEX);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "mutex(name)",
                () -> client.mutex(uniqueName("absent"))), LockFeature.REENTRANT_MUTEX.name());
    }

    @Test
    @DisplayName("§9.2 without NON_REENTRANT_MUTEX, nonReentrantMutex(name) throws UnsupportedOperationException")
    default void noNonReentrantMutex() {
        requireAbsent(provider(), LockFeature.NON_REENTRANT_MUTEX);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "nonReentrantMutex(name)",
                () -> client.nonReentrantMutex(uniqueName("absent"))), LockFeature.NON_REENTRANT_MUTEX.name());
    }

    @Test
    @DisplayName("§9.3 without READ_WRITE, readWriteLock(name) throws UnsupportedOperationException")
    default void noReadWrite() {
        requireAbsent(provider(), LockFeature.READ_WRITE);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "readWriteLock(name)",
                () -> client.readWriteLock(uniqueName("absent"))), LockFeature.READ_WRITE.name());
    }

    @Test
    @DisplayName("§9.4 without SEMAPHORE, semaphore(name, permits) throws UnsupportedOperationException")
    default void noSemaphore() {
        requireAbsent(provider(), LockFeature.SEMAPHORE);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "semaphore(name, 2)",
                () -> client.semaphore(uniqueName("absent"), 2)), LockFeature.SEMAPHORE.name());
    }

    @Test
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

    @Test
    @Timeout(90)
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

    @Test
    @DisplayName("§9.7 without INSPECTION, inspect(name) and list(prefix) throw UnsupportedOperationException")
    default void noInspection() {
        requireAbsent(provider(), LockFeature.INSPECTION);
        LockService client = openClient();
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "inspect(name)",
                () -> client.inspect(uniqueName("absent"))), LockFeature.INSPECTION.name());
        assertNames(throwsWithin(UnsupportedOperationException.class, BOUND, "list(prefix)",
                () -> client.list("")), LockFeature.INSPECTION.name());
    }

    @Test
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
