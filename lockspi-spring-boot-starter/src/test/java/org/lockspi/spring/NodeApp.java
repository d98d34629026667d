package org.lockspi.spring;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * One node of the application under test: a Spring Boot application with scheduled jobs under
 * {@link ScheduledLock} (switched on by {@code test.job}) and a {@link Locked} service. The runs of every node in
 * the JVM go to {@link #RUNS}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class NodeApp {

    /** One run of a job on one node. */
    static final class Run {
        final String node;
        final String job;
        final long startNanos = System.nanoTime();
        final long startMillis = System.currentTimeMillis();
        volatile long endNanos;
        volatile boolean interrupted;

        Run(String node, String job) {
            this.node = node;
            this.job = job;
        }

        @Override
        public String toString() {
            return job + "@" + node + "[" + startMillis % 100_000 + "ms" + (interrupted ? ", interrupted" : "") + "]";
        }
    }

    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    /** Every second on the wall clock, on both nodes at once: lock-at-least keeps the second node out. */
    public static class FastJob {
        @Value("${test.node}")
        String node;

        @Scheduled(cron = "* * * * * *")
        @ScheduledLock(name = "jobs/fast", lockAtMostFor = "10s", lockAtLeastFor = "800ms")
        public void run() {
            Run run = new Run(node, "fast");
            RUNS.add(run);
            run.endNanos = System.nanoTime();
        }
    }

    /** Hangs until interrupted: lock-at-most frees the lock and interrupts it; then cleans up for 1 s. */
    public static class HungJob {
        @Value("${test.node}")
        String node;

        @Scheduled(fixedDelay = 100)
        @ScheduledLock(name = "jobs/hung", lockAtMostFor = "1500ms")
        public void run() {
            Run run = new Run(node, "hung");
            RUNS.add(run);
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                run.interrupted = true;
                run.endNanos = System.nanoTime();
                try {
                    Thread.sleep(1000); // a slow clean-up, without the lock: this node does not ask again for 1 s
                } catch (InterruptedException again) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Every 100 ms, under a scheduled lock and under a skipping {@code @Locked}: the runs of an outage. */
    public static class SteadyJobs {
        @Value("${test.node}")
        String node;

        @Scheduled(fixedDelay = 100)
        @ScheduledLock(name = "jobs/steady", lockAtMostFor = "10s")
        public void scheduled() {
            RUNS.add(new Run(node, "steady"));
        }

        @Scheduled(fixedDelay = 100)
        @Locked(value = "jobs/steady-locked", ifLocked = Locked.IfLocked.SKIP)
        public void locked() {
            RUNS.add(new Run(node, "steady-locked"));
        }
    }

    /** Locked methods named from their arguments. */
    public static class Orders {
        @Locked(value = "orders/#{#id}", waitFor = "200ms", ifLocked = Locked.IfLocked.SKIP)
        public String billOrSkip(String id) {
            return "billed " + id;
        }

        @Locked(value = "orders/#{#id}", ifLocked = Locked.IfLocked.SKIP)
        public String billOrSkipAtOnce(String id) {
            return "billed " + id;
        }

        @Locked(value = "orders/#{#p0}", waitFor = "200ms")
        public String bill(String id) {
            return "billed " + id;
        }

        @Locked("orders/#{#noSuchArgument}")
        public String misnamed(String id) {
            return "ran " + id;
        }
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "fast")
    FastJob fastJob() {
        return new FastJob();
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "hung")
    HungJob hungJob() {
        return new HungJob();
    }

    @Bean
    @ConditionalOnProperty(name = "test.job", havingValue = "steady")
    SteadyJobs steadyJobs() {
        return new SteadyJobs();
    }

    @Bean
    Orders orders() {
        return new Orders();
    }
}
