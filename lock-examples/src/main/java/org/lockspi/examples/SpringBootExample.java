package org.lockspi.examples;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.lockspi.spring.LockServiceHealthIndicator;
import org.lockspi.spring.Locked;
import org.lockspi.spring.ScheduledLock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Two nodes of one Spring Boot application (two application contexts, two LockServices) on a lock server
 * started here: a job scheduled every second on both runs on one node per second ({@link ScheduledLock} with
 * lock-at-least-for), a {@link Locked} method skips while the other node holds its lock, then each node's
 * metrics and health are printed.
 *
 * <p>Run with {@code ./mvnw -q -Pspring -pl lock-examples -am verify -DskipTests}; {@code -Dexec.args="--redis"}
 * for Redis, {@code --uri=URI} for a server of your own, {@code -Dlockspi.provider=curator} to pin a provider.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class SpringBootExample {
    private static final int RUNS = 5;
    private static final CountDownLatch REPORTS = new CountDownLatch(RUNS);

    /** The node's jobs and locked methods. */
    public static class Reports {
        @Value("${example.node}")
        String node;

        /** Fires at the top of every second on both nodes; the lock lets one of them run it. */
        @Scheduled(cron = "* * * * * *")
        @ScheduledLock(name = "reports/hourly", lockAtMostFor = "30s", lockAtLeastFor = "800ms")
        public void report() {
            System.out.printf("%s  report run by node %s%n", LocalTime.now().withNano(0), node);
            REPORTS.countDown();
        }

        /** Bills a customer, skipping (null) when another node is billing that customer. */
        @Locked(value = "customers/#{#customer}", waitFor = "100ms", ifLocked = Locked.IfLocked.SKIP)
        public String bill(String customer) {
            return "node " + node + " billed " + customer;
        }
    }

    @Bean
    Reports reports() {
        return new Reports();
    }

    /** The registry the starter binds the LockService to (an application with Actuator has one already). */
    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    /**
     * @param args {@code --uri=URI}, {@code --provider=NAME}, {@code --redis}, {@code --postgres}, {@code --h2};
     *             none for an embedded ZooKeeper
     * @throws Exception if the example fails; it then exits non-zero
     */
    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        if (System.getProperty(org.lockspi.Locks.PROVIDER_PROPERTY, "").isBlank()) {
            // the profile passes -Dlockspi.provider= empty when no provider is pinned; a system property would
            // hide the application's own lockspi.provider from Spring's environment
            System.clearProperty(org.lockspi.Locks.PROVIDER_PROPERTY);
        }
        ExampleArgs options = ExampleArgs.parse("SpringBootExample", args, ExampleBackend.OPTIONS,
                ExampleBackend.SWITCHES);
        try (ExampleBackend backend = ExampleBackend.start(options, "/spring", Duration.ofSeconds(5))) {
            System.out.println("lock server: " + backend.description());
            locks(backend).forEach((key, value) -> System.out.println(key + "=" + value));
            List<ConfigurableApplicationContext> nodes = new ArrayList<>();
            try {
                for (String node : List.of("A", "B")) {
                    nodes.add(new SpringApplicationBuilder(SpringBootExample.class)
                            .web(WebApplicationType.NONE)
                            .properties(locks(backend))
                            .properties(Map.of("example.node", node,
                                    "spring.application.name", "billing-" + node,
                                    "spring.main.banner-mode", "off", "logging.level.root", "warn"))
                            .run());
                }
                if (!REPORTS.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the report did not run " + RUNS + " times within 30 s");
                }
                Reports a = nodes.get(0).getBean(Reports.class);
                Reports b = nodes.get(1).getBean(Reports.class);
                String result = nodes.get(0).getBean(org.lockspi.spring.LockTemplate.class).executeLocked(
                        "customers/acme", lease -> "while A holds customers/acme, B's bill(\"acme\") returns "
                                + b.bill("acme"));
                System.out.println(result);
                System.out.println("afterwards: " + b.bill("acme") + "; " + a.bill("globex"));
                for (int i = 0; i < nodes.size(); i++) {
                    ConfigurableApplicationContext node = nodes.get(i);
                    MeterRegistry registry = node.getBean(MeterRegistry.class);
                    System.out.printf("node %s: report acquired %d, skipped %d; health %s%n", i == 0 ? "A" : "B",
                            count(registry, "acquired"), count(registry, "timed_out"),
                            node.getBean(LockServiceHealthIndicator.class).health());
                }
            } finally {
                nodes.forEach(ConfigurableApplicationContext::close);
            }
        }
    }

    /**
     * Where the locks are, as an application's configuration says it: {@code lockspi.uri}, or for a database
     * ({@code --postgres}, {@code --h2}) the application's own DataSource and {@code lockspi.provider=jdbc}.
     */
    static Map<String, Object> locks(ExampleBackend backend) {
        return backend.database().<Map<String, Object>>map(db -> Map.of(
                "spring.datasource.url", db.jdbcUrl(),
                "spring.datasource.username", db.user(),
                "lockspi.provider", "jdbc",
                "lockspi.parameters.leaseTime", "5s")).orElseGet(() -> Map.of("lockspi.uri", backend.uri()));
    }

    private static long count(MeterRegistry registry, String outcome) {
        Timer timer = registry.find("lockspi.acquire").tags("lock", "reports/hourly", "outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }
}
