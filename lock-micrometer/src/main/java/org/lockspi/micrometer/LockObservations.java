package org.lockspi.micrometer;

import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import org.lockspi.LockService;
import org.lockspi.micrometer.internal.InstrumentedService;
import org.lockspi.micrometer.internal.Observations;

/**
 * Micrometer Observations (hence traces, with a tracing bridge, and timers, with a meter handler) around every
 * acquisition and every hold of a {@link LockService}: {@link #bind(LockService, ObservationRegistry)} returns a view
 * of the service that observes them. No Spring needed; the Spring Boot starter binds the service it creates when the
 * application has an {@link ObservationRegistry}.
 *
 * <pre>{@code
 * LockService locks = LockObservations.builder(observationRegistry).service("orders").bind(Locks.open(uri));
 * }</pre>
 *
 * <h2>Observations</h2>
 * <table>
 *   <caption>observations</caption>
 *   <tr><th>name</th><th>contextual name (span)</th><th>from, to</th></tr>
 *   <tr><td>{@value #ACQUIRE}</td><td>{@code lock acquire}</td><td>one per acquisition attempt ({@code acquire},
 *       {@code tryAcquire}, their asynchronous forms, the acquisition of {@code executeLocked}): from the call to
 *       its lease, its timeout or its failure (recorded as the observation's error)</td></tr>
 *   <tr><td>{@value #HOLD}</td><td>{@code lock hold}</td><td>one per lease acquired through the view: from the grant
 *       to its release, the moment it turned {@code LOST}, or the close of the view; events
 *       {@code lockspi.lease.uncertain} and {@code lockspi.lease.held} mark its changes in between</td></tr>
 * </table>
 * Low-cardinality keys (on every observation): {@value #KIND} ({@code mutex}, {@code non_reentrant_mutex},
 * {@code read}, {@code write}, {@code semaphore}, {@code multi}), {@value #PROVIDER} (the provider's name),
 * {@value #SERVICE} (the name given to {@link Builder#service(String)}, default {@value #DEFAULT_SERVICE}),
 * {@value #OUTCOME} (acquire: {@code acquired}, {@code timed_out}, {@code interrupted}, {@code failed}; hold:
 * {@code released}, {@code lost}, {@code closed}). High-cardinality keys (spans only, never meter tags):
 * {@value #NAME} (the lock's name: data, such as {@code orders/42}), {@value #TOKEN} (the lease's fencing token, with
 * {@link org.lockspi.LockFeature#FENCING_TOKENS}), {@value #TOKENS} (a multi-lease's parts' tokens,
 * {@code name=token,...}).
 *
 * <p><b>The view.</b> It is thread-safe and behaves as the service it wraps; closing it closes the service and stops
 * the hold observations still open ({@code closed}). {@link org.lockspi.Acquirable#asJavaLock()} is the wrapped
 * lock's view and is not observed. It can be stacked with {@link LockMetrics}' view (the starter binds both). An
 * observation's parent is the observation current on the acquiring thread, as Micrometer sets it.
 */
public final class LockObservations {

    /** The observation of one acquisition attempt: {@value}. */
    public static final String ACQUIRE = "lockspi.lock.acquire";
    /** The observation of one lease, from grant to end: {@value}. */
    public static final String HOLD = "lockspi.lock.hold";
    /** Low-cardinality key: the kind of lock. */
    public static final String KIND = "lock.kind";
    /** Low-cardinality key: the provider's name. */
    public static final String PROVIDER = "lockspi.provider";
    /** Low-cardinality key: the bound service's name. */
    public static final String SERVICE = "lockspi.service";
    /** Low-cardinality key: how the attempt or the hold ended. */
    public static final String OUTCOME = "outcome";
    /** High-cardinality key: the lock's name. */
    public static final String NAME = "lock.name";
    /** High-cardinality key: the lease's fencing token. */
    public static final String TOKEN = "lock.token";
    /** High-cardinality key: a multi-lease's parts' tokens. */
    public static final String TOKENS = "lock.tokens";
    /** The {@value #SERVICE} key when none is given: {@value}. */
    public static final String DEFAULT_SERVICE = "default";

    private LockObservations() {
    }

    /**
     * Binds a service with the default service name.
     *
     * @param service  the service to observe
     * @param registry where the observations go
     * @return the observed view of {@code service}
     * @throws NullPointerException if an argument is null
     */
    public static LockService bind(LockService service, ObservationRegistry registry) {
        return builder(registry).bind(service);
    }

    /**
     * @param registry where the observations go
     * @return a builder of bindings to {@code registry}
     * @throws NullPointerException if {@code registry} is null
     */
    public static Builder builder(ObservationRegistry registry) {
        return new Builder(Objects.requireNonNull(registry, "registry is null"));
    }

    /** Options of a binding; not thread-safe, reusable. */
    public static final class Builder {
        private final ObservationRegistry registry;
        private String service = DEFAULT_SERVICE;

        private Builder(ObservationRegistry registry) {
            this.registry = registry;
        }

        /**
         * @param name the {@value #SERVICE} key of every observation
         * @return this builder
         * @throws NullPointerException     if {@code name} is null
         * @throws IllegalArgumentException if {@code name} is blank
         */
        public Builder service(String name) {
            this.service = InstrumentedService.serviceName(name);
            return this;
        }

        /**
         * @param lockService the service to observe
         * @return the observed view
         * @throws NullPointerException if {@code lockService} is null
         */
        public LockService bind(LockService lockService) {
            Objects.requireNonNull(lockService, "service is null");
            return new InstrumentedService(lockService, new Observations(registry, service, lockService));
        }
    }
}
