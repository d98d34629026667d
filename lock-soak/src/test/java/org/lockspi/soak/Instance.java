package org.lockspi.soak;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.lockspi.LeaseLostException;
import org.lockspi.LockConnectionException;
import org.lockspi.LockTimeoutException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One application instance: a Spring Boot application ({@link SoakApp}) with its own {@code LockService} from the
 * starter, its scheduler firing the job, and load threads calling its {@code @Locked} methods in a loop, each call
 * written to the {@link Journal}. Its health and meters are read from its own beans.
 */
final class Instance implements AutoCloseable {
    /** The pause of a load thread between two calls. */
    static final Duration PACE = Duration.ofMillis(20);

    final String name;
    private final ConfigurableApplicationContext context;
    private final Journal journal;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    private Instance(String name, ConfigurableApplicationContext context, Journal journal) {
        this.name = name;
        this.context = context;
        this.journal = journal;
    }

    /**
     * Starts the application.
     *
     * @param name     the instance's name (its {@code service} tag and thread names)
     * @param provider the provider to pin ({@code lockspi.provider})
     * @param uri      {@code lockspi.uri}, with the provider's parameters
     */
    static Instance start(String name, String provider, String uri, Journal journal) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SoakApp.class)
                .web(WebApplicationType.NONE)
                .initializers(c -> c.getBeanFactory().registerSingleton("soakJournal", journal))
                .properties(Map.of(
                        "lockspi.uri", uri,
                        "lockspi.provider", provider,
                        "lockspi.metrics.service-name", name,
                        "spring.application.name", "soak-" + name,
                        "soak.instance", name,
                        "spring.task.scheduling.pool.size", "2",
                        "spring.task.scheduling.thread-name-prefix", name + "-scheduling-",
                        // the health endpoint as a bean, without a web server
                        "management.endpoints.jmx.exposure.include", "health",
                        "spring.main.banner-mode", "off"))
                .run();
        return new Instance(name, context, journal);
    }

    /** Starts {@code orders} threads calling {@link SoakApp.Work#bill} and one calling {@link SoakApp.Work#batch}. */
    void startLoad(int orders) {
        SoakApp.Work work = context.getBean(SoakApp.Work.class);
        for (int i = 0; i < orders; i++) {
            int order = i % 2;
            threads.add(loop("orders-" + i, "orders", call -> work.bill(order, call)));
        }
        threads.add(loop("batch", "batch", work::batch));
        threads.forEach(Thread::start);
    }

    /** A locked call made by a load thread. */
    private interface LockedCall {
        void call(Journal.Call call) throws InterruptedException;
    }

    private Thread loop(String thread, String method, LockedCall body) {
        Thread t = new Thread(() -> {
            while (running) {
                Journal.Call call = journal.begin(name, method);
                try {
                    body.call(call);
                    journal.end(call, Journal.Outcome.OK, null);
                } catch (LockTimeoutException e) {
                    journal.end(call, Journal.Outcome.TIMED_OUT, e);
                } catch (LockConnectionException e) {
                    journal.end(call, running ? Journal.Outcome.CONNECTION : Journal.Outcome.STOPPED, e);
                } catch (LeaseLostException e) {
                    journal.end(call, running ? Journal.Outcome.LOST : Journal.Outcome.STOPPED, e);
                } catch (InterruptedException e) {
                    journal.end(call, running ? Journal.Outcome.OTHER : Journal.Outcome.STOPPED, e);
                    return; // stopped by stopLoad()
                } catch (RuntimeException e) { // a LockException wrapping the interrupt of stopLoad(), or a defect
                    journal.end(call, running ? Journal.Outcome.OTHER : Journal.Outcome.STOPPED, e);
                }
                try {
                    Thread.sleep(PACE.toMillis()); // pacing the load, not waiting for anything
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "soak-" + name + "-" + thread);
        t.setDaemon(true);
        return t;
    }

    /** @return the {@code lockspi} health component: status and details */
    HealthComponent lockspiHealth() {
        return context.getBean(HealthEndpoint.class).healthForPath("lockspi");
    }

    /** @return the overall health status's code */
    String overallHealth() {
        return context.getBean(HealthEndpoint.class).health().getStatus().getCode();
    }

    /** @return how many acquisitions failed, by the {@code lockspi.acquire} timers of {@code provider} */
    long failedAcquisitions(String provider) {
        long count = 0;
        for (Timer timer : registry().find("lockspi.acquire").tags("outcome", "failed", "provider", provider)
                .timers()) {
            count += timer.count();
        }
        return count;
    }

    /** @return the value of the {@code lockspi.connection.state} gauge for {@code state} */
    double connectionGauge(String state) {
        return registry().get("lockspi.connection.state").tags("state", state).gauge().value();
    }

    /** @return the {@code lockspi.lease.transitions} count to {@code state} */
    double transitions(String state) {
        return registry().find("lockspi.lease.transitions").tags("state", state).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private MeterRegistry registry() {
        return context.getBean(MeterRegistry.class);
    }

    /** Stops the load (a call under way is interrupted) and waits for the threads to end. */
    void stopLoad() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
        for (Thread t : threads) {
            t.join(10_000);
            if (t.isAlive()) {
                throw new AssertionError("load thread " + t.getName() + " did not end within 10 s of its interrupt");
            }
        }
    }

    /** Stops the load and closes the application (its LockService with it). */
    @Override
    public void close() throws InterruptedException {
        try {
            stopLoad();
        } finally {
            context.close();
        }
    }
}
