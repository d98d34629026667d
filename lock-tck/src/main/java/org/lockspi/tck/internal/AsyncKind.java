package org.lockspi.tck.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lockspi.AsyncAcquirable;
import org.lockspi.LockFeature;
import org.lockspi.LockService;

/** The exclusive kinds that can be acquired asynchronously (§23), with the feature each needs. */
public enum AsyncKind {
    /** {@code nonReentrantMutex(name)}. */
    NON_REENTRANT_MUTEX(LockFeature.NON_REENTRANT_MUTEX),
    /** {@code semaphore(name, 1)}. */
    SEMAPHORE(LockFeature.SEMAPHORE),
    /** {@code threadFreeReadWriteLock(name).writeLock()}. */
    THREAD_FREE_WRITE(LockFeature.READ_WRITE);

    private final LockFeature feature;

    AsyncKind(LockFeature feature) {
        this.feature = feature;
    }

    /** @return the feature a provider must declare for this kind */
    public LockFeature feature() {
        return feature;
    }

    /** @return this kind's lock named {@code name} in {@code service} */
    public AsyncAcquirable of(LockService service, String name) {
        switch (this) {
            case NON_REENTRANT_MUTEX:
                return service.nonReentrantMutex(name);
            case SEMAPHORE:
                return service.semaphore(name, 1);
            default:
                return service.threadFreeReadWriteLock(name).writeLock();
        }
    }

    /** @return the kinds the features allow, in declaration order */
    public static List<AsyncKind> supported(Set<LockFeature> features) {
        List<AsyncKind> kinds = new ArrayList<>();
        for (AsyncKind kind : values()) {
            if (features.contains(kind.feature)) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
