package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.StateRecorder;
import org.lockspi.tck.redis.SentinelRedisBackend;

/**
 * What a Sentinel failover does to held locks: a master, a replica and three sentinels ({@code
 * down-after-milliseconds} 1 s) as separate {@code redis-server} processes; a client holds locks, the master is
 * killed with {@code SIGKILL}, the sentinels promote the replica. Every lease must end HELD or LOST, and the server
 * must agree with it: a HELD lease's lock cannot be taken by another client, a LOST one can, and then with a larger
 * fencing token, so a resource that refuses stale tokens refuses the old holder. How many were lost, and how long
 * each step took, is printed (docs/redis-failover.md quotes it).
 *
 * <ul>
 *   <li>{@link #killedMaster()}: {@value #LOCKS} locks taken one after another, the master killed right after the
 *       last answer; {@code lockspi.redis.failoverTrials} trials (5 by default), the killed server started again
 *       as a replica between them.</li>
 *   <li>{@link #replicationCutBeforeTheKill()}: the replication stream black-holed (the replica stays connected
 *       and eligible), then locks taken, then the master killed: the window asynchronous replication leaves, made
 *       wide. Every lock taken after the cut must be reported LOST.</li>
 * </ul>
 */
@Timeout(300)
class RedisSentinelFailoverTopologyTest {
    static final int LOCKS = 10;
    private static final int TRIALS = Integer.getInteger("lockspi.redis.failoverTrials", 5);
    /** Long enough to outlive a failover: renewals every 3.3 s, valid for 9.9 s after the last one. */
    private static final String PARAMETERS = "leaseTime=10s&connectTimeout=2s&socketTimeout=1s";
    /**
     * The checking client lives through the same failover: its connection is suspended too, and it comes back when
     * its own probe reaches the new master, which may be a few ms after the holder's leases settled. It waits that
     * out instead of failing fast (the default failFast is 250 ms).
     */
    private static final String CHECKER = PARAMETERS + "&failFast=10s";
    private static final Duration DOWN_AFTER = Duration.ofMillis(1000);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final long MS = 1_000_000L;

    /** One held lock: its lease, the recorder attached before the kill, and the token it was granted. */
    private record Held(String name, Lease lease, StateRecorder recorder, long token, AtomicLong uncertainAt,
                        AtomicLong settledAt) {
    }

    /** The figures of one kill. */
    private record Figures(long failoverMs, long firstUncertainMs, long lastSettledMs, int held, int lost) {
    }

    @Test
    void killedMaster() {
        List<Figures> figures = new ArrayList<>();
        try (SentinelRedisBackend redis = SentinelRedisBackend.start(DOWN_AFTER, Duration.ofSeconds(2), false)) {
            for (int trial = 0; trial < TRIALS; trial++) {
                try (LockService holder = open(redis, PARAMETERS); LockService other = open(redis, CHECKER)) {
                    List<Held> held = acquire(holder, "failover-" + trial + "-");
                    long killed = System.nanoTime();
                    InetSocketAddress old = redis.killMaster();
                    figures.add(observe(redis, old, killed, held, other));
                    redis.startKilled(old, Duration.ofSeconds(30));
                }
            }
        }
        print("kill -9 of the master right after the last acquisition", figures);
    }

    @Test
    void replicationCutBeforeTheKill() {
        Figures figures;
        try (SentinelRedisBackend redis = SentinelRedisBackend.start(DOWN_AFTER, Duration.ofSeconds(60), true);
             LockService holder = open(redis, PARAMETERS); LockService other = open(redis, CHECKER)) {
            List<Held> before = acquire(holder, "replicated-");
            // Every write so far reached the replica: WAIT returns the number of replicas that acknowledged it.
            assertEquals(1L, redis.command("WAIT", "1", "5000"), "the replica acknowledged the first locks");
            redis.cutReplication();
            List<Held> after = acquire(holder, "unreplicated-");
            long killed = System.nanoTime();
            InetSocketAddress old = redis.killMaster();
            List<Held> all = new ArrayList<>(before);
            all.addAll(after);
            figures = observe(redis, old, killed, all, other);
            for (Held h : before) {
                assertEquals(LeaseState.HELD, h.lease.state(), h.name + ": replicated before the cut: "
                        + h.recorder.changes());
            }
            for (Held h : after) {
                assertEquals(LeaseState.LOST, h.lease.state(), h.name + ": taken after the cut: "
                        + h.recorder.changes());
            }
        }
        print("replication cut, then " + LOCKS + " more locks, then kill -9 of the master", List.of(figures));
    }

