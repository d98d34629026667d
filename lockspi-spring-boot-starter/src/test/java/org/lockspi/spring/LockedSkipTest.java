package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.inmemory.InMemoryLocks;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Locked(ifLocked = SKIP)} in an application on the in-memory provider, the lock held by another client:
 * without a {@code waitFor} it tries once and skips at once, whatever {@code lockspi.locked.wait-for} says; with
 * one it waits that long; each skip logs one line at DEBUG.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockedSkipTest {

    @Test
    void skipWithoutWaitForTriesOnceAndAnExplicitWaitForWaits(CapturedOutput output) throws Exception {
        String space = InMemoryLocks.newSpace();
        try (ConfigurableApplicationContext node = new SpringApplicationBuilder(NodeApp.class)
                .web(WebApplicationType.NONE)
                .properties("lockspi.uri=" + space, "lockspi.locked.wait-for=30s", "test.node=a", "test.job=none",
                        "logging.level.org.lockspi.spring=DEBUG", "spring.main.banner-mode=off")
                .run();
             LockService other = Locks.open(space)) {
            NodeApp.Orders orders = node.getBean(NodeApp.Orders.class);
            try (Lease held = other.mutex("orders/7").acquire(Duration.ofSeconds(5))) {
                long start = System.nanoTime();
                assertNull(orders.billOrSkipAtOnce("7"));
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                // the default wait is 30 s: a skip well under it did not wait for it
                assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "skipped without waiting: " + took);

                start = System.nanoTime();
                assertNull(orders.billOrSkip("7")); // waitFor = "200ms"
                took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(took.compareTo(Duration.ofMillis(200)) >= 0, "waited its waitFor: " + took);
            }
            assertEquals("billed 7", orders.billOrSkipAtOnce("7"), "runs once the lock is free");
            MeterRegistry registry = node.getBean(MeterRegistry.class);
            assertEquals(2, registry.find("lockspi.acquire").tags("lock", "orders/7", "outcome", "timed_out")
                    .timer().count(), "two attempts that did not acquire");
        }
        String[] skips = Arrays.stream(output.getOut().split("\\R"))
                .filter(l -> l.contains("skipped Orders.billOrSkip")).toArray(String[]::new);
        assertEquals(2, skips.length, String.join("\n", skips));
        for (String line : skips) {
            assertTrue(line.contains(" DEBUG ") && line.contains("lock 'orders/7' is held"), line);
        }
    }
}
