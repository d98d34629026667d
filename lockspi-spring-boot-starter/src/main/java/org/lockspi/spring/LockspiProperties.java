package org.lockspi.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.lockspi.spi.LockUri;
import org.lockspi.spring.internal.LockspiConfigurationException;
import org.lockspi.spring.internal.ProviderParameters;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code lockspi.*} properties of the starter.
 *
 * <pre>
 * lockspi.uri=zookeeper://zk1:2181,zk2:2181/myapp
 * lockspi.provider=curator
 * lockspi.parameters.zookeeper.sessionTimeout=10s
 * lockspi.parameters.redis.leaseTime=30s
 * lockspi.locked.wait-for=5s
 * lockspi.metrics.service-name=orders
 * </pre>
 */
@ConfigurationProperties(prefix = "lockspi")
public class LockspiProperties {

    /**
     * The backend URI, as for Locks.open: zookeeper://host:2181/app, redis://host:6379/0. Without it no
     * LockService is configured.
     */
    private String uri;

    /** The provider's name, to pin one (as Locks.open(uri, provider)); empty: chosen by the URI's scheme. */
    private String provider;

    /**
     * Provider parameters appended to the URI as query parameters: flat ones (leaseTime=10s) apply to every
     * provider; scoped ones (redis.leaseTime=10s, curator.sessionTimeout=10s) only when the provider opened has that
     * name or serves that URI scheme, so that switching providers does not break start-up. A parameter the
     * provider does not accept, or an unknown scope, fails at start-up.
     */
    private Map<String, String> parameters = new LinkedHashMap<>();

    private final Locked locked = new Locked();

    private final Metrics metrics = new Metrics();

    private final Observations observations = new Observations();

    private final Health health = new Health();

    private final Endpoint endpoint = new Endpoint();

    public String getUri() {
        return uri;
    }

    public void setUri(String uri) {
        this.uri = uri;
    }

    public String getProvider() {
        return provider;
    }

    public void setProvider(String provider) {
        this.provider = provider;
    }

    public Map<String, String> getParameters() {
        return parameters;
    }

    public void setParameters(Map<String, String> parameters) {
        this.parameters = parameters;
    }

    public Locked getLocked() {
        return locked;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public Observations getObservations() {
        return observations;
    }

    public Health getHealth() {
        return health;
    }

    public Endpoint getEndpoint() {
        return endpoint;
    }

    /** Defaults of {@link org.lockspi.spring.Locked @Locked} methods and of {@link LockTemplate}. */
    public static class Locked {
        /**
         * How long a @Locked method (ifLocked = THROW) or the LockTemplate waits for its lock when it does not say;
         * a @Locked(ifLocked = SKIP) method without waitFor does not wait.
         */
        private Duration waitFor = Duration.ofSeconds(5);

        public Duration getWaitFor() {
            return waitFor;
        }

        public void setWaitFor(Duration waitFor) {
            this.waitFor = waitFor;
        }
    }

    /** Micrometer binding of the configured LockService. */
    public static class Metrics {
        /** Whether the LockService is bound to the application's MeterRegistry, when there is one. */
        private boolean enabled = true;

        /**
         * The service tag of every meter and the lockspi.service key of every observation; empty:
         * spring.application.name, else "default".
         */
        private String serviceName;

        /** How many distinct lock names get their own lock tag; later names share the tag "_other". */
        private int maxLockNames = 100;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getServiceName() {
            return serviceName;
        }

        public void setServiceName(String serviceName) {
            this.serviceName = serviceName;
        }

        public int getMaxLockNames() {
            return maxLockNames;
        }

        public void setMaxLockNames(int maxLockNames) {
            this.maxLockNames = maxLockNames;
        }
    }

    /** Micrometer Observation (tracing) of the configured LockService. */
    public static class Observations {
        /** Whether the LockService is observed through the application's ObservationRegistry, when there is one. */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** The Actuator endpoint {@code locks} ({@link LocksEndpoint}). */
    public static class Endpoint {
        /**
         * Whether the endpoint's DELETE operation revokes a holder's lease (spec §27); off, it answers 400 and
         * changes nothing. The holder's own service must still have opted in (revocable=true).
         */
        private boolean revokeEnabled;

        /** How long a revocation through the endpoint waits for the holder to let go. */
        private Duration revokeTimeout = Duration.ofSeconds(10);

        public boolean isRevokeEnabled() {
            return revokeEnabled;
        }

        public void setRevokeEnabled(boolean revokeEnabled) {
            this.revokeEnabled = revokeEnabled;
        }

        public Duration getRevokeTimeout() {
            return revokeTimeout;
        }

        public void setRevokeTimeout(Duration revokeTimeout) {
            this.revokeTimeout = revokeTimeout;
        }
    }

    /** The Actuator health contribution {@code lockspi}. */
    public static class Health {
        /**
         * Whether a suspended connection to the lock server turns the overall health OUT_OF_SERVICE (HTTP 503);
         * false: the lockspi component shows SUSPENDED, which the overall status does not count, so a lock server
         * outage does not take every node out of a load balancer. A closed service is DOWN either way.
         */
        private boolean suspendedAffectsStatus;

        public boolean isSuspendedAffectsStatus() {
            return suspendedAffectsStatus;
        }

        public void setSuspendedAffectsStatus(boolean suspendedAffectsStatus) {
            this.suspendedAffectsStatus = suspendedAffectsStatus;
        }
    }

    /**
     * The URI to open: {@link #getUri()} with the {@link #getParameters() parameters} that apply to the provider it
     * opens (see {@link ProviderParameters}) appended as query parameters.
     *
     * @return the URI
     * @throws IllegalStateException          if no URI is set
     * @throws LockspiConfigurationException  if the URI is malformed, a parameter's scope is unknown, or the
     *                                        provider does not accept a parameter
     */
    public String effectiveUri() {
        if (uri == null || uri.isBlank()) {
            throw new IllegalStateException("lockspi.uri is not set");
        }
        String base = uri.strip();
        LockUri parsed;
        try {
            parsed = LockUri.parse(base);
        } catch (IllegalArgumentException e) {
            throw new LockspiConfigurationException("lockspi.uri", e.getMessage(), "Write it as "
                    + "scheme://host:port/path, e.g. zookeeper://zk1:2181,zk2:2181/myapp or redis://cache:6379/0; "
                    + "percent-encode '@', '/', '?' and '#' in a user or password.", e);
        }
        String query = ProviderParameters.query(parameters, ProviderParameters.chosen(parsed, pinnedProvider()));
        return query.isEmpty() ? base : base + (base.indexOf('?') < 0 ? '?' : '&') + query;
    }

    /**
     * The {@link #getParameters() parameters} that apply to the named provider, as a URI query without its
     * {@code ?} ({@code name=value&...}; empty without any): the parameters of a service opened on an
     * application's own client or {@code DataSource}.
     *
     * @param providerName the provider to be opened
     * @return the query, never null
     * @throws LockspiConfigurationException if a parameter's scope is unknown, or the provider does not accept a
     *                                       parameter
     */
    public String parameterQuery(String providerName) {
        return ProviderParameters.query(parameters, ProviderParameters.installed(providerName));
    }

    /** @return {@link #getProvider()} stripped, or null when it is not set */
    String pinnedProvider() {
        return provider == null || provider.isBlank() ? null : provider.strip();
    }
}
