package org.lockspi.bench.internal;

import java.time.Duration;

/**
 * How much the curves measure. {@code full} is the report's run, {@code quick} a first look, {@code smoke} only
 * proves that every point can be produced (seconds per curve).
 *
 * @param mode            the mode's name
 * @param clients         the contending-clients curve's K values (one service each, one thread each, one lock)
 * @param locks           the distinct-locks curve's L values (one service, {@code workers} threads)
 * @param workers         the threads of the distinct-locks curve's one service
 * @param rounds          interleaved rounds of both throughput curves, after a warm-up block of half a block
 * @param block           how long each throughput block runs
 * @param heldZooKeeper   the held-leases curve's N values on ZooKeeper
 * @param heldRedis       the held-leases curve's N values on Redis
 * @param heldJdbc        the held-leases curve's N values on JDBC (PostgreSQL)
 * @param heldCap         the longest taking N leases may last before it is cut short and reported so
 * @param waiters         the hand-off curve's N values (waiting threads of one service on one lock)
 * @param threadOwnedZkMax the largest N of Curator's thread-owned waiters (each waiter its own server node listing
 *                        up to N siblings: quadratic in N; a provider's service queues its threads locally)
 * @param handoffSamples  hand-offs to collect per point, at least (small N drain repeatedly)
 * @param drainCap        the longest one drain may take before it is cut short and reported so
 * @param longRun         the long run's length (every provider at once)
 * @param longRunSamples  samples over the long run (every 10 s in the full run, 5 s in the quick one; the first
 *                        minute's are the baseline)
 */
public record CurveSettings(String mode, int[] clients, int[] locks, int workers, int rounds, Duration block,
                            int[] heldZooKeeper, int[] heldRedis, int[] heldJdbc, Duration heldCap,
                            int[] waiters, int threadOwnedZkMax, int handoffSamples, Duration drainCap,
                            Duration longRun, int longRunSamples) {

    public static CurveSettings full(Duration longRun) {
        return new CurveSettings("full", new int[] {1, 2, 4, 8, 16, 32, 64}, new int[] {1, 10, 100, 1_000, 10_000}, 10,
                3, Duration.ofMillis(800),
                new int[] {1_000, 10_000, 100_000}, new int[] {1_000, 10_000, 100_000}, new int[] {1_000, 10_000},
                Duration.ofSeconds(300),
                new int[] {1, 10, 100, 1_000, 10_000}, 1_000, 200, Duration.ofSeconds(120),
                longRun, (int) Math.max(4, longRun.toSeconds() / 10));
    }

    public static CurveSettings quick(Duration longRun) {
        return new CurveSettings("quick", new int[] {1, 4, 16, 64}, new int[] {1, 10, 1_000, 10_000}, 10,
                1, Duration.ofMillis(500),
                new int[] {1_000}, new int[] {1_000, 10_000}, new int[] {1_000}, Duration.ofSeconds(60),
                new int[] {1, 100, 1_000}, 1_000, 50, Duration.ofSeconds(60),
                longRun, (int) Math.max(4, longRun.toSeconds() / 5));
    }

    public static CurveSettings smoke() {
        return new CurveSettings("smoke", new int[] {1, 2}, new int[] {1, 2, 20}, 2,
                1, Duration.ofMillis(150),
                new int[] {20}, new int[] {20}, new int[] {20}, Duration.ofSeconds(30),
                new int[] {1, 5}, 5, 5, Duration.ofSeconds(30),
                Duration.ofSeconds(2), 2);
    }

    /**
     * @param mode    full, quick or smoke
     * @param longRun the long run's length per provider; null for the mode's default (10 minutes in the full run,
     *                30 s in the quick one; 2 s in the smoke run, which ignores it)
     */
    public static CurveSettings of(String mode, Duration longRun) {
        switch (mode) {
            case "full":
                return full(longRun == null ? Duration.ofMinutes(10) : longRun);
            case "quick":
                return quick(longRun == null ? Duration.ofSeconds(30) : longRun);
            case "smoke":
                return smoke();
            default:
                throw new IllegalArgumentException("unknown mode, expected full, quick or smoke: " + mode);
        }
    }
}
