package org.lockspi.tck.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.lockspi.Acquirable;
import org.lockspi.LockFeature;
import org.lockspi.LockService;

/**
 * The exclusive kinds of lock a service hands out, each with the feature it needs, so that one contract can run
 * over every kind a provider declares. The semaphore is taken with one permit, the read-write lock by its write
 * half: every kind then excludes a second holder.
 */
public enum Kind {
    /** {@link LockService#mutex(String)}. */
    MUTEX(LockFeature.REENTRANT_MUTEX),
    /** {@link LockService#nonReentrantMutex(String)}. */
    NON_REENTRANT_MUTEX(LockFeature.NON_REENTRANT_MUTEX),
    /** The write half of {@link LockService#readWriteLock(String)}. */
    WRITE(LockFeature.READ_WRITE),
    /** {@link LockService#semaphore(String, int)} with one permit. */
    SEMAPHORE(LockFeature.SEMAPHORE);

    private final LockFeature feature;

    Kind(LockFeature feature) {
        this.feature = feature;
    }

    /** @return the feature a provider must declare for this kind */
    public LockFeature feature() {
        return feature;
    }

    /**
     * @param service a service
     * @param name    a lock name
     * @return the acquirable of this kind on that name
     */
    public Acquirable of(LockService service, String name) {
        switch (this) {
            case MUTEX:
                return service.mutex(name);
            case NON_REENTRANT_MUTEX:
                return service.nonReentrantMutex(name);
            case WRITE:
                return service.readWriteLock(name).writeLock();
            default:
                return service.semaphore(name, 1);
        }
    }

    /**
     * @param features the provider's features
     * @return the kinds it declares, in declaration order
     */
    public static List<Kind> supported(Set<LockFeature> features) {
        return Arrays.stream(values()).filter(k -> features.contains(k.feature)).collect(Collectors.toList());
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
