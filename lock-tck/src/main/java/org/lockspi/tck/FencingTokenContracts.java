package org.lockspi.tck;

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

/**
 * §13 Fencing tokens: every new holder of a lock gets a token greater than every earlier holder's, whoever the
 * clients are, across server restarts, and after the lock's parent nodes were removed and created again (where
 * a token taken from a ZooKeeper sequence number would start again at zero).
 */
public interface FencingTokenContracts extends TckContext {

    @Test
    @Timeout(60)
    @DisplayName("§13.1 mutex: tokens strictly increase over successive holders from several clients")
    default void mutexTokensIncrease() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        tokensIncreaseAcrossClients("mutex");
    }

    @Test
    @Timeout(60)
    @DisplayName("§13.2 non-reentrant mutex: tokens strictly increase over successive holders from several clients")
    default void nonReentrantMutexTokensIncrease() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        tokensIncreaseAcrossClients("non-reentrant");
    }

    @Test
    @Timeout(60)
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

    @Test
    @Timeout(60)
    @DisplayName("§13.4 mutex: tokens keep increasing after the lock's empty parent nodes were removed")
    default void mutexTokensIncreaseAfterParentRemoval() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.EMPTY_STATE_REMOVAL);
        tokensIncreaseAfterParentRemoval("mutex");
    }

    @Test
    @Timeout(60)
    @DisplayName("§13.5 non-reentrant mutex: tokens keep increasing after the lock's empty parent nodes were removed")
    default void nonReentrantTokensIncreaseAfterParentRemoval() throws InterruptedException {
        requireFeature(LockFeature.FENCING_TOKENS);
        requireFeature(LockFeature.NON_REENTRANT_MUTEX);
        requireCapability(TckBackend.Capability.EMPTY_STATE_REMOVAL);
        tokensIncreaseAfterParentRemoval("non-reentrant");
    }

    @Test
    @Timeout(60)
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
