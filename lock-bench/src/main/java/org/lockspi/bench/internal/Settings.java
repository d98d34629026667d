package org.lockspi.bench.internal;

import java.time.Duration;

/**
 * How much to measure. {@code FULL} is the report's run (a few minutes), {@code QUICK} a first look (about a
 * minute; its virtual-thread drain has 1,000 waiters, the full run's 10,000), {@code SMOKE} only proves that every
 * row can be produced (seconds).
 *
 * @param mode              the mode's name
 * @param uncontendedRounds interleaved rounds of the uncontended cycle, after one warm-up round
 * @param zkCycles          cycles per block on ZooKeeper
 * @param redisCycles       cycles per block on Redis
 * @param blockCap          the longest an uncontended block runs, whatever its count, so a slow variant or a
 *                          loaded machine cannot stretch the run
 * @param warmup            whether a discarded warm-up round runs first in each scenario
 * @param clients           the K values of the contended scenario
 * @param contendedRounds   interleaved rounds per K
 * @param contendedBlock    how long each contended block runs
 * @param waiters           the N values of the draining-queue scenario
 * @param drainRounds       interleaved rounds per N
 * @param drainSamples      hand-offs to collect per variant and N per round, at least (N=1 drains repeat)
 * @param drainCap          the longest one drain may take before it is cut short and reported so
 * @param threads           threads on one lock object of one client
 * @param threadRounds      interleaved rounds of the many-threads scenario
 * @param threadBlock       how long each many-threads block runs
 * @param takeoverSamples   kills per provider
 * @param takeoverTimeout   the session timeout or lease time the killed holder runs with
 * @param zkTickTime        the ZooKeeper server's tick in ms
 * @param virtualWaiters    virtual threads queued on one lock object of one client (needs Java 21+)
 * @param virtualRounds     interleaved rounds of the virtual-thread drain
 * @param virtualCap        the longest one virtual-thread drain may take before it is cut short and reported so
 */
public record Settings(String mode, int uncontendedRounds, int zkCycles, int redisCycles, Duration blockCap, boolean warmup,
                       int[] clients, int contendedRounds, Duration contendedBlock,
                       int[] waiters, int drainRounds, int drainSamples, Duration drainCap,
                       int threads, int threadRounds, Duration threadBlock,
                       int takeoverSamples, Duration takeoverTimeout, int zkTickTime,
                       int virtualWaiters, int virtualRounds, Duration virtualCap) {

    public static Settings full() {
        return new Settings("full", 200, 10, 100, Duration.ofMillis(200), true,
                new int[] {2, 8, 32}, 3, Duration.ofMillis(1000),
                new int[] {1, 10, 100, 1000}, 2, 100, Duration.ofSeconds(60),
                200, 3, Duration.ofMillis(1500),
                2, Duration.ofSeconds(2), 500,
                10_000, 2, Duration.ofSeconds(180));
    }

    public static Settings quick() {
        return new Settings("quick", 60, 10, 100, Duration.ofMillis(200), true,
                new int[] {2, 8, 32}, 2, Duration.ofMillis(500),
                new int[] {1, 10, 100, 1000}, 1, 40, Duration.ofSeconds(30),
                200, 1, Duration.ofMillis(1000),
                1, Duration.ofSeconds(2), 500,
                1_000, 1, Duration.ofSeconds(60));
    }

    public static Settings smoke() {
        return new Settings("smoke", 1, 10, 50, Duration.ofMillis(300), false,
                new int[] {2}, 1, Duration.ofMillis(100),
                new int[] {1, 3}, 1, 3, Duration.ofSeconds(20),
                4, 1, Duration.ofMillis(100),
                1, Duration.ofSeconds(1), 500,
                100, 1, Duration.ofSeconds(20));
    }

    /** @return the settings of a mode named on the command line: full, quick or smoke */
    public static Settings of(String mode) {
        switch (mode) {
            case "full":
                return full();
            case "quick":
                return quick();
            case "smoke":
                return smoke();
            default:
                throw new IllegalArgumentException("unknown mode, expected full, quick or smoke: " + mode);
        }
    }
}
