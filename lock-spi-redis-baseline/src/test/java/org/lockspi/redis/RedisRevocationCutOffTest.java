package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.redis.recipe.tck.RedisFixture;
import org.lockspi.redis.recipe.tck.RedisRecipeTck;
import org.lockspi.tck.internal.Poll;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.support.TcpProxy;

/**
 * Revocation (spec §27) of a holder that cannot hear it: the holder ({@code revocable=true}) reaches the real Redis
 * through a TCP proxy that is then black-holed. The operator's request is written, but nobody frees the lock for
 * the holder: {@code revoke} times out, another client's {@code tryAcquire()} stays empty, and the lock passes on only
 * when the holder's key expires (its lease time after its last renewal), by which time the holder's own lease reads
 * {@code LOST}; the next token is greater, and once the holder's lease time is over the request leaves nothing behind.
 */
@Timeout(60)
class RedisRevocationCutOffTest {
    @RegisterExtension
    static final RedisFixture redis = new RedisFixture();

    @Test
    void aHolderCutOffKeepsTheLockUntilItsLeaseEnds() throws Exception {
        String name = "revoke-cut-off-" + ProcessHandle.current().pid();
        String uri = redis.server().uri();
        LockService operator = redis.open(new RedisLockProvider());
        LockService other = redis.open(new RedisLockProvider());
        try (TcpProxy proxy = TcpProxy.inFrontOf(uri);
             LockService holder = Locks.open(proxy.rewrite(uri) + "?" + RedisRecipeTck.PARAMETERS + "&"
                     + Locks.REVOCABLE_PARAMETER + "=true", new RedisLockProvider())) {
            Lease lease = holder.mutex(name).acquire(Duration.ofSeconds(10));
            StateRecorder recorder = new StateRecorder();
            lease.addListener(recorder);
            long token = lease.fencingToken();
            proxy.blackHole(true);

            assertThrows(LockTimeoutException.class, () -> operator.revoke(name, token, Duration.ofSeconds(1),
                    "cut-off-test"), "revoke of a holder that cannot hear it waits out its timeout");
            assertTrue(other.mutex(name).tryAcquire().isEmpty(), "the lock is still the cut-off holder's");
            assertTrue(operator.inspect(name).holders().stream()
                    .anyMatch(h -> h.fencingToken().orElse(-1) == token), "the holder still shown");

            Lease next = other.mutex(name).acquire(RedisRecipeTck.LEASE_TIME.plusSeconds(5));
            LeaseState holderThen = lease.state();
            assertEquals(LeaseState.LOST, holderThen, "the cut-off holder's lease when the lock passed on");
            assertTrue(next.fencingToken() > token, "the next token " + next.fencingToken() + " above " + token);
            assertTrue(recorder.changes().get(recorder.changes().size() - 1).endsWith("->LOST"),
                    "the holder's listener told LOST: " + recorder.changes());
            next.release();
            Poll.until("what is left of '" + name + "'", List.of(), () -> redis.server().residue(name),
                    Duration.ofSeconds(2));

            proxy.heal();
            lease.release(); // late, of a lost lease: no exception, nothing of the next holder's touched
        }
    }
}
