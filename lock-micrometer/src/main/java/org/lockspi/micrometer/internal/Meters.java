package org.lockspi.micrometer.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.ConnectionState;
import org.lockspi.LockService;
import org.lockspi.micrometer.LockMetrics;

/** The meters of one bound service: its tags, the lock-name guard, and one {@link LockMeters} per lock. */
public final class Meters implements Probes {
    final MeterRegistry registry;
    final Tags serviceTags;
    private final int maxLockNames;
    private final Map<String, String> lockTags = new ConcurrentHashMap<>();
    private final Map<String, LockMeters> perLock = new ConcurrentHashMap<>();

    /**
     * Registers the connection gauges of {@code service}.
     *
     * @param registry     where the meters go
     * @param service      the {@code service} tag
     * @param maxLockNames how many lock names get their own tag
     * @param lockService  the service whose connection state the gauges read
     */
    public Meters(MeterRegistry registry, String service, int maxLockNames, LockService lockService) {
        this.registry = registry;
        this.serviceTags = Tags.of("service", service);
        this.maxLockNames = maxLockNames;
        for (ConnectionState state : ConnectionState.values()) {
            Gauge.builder("lockspi.connection.state", lockService, s -> s.connectionState() == state ? 1 : 0)
                    .tags(serviceTags).tag("state", state.name().toLowerCase(Locale.ROOT))
                    .description("1 for the connection state the service is in, 0 for the others")
                    .strongReference(true)
                    .register(registry);
        }
    }

    /** @return the meters of one lock of one kind, made on first use */
    @Override
    public LockProbe lock(String name, String kind) {
        String tag = lockTag(name);
        return perLock.computeIfAbsent(kind + ' ' + tag,
                k -> new LockMeters(registry, serviceTags.and("lock", tag, "kind", kind)));
    }

    /** The cardinality guard: the first names keep their own tag, later ones share one. */
    private String lockTag(String name) {
        String known = lockTags.get(name);
        if (known != null) {
            return known;
        }
        synchronized (lockTags) {
            return lockTags.computeIfAbsent(name, n -> lockTags.size() < maxLockNames ? n : LockMetrics.OTHER_LOCKS);
        }
    }
}
