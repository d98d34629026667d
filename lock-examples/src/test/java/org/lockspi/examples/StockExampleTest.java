package org.lockspi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The stock example end to end: worker processes, an H2 server, a lock server, all started by the example. The
 * full scenario is 15 workers for 10 items; the tests run a smaller one to stay fast.
 */
class StockExampleTest {

    @Test
    void withTheLockNothingIsOversoldOnZooKeeper() {
        StockExample.Outcome outcome = run("--workers=8", "--stock=5");
        assertEquals("zookeeper-raw", outcome.provider(), "the provider of highest priority for zookeeper://");
        assertClean(outcome, 5);
    }

    @Test
    void withTheLockNothingIsOversoldOnRedis() {
        StockExample.Outcome outcome = run("--workers=5", "--stock=3", "--redis");
        assertEquals("redis-baseline", outcome.provider());
        assertClean(outcome, 3);
    }

    @Test
    void theProviderIsChosenByTheUriAlone() {
        StockExample.Outcome outcome = run("--workers=3", "--stock=2", "--provider=zkclient");
        assertEquals("zkclient", outcome.provider());
        assertClean(outcome, 2);
    }

    /** Without the lock the race usually oversells, but it is a race: the test checks that it is reported. */
    @Test
    void withoutTheLockTheOutcomeIsReported() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        StockExample.Outcome outcome;
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            outcome = StockExample.run(out, "--workers=6", "--stock=4", "--no-lock");
        }
        String printed = text.toString(StandardCharsets.UTF_8);
        System.out.print(printed);
        StockReport report = outcome.report();
        assertEquals("none", outcome.provider());
        assertTrue(printed.contains(report.summary()), printed);
        assertTrue(printed.contains("lock:       none (--no-lock)"), printed);
        // every worker bought once while it read a positive stock: at least the stock, at most one each
        assertTrue(report.sold() >= 4 && report.sold() <= 6, report.summary());
        assertEquals(report.sold() - 4, report.oversold(), report.summary());
        assertTrue(report.sales().stream().allMatch(s -> s.token() == null && s.provider().equals("none")));
    }

    private static StockExample.Outcome run(String... args) {
        StockExample.Outcome outcome = StockExample.run(System.out, args);
        assertTrue(outcome.locked());
        return outcome;
    }

    private static void assertClean(StockExample.Outcome outcome, int stock) {
        StockReport report = outcome.report();
        assertEquals(stock, report.sold(), report.summary());
        assertEquals(0, report.remaining(), report.summary());
        assertEquals(0, report.oversold(), report.summary());
        assertEquals(0, report.lostUpdates(), report.summary());
        assertEquals(0, report.overlaps(), report.summary());
        assertTrue(report.tokensIncreasing(), "fencing tokens in the order of sale: " + report.sales());
        assertTrue(report.sales().stream().allMatch(s -> s.provider().equals(outcome.provider())));
    }
}
