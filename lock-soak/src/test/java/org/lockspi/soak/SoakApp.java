package org.lockspi.soak;

import java.time.Instant;
import org.lockspi.StopWork;
import org.lockspi.spring.Locked;
import org.lockspi.spring.ScheduledLock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

/**
 * The application under soak, as an application uses the starter: a {@link Work} bean whose {@code @Locked} methods
 * the load threads call, and a {@link Job} under {@code @ScheduledLock} that Spring's scheduler fires at the start
 * of every {@value #PERIOD_MILLIS} ms period of the wall clock, on every instance at the same instants (as a cron
 * expression does, at a finer grain than cron's seconds), so that each period is one run across the instances.
 * Every instance is given the soak's {@link Journal} as a bean, and its name as {@code soak.instance}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class SoakApp {
    /** The job's period. */
    static final long PERIOD_MILLIS = 200;
    /** The job's lockAtLeastFor: a little below the period, as the README advises for jobs fired everywhere at once. */
    static final long JOB_AT_LEAST_MILLIS = 185;
    static final String JOB_AT_LEAST = JOB_AT_LEAST_MILLIS + "ms";
    /** The wait of both {@code @Locked} methods. */
    static final String WAIT = "200ms";
    /** How long an order's locked work takes. */
    static final long ORDER_MILLIS = 5;
    /** How long the batch's locked work runs at most, unless its lease is lost first. */
    static final long BATCH_MILLIS = 60_000;

    /** The locked methods the load threads call. */
    public static class Work {
        private final Journal journal;
        private final String instance;

        public Work(Journal journal, String instance) {
            this.journal = journal;
            this.instance = instance;
        }

        /** One of two orders' locks, briefly: the lock changes hands all the time between the eight callers. */
        @Locked(value = "soak/orders/#{#order}", waitFor = WAIT)
        public void bill(int order, Journal.Call call) throws InterruptedException {
            call.entered();
            try {
                Thread.sleep(ORDER_MILLIS);
            } finally {
                journal.section("soak/orders/" + order, instance, call.enter, call.exited());
            }
        }

        /**
         * Long work under one lock (a batch, a leader's loop), stopped when its lease is lost: one instance holds it
         * through the short outages, and loses it in an outage longer than the session or lease.
         */
        @Locked(value = "soak/batch", waitFor = WAIT, stopWork = StopWork.WHEN_LOST)
        public void batch(Journal.Call call) throws InterruptedException {
            call.entered();
            try {
                Thread.sleep(BATCH_MILLIS);
            } finally {
                journal.section("soak/batch", instance, call.enter, call.exited());
            }
        }
    }

    /** Fires at the start of every period of the wall clock; says which period it fired last for. */
    static final class PeriodTrigger implements Trigger {
        private volatile long period;

        @Override
        public Instant nextExecution(TriggerContext context) {
            long next = context.getClock().millis() / PERIOD_MILLIS + 1;
            period = next;
            return Instant.ofEpochMilli(next * PERIOD_MILLIS);
        }

        /** @return the period of the run under way (the scheduler asks for the next one after a run ends) */
        long period() {
            return period;
        }
    }

    /** The scheduled job: a short run, one per period across the instances. */
    public static class Job {
        private final Journal journal;
        private final String instance;
        private final PeriodTrigger trigger = new PeriodTrigger();

        public Job(Journal journal, String instance) {
            this.journal = journal;
            this.instance = instance;
        }

        @ScheduledLock(name = "soak/job", lockAtMostFor = "1s", lockAtLeastFor = JOB_AT_LEAST)
        public void run() throws InterruptedException {
            long enter = System.nanoTime();
            long period = trigger.period();
            journal.run(instance, period, System.currentTimeMillis() - period * PERIOD_MILLIS);
            try {
                Thread.sleep(ORDER_MILLIS);
            } finally {
                journal.section("soak/job", instance, enter, System.nanoTime());
            }
        }

        /** @return the job's trigger (a method, so that it is the target's through the class proxy) */
        public PeriodTrigger trigger() {
            return trigger;
        }
    }

    @Bean
    Work work(Journal journal, @Value("${soak.instance}") String instance) {
        return new Work(journal, instance);
    }

    @Bean
    Job job(Journal journal, @Value("${soak.instance}") String instance) {
        return new Job(journal, instance);
    }

    /** Fires the job (through its proxy, which applies {@code @ScheduledLock}) at every period's start. */
    @Bean
    SchedulingConfigurer jobSchedule(Job job, Journal journal, @Value("${soak.instance}") String instance) {
        return registrar -> registrar.addTriggerTask(() -> {
            journal.fired(instance);
            try {
                job.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, job.trigger());
    }
}
