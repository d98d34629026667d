package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.lockspi.LeaseLostException;
import org.lockspi.LeaseState;
import org.lockspi.LockService;
import org.lockspi.StopWork;
import org.lockspi.inmemory.InMemoryLocks;
import org.lockspi.micrometer.LockObservations;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter on the in-memory provider: the service is observed when the application has an
 * {@link ObservationRegistry}, and a {@code @Locked(stopWork = WHEN_LOST)} method is interrupted when its lease is
 * lost.
 */
class StopWorkAndObservationTest {
    private final String space = InMemoryLocks.newSpace();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LockspiAutoConfiguration.class))
            .withBean(ObservationRegistry.class, TestObservationRegistry::create)
            .withUserConfiguration(JobsConfiguration.class)
            .withPropertyValues("lockspi.uri=" + space, "spring.application.name=shop");

    /** A bean with a method that waits until it is stopped (a class proxy: its state is read through methods). */
    public static class Jobs {
        private final CountDownLatch started = new CountDownLatch(1);

        public CountDownLatch started() {
            return started;
        }

        @Locked(value = "jobs/reindex", stopWork = StopWork.WHEN_LOST)
        public String reindex() throws InterruptedException {
            started.countDown();
            Thread.sleep(Duration.ofSeconds(30).toMillis());
            return "not stopped";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JobsConfiguration {
        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }

    @Test
    void theServiceIsObservedThroughTheApplicationsRegistry() {
        runner.run(context -> {
            LockService locks = context.getBean(LockService.class);
            locks.mutex("orders/7").acquire(Duration.ofSeconds(5)).release();
            TestObservationRegistry registry = (TestObservationRegistry) context.getBean(ObservationRegistry.class);
            TestObservationRegistryAssert.assertThat(registry)
                    .hasObservationWithNameEqualTo(LockObservations.ACQUIRE).that()
                    .hasLowCardinalityKeyValue(LockObservations.OUTCOME, "acquired")
                    .hasLowCardinalityKeyValue(LockObservations.SERVICE, "shop")
                    .hasLowCardinalityKeyValue(LockObservations.PROVIDER, "inmemory")
                    .hasHighCardinalityKeyValue(LockObservations.NAME, "orders/7");
            TestObservationRegistryAssert.assertThat(registry)
                    .hasObservationWithNameEqualTo(LockObservations.HOLD).that()
                    .hasLowCardinalityKeyValue(LockObservations.OUTCOME, "released");
        });
        runner.withPropertyValues("lockspi.observations.enabled=false").run(context -> {
            context.getBean(LockService.class).mutex("orders/8").acquire(Duration.ofSeconds(5)).release();
            TestObservationRegistryAssert.assertThat(
                    (TestObservationRegistry) context.getBean(ObservationRegistry.class)).doesNotHaveAnyObservation();
        });
    }

    @Test
    void aLockedMethodThatStopsWorkIsInterruptedWhenItsLeaseIsLost() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return jobs.reindex();
                } catch (InterruptedException e) {
                    return "interrupted, not stopped";
                }
            });
            assertTrue(jobs.started().await(5, TimeUnit.SECONDS), "the method did not start");
            assertEquals(1, InMemoryLocks.expire(space, "jobs/reindex"), "the lease taken from its holder");
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> call.get(5, TimeUnit.SECONDS));
            LeaseLostException lost = assertInstanceOf(LeaseLostException.class, e.getCause());
            assertEquals(LeaseState.LOST, lost.state());
            assertInstanceOf(InterruptedException.class, lost.getSuppressed()[0]);
        });
    }
}
