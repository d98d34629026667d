package org.lockspi.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import org.lockspi.LockService;
import org.lockspi.micrometer.internal.InstrumentedService;
import org.lockspi.micrometer.internal.Meters;

/**
 * Micrometer meters for a {@link LockService}: {@link #bind(LockService, MeterRegistry)} returns a view of the
 * service that records every acquisition, hold and state change, and registers gauges for its active leases and
 * connection state. No Spring needed; the Spring Boot starter binds the service it creates on its own.
 *
 * <pre>{@code
 * LockService locks = LockMetrics.builder(registry).service("orders").bind(Locks.open(uri));
 * }</pre>
 *
 * <h2>Meters</h2>
 * Every meter has the tag {@code service} (the name given to {@link Builder#service(String)}, default
 * {@value #DEFAULT_SERVICE}); those of one lock also {@code lock} (its name, or {@value #OTHER_LOCKS} past the
 * cardinality guard) and {@code kind} ({@code mutex}, {@code non_reentrant_mutex}, {@code read}, {@code write},
 * {@code semaphore}).
 * <table>
 *   <caption>meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@code lockspi.acquire}</td><td>timer</td><td>service, lock, kind, outcome</td><td>one per acquisition
 *       attempt: its count is the attempts, its time the wait; {@code outcome} is {@code acquired},
 *       {@code timed_out} (also a {@code tryAcquire} that found the lock held), {@code interrupted} or
 *       {@code failed} (any other exception)</td></tr>
 *   <tr><td>{@code lockspi.lease.held}</td><td>timer</td><td>service, lock, kind</td><td>how long each lease was
 *       held, recorded when it is released through this view, or when this view is closed while it is held</td></tr>
 *   <tr><td>{@code lockspi.leases.active}</td><td>gauge</td><td>service, lock, kind</td><td>leases acquired through
 *       this view and not yet released, lost or ended by close</td></tr>
 *   <tr><td>{@code lockspi.lease.transitions}</td><td>counter</td><td>service, lock, kind, state</td><td>lease
 *       state changes other than release: {@code state} is the new state, {@code uncertain}, {@code held} (back
 *       from uncertain) or {@code lost}; only for providers with
 *       {@link org.lockspi.LockFeature#LOST_NOTIFICATION}</td></tr>
 *   <tr><td>{@code lockspi.connection.state}</td><td>gauge</td><td>service, state</td><td>1 for the service's
 *       current {@link org.lockspi.ConnectionState} ({@code state} = {@code connected}, {@code suspended},
 *       {@code closed}), 0 for the others</td></tr>
 * </table>
 *
 * <p><b>Cardinality.</b> Lock names are data ({@code orders/42}); the first {@link Builder#maxLockNames(int)}
 * names (default {@value #DEFAULT_MAX_LOCK_NAMES}) get their own {@code lock} tag, every later one shares
 * {@value #OTHER_LOCKS}. Set it to 0 to tag every lock {@value #OTHER_LOCKS}.
 *
 * <p><b>The view.</b> It is thread-safe and behaves as the service it wraps (same exceptions, same leases'
 * semantics); closing it closes the service. {@link org.lockspi.Acquirable#asJavaLock()} is the wrapped lock's
 * view and is not metered. Bind each service once, with its own service name: two services bound under one name
 * share their meters.
 */
public final class LockMetrics {

    /** The {@code service} tag when none is given: {@value}. */
    public static final String DEFAULT_SERVICE = "default";
    /** How many lock names get their own tag when no limit is given: {@value}. */
    public static final int DEFAULT_MAX_LOCK_NAMES = 100;
    /** The {@code lock} tag of the names past the limit: {@value}. */
    public static final String OTHER_LOCKS = "_other";

    private LockMetrics() {
    }

    /**
     * Binds a service with the default service name and limit.
     *
     * @param service  the service to meter
     * @param registry where the meters go
     * @return the metered view of {@code service}
     * @throws NullPointerException if an argument is null
     */
    public static LockService bind(LockService service, MeterRegistry registry) {
        return builder(registry).bind(service);
    }

    /**
     * @param registry where the meters go
     * @return a builder of bindings to {@code registry}
     * @throws NullPointerException if {@code registry} is null
     */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(Objects.requireNonNull(registry, "registry is null"));
    }

    /** Options of a binding; not thread-safe, reusable. */
    public static final class Builder {
        private final MeterRegistry registry;
        private String service = DEFAULT_SERVICE;
        private int maxLockNames = DEFAULT_MAX_LOCK_NAMES;

        private Builder(MeterRegistry registry) {
            this.registry = registry;
        }

        /**
         * @param name the {@code service} tag of every meter
         * @return this builder
         * @throws NullPointerException     if {@code name} is null
         * @throws IllegalArgumentException if {@code name} is blank
         */
        public Builder service(String name) {
            this.service = InstrumentedService.serviceName(name);
            return this;
        }

        /**
         * @param max how many distinct lock names get their own {@code lock} tag, at least 0
         * @return this builder
         * @throws IllegalArgumentException if {@code max < 0}
         */
        public Builder maxLockNames(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("maxLockNames < 0: " + max);
            }
            this.maxLockNames = max;
            return this;
        }

        /**
         * Registers the service's gauges and returns its metered view.
         *
         * @param lockService the service to meter
         * @return the metered view
         * @throws NullPointerException if {@code lockService} is null
         */
        public LockService bind(LockService lockService) {
            Objects.requireNonNull(lockService, "service is null");
            return new InstrumentedService(lockService, new Meters(registry, service, maxLockNames, lockService));
        }
    }
}
