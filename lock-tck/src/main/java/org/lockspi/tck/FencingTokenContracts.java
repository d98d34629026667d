package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.requireSomeKind;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.process.HolderMain;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §13 Fencing tokens: every new holder of a lock gets a token greater than every earlier holder's, whoever the
 * clients are, across server restarts, and after the lock's parent nodes were removed and created again (where
 * a token taken from a ZooKeeper sequence number would start again at zero).
 */
@Inapplicable(kinds = {THREAD_FREE, ASYNC}, reason = Why.SAME_REQUEST)
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface FencingTokenContracts extends TckContext {

    /**
     * Three clients take turns holding one mutex, three rounds: each holder's {@code fencingToken()} is greater than
     * the previous holder's.
     */
    @Test
    @Timeout(60)
    @Diagnosis("BackendLease.fencingToken() must come from a counter the server raises with every grant of the lock "
            + "(ZooKeeper: the node's czxid; Redis: a per-lock counter raised in the acquire script), not a "
            + "client-side counter, a sequence suffix or this JVM's clock.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§13.2", kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§13.6", kinds = {READ, WRITE, SEMAPHORE})
    @DisplayName("§13.1 mutex: tokens strictly increase over successive holders from several clients")
    default void mutexTokensIncrease() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        tokensIncreaseAcrossClients("mutex");
    }

    /**
     * §13.1 for the non-reentrant mutex.
     */
    @Test
    @Timeout(60)
    @Diagnosis("As §13.1 in the non-reentrant mutex's grant path: in Curator's semaphore layout the token must be the "
            + "czxid of the lease node, not of the internal lock node and not a sequence number.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§13.1", kinds = MUTEX)
    @CoveredBy(value = "§13.6", kinds = {READ, WRITE, SEMAPHORE})
    @DisplayName("§13.2 non-reentrant mutex: tokens strictly increase over successive holders from several clients")
    default void nonReentrantMutexTokensIncrease() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        tokensIncreaseAcrossClients("non-reentrant");
    }

    /**
     * (RESTART) A client holds and releases a mutex twice; the server restarts with its data; a client opened after the
     * restart acquires, and its token is greater than every token before the restart.
     */
    @Test
    @Timeout(60)
    @Diagnosis("The token's counter must outlive a restart: a zxid does (ZooKeeper starts a new epoch); a Redis "
            + "counter only with persistence, so floor it by the server clock, max(counter + 1, TIME in "
            + "microseconds); a counter held in the provider's memory does not.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE}, reason = "a restart keeps or loses the "
            + "server's counters for every kind alike: §13.6 takes every kind past 2^32, §18.5 through a restart that "
            + "loses them")
    @DisplayName("§13.3 mutex: tokens keep increasing across a server restart")
    default void tokensIncreaseAcrossRestart() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.RESTART);
        String name = uniqueName("fencing-restart");
        long before = rounds(List.of(openClient()), "mutex", name, 2, Long.MIN_VALUE);
        backend().restart();
        // a client opened now has connected to the restarted server
        long after = takeToken(openClient(), "mutex", name);
        assertTrue(after > before, "token after the restart " + after + " > token before it " + before);
    }

    /**
     * (EMPTY_STATE_REMOVAL) A client holds and releases a mutex three times ((INSPECT) nothing is left), and
     * {@link TckBackend#removeEmptyState(String)} removes what a reaper would (ZooKeeper: the empty parent nodes); two
     * clients then acquire in turn, each with a token greater than every earlier one.
     */
    @Test
    @Timeout(60)
    @Diagnosis("A token taken from state removed with the lock starts again: a ZooKeeper sequence suffix restarts at "
            + "0 under a recreated parent (use the czxid), a Redis counter key that expires needs the server-clock "
            + "floor.")
    @Covers(kinds = MUTEX)
    @CoveredBy(value = "§13.5", kinds = NON_REENTRANT_MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "the read-write layout's parent is the mutex's (one lock node per "
            + "holder under the lock's path; one key in Redis)")
    @Inapplicable(kinds = SEMAPHORE, reason = "the semaphore's layout is the non-reentrant mutex's (locks and leases "
            + "below the lock), §13.5")
    @DisplayName("§13.4 mutex: tokens keep increasing after the lock's empty parent nodes were removed")
    default void mutexTokensIncreaseAfterParentRemoval() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.EMPTY_STATE_REMOVAL);
        tokensIncreaseAfterParentRemoval("mutex");
    }

    /**
     * (EMPTY_STATE_REMOVAL) §13.4 for the non-reentrant mutex.
     */
    @Test
    @Timeout(60)
    @Diagnosis("As §13.4 for the non-reentrant mutex's nodes or keys: Curator's semaphore layout recreates its leases "
            + "and locks parents, so a token from the lease node's sequence restarts at 0; take the czxid.")
    @Covers(kinds = NON_REENTRANT_MUTEX)
    @CoveredBy(value = "§13.4", kinds = MUTEX)
    @Inapplicable(kinds = {READ, WRITE}, reason = "the read-write layout's parent is the mutex's (one lock node per "
            + "holder under the lock's path; one key in Redis)")
    @Inapplicable(kinds = SEMAPHORE, reason = "the semaphore's layout is the non-reentrant mutex's (locks and leases "
            + "below the lock), §13.5")
    @DisplayName("§13.5 non-reentrant mutex: tokens keep increasing after the lock's empty parent nodes were removed")
    default void nonReentrantTokensIncreaseAfterParentRemoval() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.EMPTY_STATE_REMOVAL);
        tokensIncreaseAfterParentRemoval("non-reentrant");
    }

    /**
     * (COUNTERS_ABOVE_32_BITS) For every declared kind (the semaphore with one permit) and the read half, two clients
     * take turns, two rounds, on a backend whose counters start above 2^32: every token is above 2^32 and greater than
     * the one before.
     */
    @Test
    @Timeout(60)
    @Diagnosis("The token was cut to 32 bits on its way to BackendLease.fencingToken(): look for an int (a cast, "
            + "Integer.parseInt, the low word of a zxid) or a Lua number printed in its default format; keep it a "
            + "long end to end.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE, READ})
    @DisplayName("§13.6 every kind: on a backend whose counters start above 2^32, every token is above 2^32 and "
            + "tokens still increase")
    default void tokensAboveTwoToThe32() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireCapability(TckBackend.Capability.COUNTERS_ABOVE_32_BITS);
        List<String> kinds = new ArrayList<>();
        for (Kind kind : requireSomeKind(provider())) {
            kinds.add(kind.toString());
        }
        if (provider().features().contains(LockFeature.READ_WRITE)) {
            kinds.add("read");
        }
        List<LockService> clients = List.of(openClient(), openClient());
        for (String kind : kinds) {
            String name = uniqueName("fencing-high-" + kind);
            long last = TckBackend.COUNTER_FLOOR;
            List<Long> tokens = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (LockService client : clients) {
                    long token;
                    try (Lease lease = highKind(client, kind, name).acquire(Duration.ofSeconds(10))) {
                        token = lease.fencingToken();
                    }
                    tokens.add(token);
                    assertTrue(token > last, kind + ": tokens of successive holders of '" + name + "' must be above "
                            + "2^32 = " + TckBackend.COUNTER_FLOOR + " and increase (a token cut to 32 bits "
                            + "is not): " + tokens);
                    last = token;
                }
            }
        }
    }

    private static Acquirable highKind(LockService client, String kind, String name) {
        return "read".equals(kind) ? client.readWriteLock(name).readLock()
                : Kind.valueOf(kind.toUpperCase(Locale.ROOT).replace('-', '_')).of(client, name);
    }

    private void tokensIncreaseAcrossClients(String kind) throws InterruptedException {
        String name = uniqueName("fencing");
        rounds(List.of(openClient(), openClient(), openClient()), kind, name, 3, Long.MIN_VALUE);
    }

    private void tokensIncreaseAfterParentRemoval(String kind) throws InterruptedException {
        String name = uniqueName("fencing-parents");
        LockService client = openClient();
        // several holders first, so that a sequence number would be visibly higher than after the removal
        long before = rounds(List.of(client), kind, name, 3, Long.MIN_VALUE);
        if (backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            assertEquals(List.of(), backend().residue(name), "no entry left before the removal");
        }
        backend().removeEmptyState(name);
        long after = rounds(List.of(client, openClient()), kind, name, 1, before);
        assertTrue(after > before, "token after the parents were removed " + after + " > token before " + before);
    }

    /**
     * Every client in turn acquires and releases, {@code rounds} times; asserts each token is greater than the last.
     *
     * @return the last token
     */
    private long rounds(List<LockService> clients, String kind, String name, int rounds, long floor)
            throws InterruptedException {
        long last = floor;
        List<Long> tokens = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (LockService client : clients) {
                long token = takeToken(client, kind, name);
                tokens.add(token);
                assertTrue(token > last, "tokens of successive holders of '" + name + "' must increase: " + tokens
                        + (floor == Long.MIN_VALUE ? "" : " (after " + floor + ")"));
                last = token;
            }
        }
        return last;
    }

    private long takeToken(LockService client, String kind, String name) throws InterruptedException {
        try (Lease lease = HolderMain.lock(client, name, kind).acquire(Duration.ofSeconds(10))) {
            return lease.fencingToken();
        }
    }
}
