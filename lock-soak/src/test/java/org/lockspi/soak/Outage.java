package org.lockspi.soak;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.HealthComponent;

/**
 * One stop of the lock server and what the soak saw of it, per instance. Its window, for the log lines and the
 * job's firings, runs from its stop to the next outage's stop (or the end of the load).
 */
final class Outage {
    final Duration length;
    /** Whether it outlasts the session or lease: held leases are lost. */
    final boolean losesLeases;
    /** When the stop began, when the server was down, when it served again ({@code System.nanoTime()}). */
    long stop;
    long stopped;
    long started;
    /** The end of this outage's window. */
    long next;
    final Map<String, Long> firedAtStop = new LinkedHashMap<>();
    final Map<String, Long> firedAtNext = new LinkedHashMap<>();
    /** The {@code lockspi} health component when first seen {@code SUSPENDED} (or when the outage ended). */
    final Map<String, HealthComponent> health = new LinkedHashMap<>();
    /** How long after the stop it was first seen {@code SUSPENDED}, or -1. */
    final Map<String, Long> healthAfter = new LinkedHashMap<>();
    /** The overall health status at that moment. */
    final Map<String, String> overall = new LinkedHashMap<>();
    /** {@code lockspi.connection.state{state=suspended}} at that moment. */
    final Map<String, Double> gauge = new LinkedHashMap<>();
    /** How much {@code lockspi.acquire{outcome=failed,provider=...}} grew during the outage. */
    final Map<String, Long> failed = new LinkedHashMap<>();
    /** How much {@code lockspi.lease.transitions{state=lost}} grew from the stop to the service's return. */
    final Map<String, Double> lost = new LinkedHashMap<>();
    /** From the server's return to the instance's first locked call that returned, or -1. */
    final Map<String, Long> recovery = new LinkedHashMap<>();

    Outage(Duration length, Duration leaseSpan) {
        this.length = length;
        this.losesLeases = length.compareTo(leaseSpan) > 0;
    }

    /** @return when both instances had completed a locked call again (or the server's return, if one never did) */
    long back() {
        return started + recovery.values().stream().mapToLong(r -> Math.max(r, 0)).max().orElse(0);
    }

    /** @return the instance's firings of the job in this outage's window */
    long firings(String instance) {
        return firedAtNext.get(instance) - firedAtStop.get(instance);
    }
}