    private static LockService open(SentinelRedisBackend redis, String parameters) {
        return Locks.open(redis.uri() + "?" + parameters, new RedisLockProvider());
    }

    private static List<Held> acquire(LockService service, String prefix) {
        List<Held> held = new ArrayList<>();
        for (int i = 0; i < LOCKS; i++) {
            String name = prefix + i;
            Lease lease = service.mutex(name).tryAcquire().orElseThrow(() -> new AssertionError(name + " is free"));
            StateRecorder recorder = new StateRecorder();
            AtomicLong uncertainAt = new AtomicLong();
            AtomicLong settledAt = new AtomicLong();
            lease.addListener((l, previous, current) -> {
                (current == LeaseState.UNCERTAIN ? uncertainAt : settledAt).set(System.nanoTime());
            });
            lease.addListener(recorder);
            held.add(new Held(name, lease, recorder, lease.fencingToken(), uncertainAt, settledAt));
        }
        return held;
    }

    /**
     * Waits for the failover and for every lease to settle, then checks each against the server through another
     * client: HELD means the other cannot take it; LOST means it can, with a larger fencing token.
     */
    private static Figures observe(SentinelRedisBackend redis, InetSocketAddress old, long killed, List<Held> held,
                                   LockService other) {
        redis.awaitFailover(old, SETTLE);
        long failover = System.nanoTime() - killed;
        long firstUncertain = Long.MAX_VALUE;
        long lastSettled = 0;
        int lost = 0;
        for (Held h : held) {
            LeaseState settled = h.recorder.awaitChangeToAny(SETTLE, LeaseState.HELD, LeaseState.LOST);
            if (settled == LeaseState.HELD && h.lease.state() == LeaseState.UNCERTAIN) {
                settled = h.recorder.awaitChangeToAny(SETTLE, LeaseState.LOST); // a later renewal decides
            }
            assertTrue(h.recorder.changes().get(0).startsWith("HELD->"), h.name + ": " + h.recorder.changes());
            if (h.uncertainAt.get() != 0) {
                firstUncertain = Math.min(firstUncertain, h.uncertainAt.get() - killed);
            }
            lastSettled = Math.max(lastSettled, h.settledAt.get() - killed);
        }
        for (Held h : held) {
            LeaseState state = h.lease.state();
            Optional<Lease> taken = other.mutex(h.name).tryAcquire();
            try {
                if (state == LeaseState.HELD) {
                    assertTrue(taken.isEmpty(), h.name + " is HELD, yet another client took it");
                } else {
                    assertEquals(LeaseState.LOST, state, h.name + ": " + h.recorder.changes());
                    lost++;
                    assertTrue(taken.isPresent(), h.name + " is LOST, yet another client cannot take it");
                    assertTrue(taken.get().fencingToken() > h.token, h.name + ": the new holder's token "
                            + taken.get().fencingToken() + " is not above the lost holder's " + h.token);
                }
            } finally {
                taken.ifPresent(Lease::close);
            }
        }
        return new Figures(failover / MS, firstUncertain == Long.MAX_VALUE ? -1 : firstUncertain / MS,
                lastSettled / MS, held.size() - lost, lost);
    }

    private static void print(String scenario, List<Figures> figures) {
        StringBuilder b = new StringBuilder("\n==== Redis Sentinel failover: " + scenario + " ====\n");
        b.append("| trial | kill -> first UNCERTAIN (ms) | kill -> sentinels name the new master (ms) "
                + "| kill -> last lease HELD or LOST (ms) | HELD | LOST |\n");
        int i = 0;
        for (Figures f : figures) {
            b.append("| ").append(++i).append(" | ").append(f.firstUncertainMs).append(" | ").append(f.failoverMs)
                    .append(" | ").append(f.lastSettledMs)
                    .append(" | ").append(f.held).append(" | ").append(f.lost).append(" |\n");
        }
        System.out.println(b);
    }
}
