package org.lockspi.micrometer.internal;

import io.micrometer.observation.ObservationRegistry;
import org.lockspi.LockFeature;
import org.lockspi.LockService;

/** The observations of one bound service: the registry, the service's keys, one {@link ObservedLock} per lock. */
public final class Observations implements Probes {
    private final ObservationRegistry registry;
    private final String service;
    private final String provider;
    private final boolean tokens;

    /**
     * @param registry    where the observations go
     * @param service     the {@code lockspi.service} key
     * @param lockService the service observed, for its provider and features
     */
    public Observations(ObservationRegistry registry, String service, LockService lockService) {
        this.registry = registry;
        this.service = service;
        this.provider = lockService.providerName();
        this.tokens = lockService.features().contains(LockFeature.FENCING_TOKENS);
    }

    @Override
    public LockProbe lock(String name, String kind) {
        return new ObservedLock(this, name, kind);
    }

    ObservationRegistry registry() {
        return registry;
    }

    String service() {
        return service;
    }

    String provider() {
        return provider;
    }

    boolean tokens() {
        return tokens;
    }
}
