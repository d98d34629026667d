package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;
import org.lockspi.tck.internal.Checks;
import org.lockspi.tck.internal.Contenders;
import org.lockspi.tck.internal.Figures;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.internal.Workers;

/**
 * §27 Revocation ({@link LockService#revoke(String, long, Duration, String)}, {@link LockFeature#REVOCATION}): an
 * operator, a service of its own, ends another client's lease by its fencing token; the holder's lease turns
 * {@code LOST} within the provider's bound and its listeners are told before the lock passes on, with a greater
 * token; only a holder whose service opted in ({@code revocable=true}) is revoked; bad input is refused at once.
 */
@Inapplicable(shapes = {SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.ONE_WAITER_RULE)
public interface RevocationContracts extends TckContext {

    /** Who the kit's operator says it is. */
    String OPERATOR = "tck-operator@kit";

    /**
     * The provider's bound on a revocation with the holder connected: from the request written ({@code revoke}
     * called) to the holder's lease {@code LOST} and its state freed ({@code revoke} returned). A holder that learns
     * of requests through a watch or a notification needs milliseconds; one that learns at its next renewal needs
     * the renewal interval.
     *
     * @return the bound; half the lease span unless overridden
     */
    default Duration revocationBound() {
        return leaseSpan().dividedBy(2);
    }

    /**
     * How long after the holder's state is freed the other client of §27.1 may wait for the lock: its own
     * wake-up (a notification, a poll).
     *
     * @return the bound; half the lease span unless overridden
     */
    default Duration revocationHandOver() {
        return leaseSpan().dividedBy(2);
    }

    /** How a §27.1 holder acquires its lock. */
    interface Way {
        Lease acquire(Acquirable lock) throws Exception;
    }

    /**
     * (REVOCATION) For every declared kind and the read half, and (READ_WRITE) the write half of a thread-free
     * read-write lock acquired with {@code acquireAsync}: a client opened with {@code revocable=true} acquires and
     * adds a listener; another client waits for the lock (a writer for the read half); an operator, a third service
     * without the parameter, reads the holder's token with {@code inspect} and revokes it. {@code revoke} returns
     * {@code true} within {@link #revocationBound()} plus 2 s, and then the holder's lease is already {@code LOST}
     * (its state was freed only after), its listener told {@code LOST} once and last within 2 s; the other client
     * gets the lock within {@link #revocationHandOver()} after {@code revoke} returned, never while the holder's
     * lease is not {@code LOST}, with a greater token. The holder's late release does not throw, and (INSPECT) once
     * the other releases nothing is left.
     */
    @Test
    @Timeout(120)
    @Diagnosis("The holder's backend must see the request for its lease (a watch on its node, its next renewal, a "
            + "message), mark the BackendLease lost and call BackendEvents.leaseLost BEFORE it frees the state; "
            + "revoke() returning while the lease still reads HELD means the state was freed first, or freed by the "
            + "revoker. A revoke() that times out means the holder never saw the request, or inspect() still shows "
            + "the freed holder.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ, THREAD_FREE, ASYNC}, shapes = ONE_WAITER)
    @DisplayName("§27.1 every kind: a revoked lease turns LOST, its listener is told, and only then does the next "
            + "waiter get the lock, with a greater token")
    default void aRevokedLeaseIsLostBeforeTheLockPassesOn() throws Exception {
        requireFeature(LockFeature.REVOCATION);
        List<String> labels = new ArrayList<>();
        List<BiFunction<LockService, String, Acquirable>> holders = new ArrayList<>();
        List<BiFunction<LockService, String, Acquirable>> others = new ArrayList<>();
        List<Way> ways = new ArrayList<>();
        for (Contenders pair : Contenders.holding(provider())) {
            labels.add(pair.label());
            holders.add(pair::holder);
            others.add(pair::other);
            ways.add(lock -> lock.acquire(Duration.ofSeconds(10)));
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            labels.add("thread-free write, acquireAsync");
            holders.add((s, n) -> s.threadFreeReadWriteLock(n).writeLock());
            others.add((s, n) -> s.threadFreeReadWriteLock(n).writeLock());
            ways.add(lock -> ((AsyncAcquirable) lock).acquireAsync(Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS));
        }
        LockService holderClient = openClient(Checks.withParameter(clientUri(), Locks.REVOCABLE_PARAMETER + "=true"));
        LockService otherClient = openClient();
        LockService operator = openClient();
        Duration wait = revocationBound().plus(revocationHandOver()).plus(BOUND).multipliedBy(2);
        StringBuilder figures = new StringBuilder();
        try (Workers pool = new Workers(1)) {
            for (int i = 0; i < labels.size(); i++) {
                String label = labels.get(i);
                String name = uniqueName("revoke-" + i);
                Lease lease = ways.get(i).acquire(holders.get(i).apply(holderClient, name));
                StateRecorder recorder = new StateRecorder();
                lease.addListener(recorder);
                Acquirable other = others.get(i).apply(otherClient, name);
                Future<long[]> waiting = pool.submit(() -> {
                    Lease got = other.acquire(wait);
                    long at = System.nanoTime();
                    LeaseState holderThen = lease.state(); // the revoked lease, at the instant the other holds
                    long token = got.fencingToken();
                    got.release();
                    return new long[] {at, holderThen.ordinal(), token};
                });
                long token = lease.fencingToken();
                assertTrue(operator.inspect(name).holders().stream().anyMatch(h -> h.fencingToken().isPresent()
                        && h.fencingToken().getAsLong() == token && !h.own()), label + ": the operator sees the "
                        + "holder's token " + token + ": " + operator.inspect(name));
                assertFalse(waiting.isDone(), label + ": the other client waits while the lease is held");
                long asked = System.nanoTime();
                boolean revoked = operator.revoke(name, token, revocationBound().plus(BOUND), OPERATOR);
                long returned = System.nanoTime();
                assertTrue(revoked, label + ": revoke() found the holder with token " + token);
                assertEquals(LeaseState.LOST, lease.state(), label + ": the lease, once revoke() returned (the "
                        + "holder's state is gone from the server)");
                assertTrue(returned - asked <= revocationBound().plus(BOUND).toNanos(), label + ": revoke() took "
                        + (returned - asked) / 1_000_000 + " ms, more than the revocation bound "
                        + revocationBound().toMillis() + " ms plus 2 s");
                recorder.awaitChangeTo(LeaseState.LOST, BOUND);
                List<String> changes = recorder.changes();
                assertTrue(changes.get(changes.size() - 1).endsWith("->LOST")
                        && changes.stream().filter(c -> c.endsWith("->LOST")).count() == 1,
                        label + ": LOST once and last: " + changes);
                long[] got = waiting.get(revocationHandOver().plus(BOUND).toMillis(), TimeUnit.MILLISECONDS);
                assertEquals(LeaseState.LOST, LeaseState.values()[(int) got[1]], label + ": the other client held "
                        + "the lock while the revoked lease was not yet LOST");
                assertTrue(got[0] - returned <= revocationHandOver().toNanos(), label + ": the other client got the "
                        + "lock " + (got[0] - returned) / 1_000_000 + " ms after revoke() returned, more than "
                        + revocationHandOver().toMillis() + " ms");
                assertTrue(got[2] > token, label + ": the other client's token " + got[2] + " is greater than the "
                        + "revoked " + token);
                lease.release(); // late, of a LOST lease: no exception, nothing of the other's touched
                if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
                    assertEquals(List.of(), backend().residue(name), label + ": nothing left");
                }
                figures.append(String.format(java.util.Locale.ROOT, " %s revoked in %d ms, other's grant at %+d ms;",
                        label, (returned - asked) / 1_000_000, (got[0] - returned) / 1_000_000));
            }
        }
        Figures.print("§27.1", provider().name(), leaseSpan(), figures.toString());
    }

    /**
     * (REVOCATION) {@code revoke} of a token no holder has returns {@code false} within 2 s and changes nothing: a
     * revocable client's mutex holder, asked with its token plus one, stays {@code HELD}, its listener told nothing,
     * and another client's {@code tryAcquire()} is still empty; after its release its own token gives {@code false};
     * a name with no state gives {@code false}. (SEMAPHORE) Of a semaphore of 2 permits held by two revocable clients,
     * revoking one leaves the other {@code HELD}, and a third client then gets the freed permit.
     */
    @Test
    @Timeout(60)
    @Diagnosis("The backend's revoke must match the token exactly and write nothing when no holder has it; a "
            + "semaphore's request ends only the permit with the token.")
    @Covers(kinds = {MUTEX, SEMAPHORE})
    @CoveredBy(value = "§27.1", kinds = {NON_REENTRANT_MUTEX, WRITE, READ, THREAD_FREE, ASYNC})
    @Inapplicable(shapes = ONE_WAITER, reason = "no acquisition waits: the other client tries once")
    @DisplayName("§27.2 a token no holder has is not revoked (false, nothing changes), and a semaphore loses only "
            + "the permit revoked")
    default void onlyTheHolderWithTheTokenIsRevoked() throws Exception {
        requireFeature(LockFeature.REVOCATION);
        String revocable = Checks.withParameter(clientUri(), Locks.REVOCABLE_PARAMETER + "=true");
        LockService operator = openClient();
        LockService other = openClient();
        if (provider().features().contains(LockFeature.REENTRANT_MUTEX)) {
            String name = uniqueName("revoke-wrong-token");
            LockService holder = openClient(revocable);
            Lease lease = holder.mutex(name).acquire(Duration.ofSeconds(10));
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            long token = lease.fencingToken();
            assertFalse(operator.revoke(name, token + 1, Duration.ofSeconds(1), OPERATOR),
                    "revoke of token " + (token + 1) + ", which no holder has");
            assertEquals(LeaseState.HELD, lease.state(), "the holder, after a revocation of another token");
            assertTrue(other.mutex(name).tryAcquire().isEmpty(), "the lock is still held");
            assertEquals(List.of(), recorder.changes(), "the holder's listener told nothing");
            lease.release();
            assertFalse(operator.revoke(name, token, Duration.ofSeconds(1), OPERATOR), "revoke of a released lease");
            assertFalse(operator.revoke(uniqueName("revoke-nothing"), 1, Duration.ofSeconds(1), OPERATOR),
                    "revoke on a name with no state");
        }
        if (provider().features().contains(LockFeature.SEMAPHORE)) {
            String name = uniqueName("revoke-permit");
            Lease first = openClient(revocable).semaphore(name, 2).acquire(Duration.ofSeconds(10));
            Lease second = openClient(revocable).semaphore(name, 2).acquire(Duration.ofSeconds(10));
            StateRecorder kept = new StateRecorder();
            second.addListener(kept);
            assertTrue(operator.revoke(name, first.fencingToken(), revocationBound().plus(BOUND), OPERATOR),
                    "revoke of the first permit");
            assertEquals(LeaseState.LOST, first.state(), "the revoked permit");
            assertEquals(LeaseState.HELD, second.state(), "the other permit");
            Lease third = other.semaphore(name, 2).acquire(revocationHandOver().plus(BOUND));
            assertTrue(third.fencingToken() > first.fencingToken(), "the freed permit's next token");
            assertEquals(List.of(), kept.changes(), "the other permit's listener told nothing");
            third.release();
            second.release();
            first.release();
        }
    }

    /**
     * (REVOCATION) A holder whose service was opened without {@code revocable=true} is never revoked: {@code revoke}
     * of its token throws {@code IllegalStateException} within 2 s naming {@code revocable}; the lease stays
     * {@code HELD}, its listener told nothing, its token still shown by {@code inspect}, and another client's
     * {@code tryAcquire()} is still empty.
     */
    @Test
    @Timeout(60)
    @Diagnosis("The acquisition's server state must carry whether its request was revocable "
            + "(AcquireRequest.isRevocable()), and the backend's revoke must refuse, writing nothing, when it is not.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§27.1", kinds = {NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ, THREAD_FREE, ASYNC})
    @Inapplicable(shapes = ONE_WAITER, reason = "no acquisition waits: the other client tries once")
    @DisplayName("§27.3 a holder whose service did not opt in is not revoked: IllegalStateException at once, the "
            + "lease still HELD")
    default void aHolderWithoutTheOptInIsNotRevoked() throws Exception {
        requireFeature(LockFeature.REVOCATION);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        String name = uniqueName("revoke-not-revocable");
        LockService holder = openClient();
        LockService operator = openClient();
        Lease lease = holder.mutex(name).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        long token = lease.fencingToken();
        IllegalStateException e = throwsWithin(IllegalStateException.class, BOUND, "revoke of a holder without the "
                + "opt-in", () -> operator.revoke(name, token, Duration.ofSeconds(5), OPERATOR));
        assertNames(e, Locks.REVOCABLE_PARAMETER);
        assertEquals(LeaseState.HELD, lease.state(), "the holder, after a refused revocation");
        LockInfo info = operator.inspect(name);
        assertTrue(info.holders().stream().anyMatch(h -> h.fencingToken().orElse(-1) == token), "the holder still "
                + "shown: " + info);
        assertTrue(openClient().mutex(name).tryAcquire().isEmpty(), "the lock is still held");
        assertEquals(List.of(), recorder.changes(), "the holder's listener told nothing");
        lease.release();
    }

    /**
     * (REVOCATION) {@code revoke} refuses bad input within 2 s, before anything is asked of the server, stating the
     * value: a null name, timeout or requester with {@code NullPointerException}; a malformed name, a negative token,
     * a negative or too long timeout, a blank requester or one with a line break with
     * {@code IllegalArgumentException}; on a closed service {@code IllegalStateException}. Without REVOCATION,
     * {@code revoke} throws {@code UnsupportedOperationException} naming REVOCATION and the provider, and opening a
     * service with {@code revocable=true} throws {@code IllegalArgumentException} naming the parameter.
     */
    @Test
    @Diagnosis("The checks and the refusals are the engine's (Revocation, Requester, Engine.open): a failure points "
            + "at a lock-api other than the kit's, or features() answering differently between calls.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ, THREAD_FREE, ASYNC},
            reason = "the checks are the engine's, before any request, the same for every kind")
    @Inapplicable(shapes = ONE_WAITER, reason = Why.NO_QUEUE)
    @DisplayName("§27.4 revoke refuses bad input at once, stating the value; without REVOCATION it and the opt-in "
            + "are refused")
    default void badRevocationsAreRefused() {
        LockService operator = openClient();
        String name = uniqueName("revoke-bad");
        Duration second = Duration.ofSeconds(1);
        if (!provider().features().contains(LockFeature.REVOCATION)) {
            UnsupportedOperationException e = throwsWithin(UnsupportedOperationException.class, BOUND, "revoke",
                    () -> operator.revoke(name, 1, second, OPERATOR));
            assertNames(e, LockFeature.REVOCATION.name());
            assertNames(e, provider().name());
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "opening with revocable=true",
                    () -> openClient(Checks.withParameter(clientUri(), Locks.REVOCABLE_PARAMETER + "=true"))),
                    Locks.REVOCABLE_PARAMETER);
            return;
        }
        throwsWithin(NullPointerException.class, BOUND, "revoke(null name)",
                () -> operator.revoke(null, 1, second, OPERATOR));
        throwsWithin(IllegalArgumentException.class, BOUND, "revoke('')", () -> operator.revoke("", 1, second, OPERATOR));
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "revoke(token -1)",
                () -> operator.revoke(name, -1, second, OPERATOR)), "-1");
        throwsWithin(NullPointerException.class, BOUND, "revoke(null timeout)",
                () -> operator.revoke(name, 1, null, OPERATOR));
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "revoke(timeout -1 ms)",
                () -> operator.revoke(name, 1, Duration.ofMillis(-1), OPERATOR)), "PT-0.001S");
        Duration tooLong = Acquirable.MAX_TIMEOUT.plusMillis(1);
        assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "revoke(timeout too long)",
                () -> operator.revoke(name, 1, tooLong, OPERATOR)), tooLong.toString());
        throwsWithin(NullPointerException.class, BOUND, "revoke(null requester)",
                () -> operator.revoke(name, 1, second, null));
        throwsWithin(IllegalArgumentException.class, BOUND, "revoke(blank requester)",
                () -> operator.revoke(name, 1, second, " "));
        throwsWithin(IllegalArgumentException.class, BOUND, "revoke(requester with a line break)",
                () -> operator.revoke(name, 1, second, "alice\nbob"));
        operator.close();
        throwsWithin(IllegalStateException.class, BOUND, "revoke on a closed service",
                () -> operator.revoke(name, 1, second, OPERATOR));
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            assertEquals(List.of(), backend().residue(name), "nothing on the server");
        }
    }
}
