package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.redis.RedisFairLockProvider;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.redis.recipe.tck.RedisFixture;
import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.Workers;

/**
 * Revocation (spec §27) across the client libraries of the Redis recipe: a holder on one library
 * ({@code revocable=true}), an operator and a waiter on the other, plain and first come first served, on one real
 * Redis. Each round the operator revokes the holder's mutex by its token: the holder's lease is {@code LOST} when
 * {@code revoke} returns, its listener told, and the waiter gets the lock with a greater token while the holder's
 * lease reads {@code LOST}; nothing of the lock is left once the waiter releases. The figures (the request to the
 * holder's {@code LOST}, as its listener hears it) are printed, not asserted beyond the providers' bound, half the
 * lease time.
 */
@Timeout(120)
class RevocationInteropTest {
    private static final int ROUNDS = 10;
    private static final Duration BOUND = RedisRecipeTck.LEASE_TIME.dividedBy(2);
    private static final AtomicInteger NAMES = new AtomicInteger();

    @RegisterExtension
    static final RedisFixture redis = new RedisFixture();

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of(new RedisLockProvider(), new RedisLettuceLockProvider()),
                Arguments.of(new RedisLettuceLockProvider(), new RedisLockProvider()),
                Arguments.of(new RedisFairLockProvider(), new RedisLettuceFairLockProvider()),
                Arguments.of(new RedisLettuceFairLockProvider(), new RedisFairLockProvider()));
    }

    @ParameterizedTest(name = "{0} holds, {1} revokes and waits")
    @MethodSource("pairs")
    void oneLibraryRevokesTheOthersHolder(LockProvider holding, LockProvider revoking) throws Exception {
        LockService holder = redis.open(holding, RedisRecipeTck.PARAMETERS + "&" + Locks.REVOCABLE_PARAMETER + "=true");
        LockService operator = redis.open(revoking);
        LockService waiter = redis.open(revoking);
        List<Long> lostMillis = new ArrayList<>();
        try (Workers workers = new Workers(1)) {
            for (int round = 0; round < ROUNDS; round++) {
                String name = "revoke-interop-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
                Lease lease = holder.mutex(name).acquire(Duration.ofSeconds(10));
                AtomicLong lostAt = new AtomicLong();
                CountDownLatch lost = new CountDownLatch(1);
                lease.addListener((l, previous, current) -> {
                    if (current == LeaseState.LOST) {
                        lostAt.set(System.nanoTime());
                        lost.countDown();
                    }
                });
                Future<long[]> waiting = workers.submit(() -> {
                    Lease got = waiter.mutex(name).acquire(Duration.ofSeconds(20));
                    LeaseState holderThen = lease.state();
                    long token = got.fencingToken();
                    got.release();
                    return new long[] {holderThen.ordinal(), token};
                });
                long token = lease.fencingToken();
                Poll.until("the waiter's mark on '" + name + "'", 1, () -> operator.inspect(name).waiters(),
                        Duration.ofSeconds(5));
                long asked = System.nanoTime();
                assertTrue(operator.revoke(name, token, BOUND.plusSeconds(2), "interop-test"),
                        "revoke found the holder with token " + token);
                assertEquals(LeaseState.LOST, lease.state(), "the holder's lease once revoke returned");
                assertTrue(lost.await(2, TimeUnit.SECONDS), "the holder's listener told LOST");
                long took = TimeUnit.NANOSECONDS.toMillis(lostAt.get() - asked);
                assertTrue(took <= BOUND.toMillis(), "LOST " + took + " ms after the request, beyond " + BOUND);
                lostMillis.add(took);
                long[] got = waiting.get(10, TimeUnit.SECONDS);
                assertEquals(LeaseState.LOST, LeaseState.values()[(int) got[0]],
                        "the holder's lease when the waiter got the lock");
                assertTrue(got[1] > token, "the waiter's token " + got[1] + " above the revoked " + token);
                lease.release(); // late, of a lost lease: no exception
                assertEquals(List.of(), redis.server().residue(name), "nothing of '" + name + "' left");
                assertFalse(operator.revoke(name, token, Duration.ofSeconds(1), "interop-test"),
                        "the revoked token, once more");
            }
        }
        Collections.sort(lostMillis);
        System.out.printf("[revocation] %s holds, %s revokes: request -> holder LOST in %d ms median, %d ms max "
                + "(%d rounds)%n", holding.name(), revoking.name(), lostMillis.get(ROUNDS / 2),
                lostMillis.get(ROUNDS - 1), ROUNDS);
    }
}
