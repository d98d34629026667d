package org.lockspi.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code lockspi.*} properties of the starter.
 *
 * <pre>
 * lockspi.uri=zookeeper://zk1:2181,zk2:2181/myapp
 * lockspi.provider=curator
 * lockspi.parameters.sessionTimeout=10s
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
     * Provider parameters appended to the URI as query parameters (sessionTimeout, leaseTime, ...); a
     * parameter the provider does not accept fails at start-up.
     */
    private Map<String, String> parameters = new LinkedHashMap<>();

    private final Locked locked = new Locked();

    private final Metrics metrics = new Metrics();

    private final Observations observations = new Observations();

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

    /** Defaults of {@link org.lockspi.spring.Locked @Locked} methods and of {@link LockTemplate}. */
    public static class Locked {
        /** How long a @Locked method or the LockTemplate waits for its lock when it does not say. */
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

    /**
     * @return {@link #getUri()} with {@link #getParameters()} appended as query parameters
     * @throws IllegalStateException if no URI is set
     */
    public String effectiveUri() {
        if (uri == null || uri.isBlank()) {
            throw new IllegalStateException("lockspi.uri is not set");
        }
        String query = parameterQuery();
        String base = uri.strip();
        return query.isEmpty() ? base : base + (base.indexOf('?') < 0 ? '?' : '&') + query;
    }

    /**
     * The {@code parameters} as a URI query without its {@code ?} ({@code name=value&...}; empty without any): the
     * parameters of a service opened on an application's own client or {@code DataSource}.
     *
     * @return the query, never null
     */
    public String parameterQuery() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            b.append(b.length() == 0 ? "" : "&").append(p.getKey()).append('=').append(p.getValue());
        }
        return b.toString();
    }
}
