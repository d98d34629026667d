package org.lockspi.tck.report;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.lockspi.LockFeature;

/**
 * Named sets of features a provider declares, each containing the one before. A provider must declare at least
 * {@link #CORE} to be called conformant: a kit that passes a provider declaring nothing, or leaving out what makes
 * a lease trustworthy, says nothing. The conformance report names the highest profile the provider declares; the
 * rules of every feature it declares are held to the kit whatever its profile.
 */
public enum Profile {
    /**
     * The minimum: a mutex whose holder knows when it lost it and can fence what it writes. Enough for an
     * in-process provider ({@code mem://}) or a store without crash detection.
     */
    CORE(EnumSet.of(LockFeature.REENTRANT_MUTEX, LockFeature.FENCING_TOKENS, LockFeature.LOST_NOTIFICATION)),
    /**
     * A lock shared by processes: {@link #CORE}, and a holder that dies or goes silent loses the lock within a
     * bounded time while a live holder keeps it as long as it likes.
     */
    DISTRIBUTED(with(CORE, LockFeature.CRASH_RELEASE, LockFeature.LEASE_RENEWAL)),
    /** {@link #DISTRIBUTED} with every kind of lock and a view of the server's state. */
    COMPLETE(with(DISTRIBUTED, LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE, LockFeature.SEMAPHORE,
            LockFeature.INSPECTION)),
    /** {@link #COMPLETE} with waiters served in the order they asked. */
    FAIR(with(COMPLETE, LockFeature.FAIR));

    private final Set<LockFeature> features;

    Profile(Set<LockFeature> features) {
        this.features = Collections.unmodifiableSet(features);
    }

    private static Set<LockFeature> with(Profile base, LockFeature... more) {
        EnumSet<LockFeature> all = EnumSet.copyOf(base.features);
        Collections.addAll(all, more);
        return all;
    }

    /** @return the features a provider declares to meet this profile */
    public Set<LockFeature> features() {
        return features;
    }

    /**
     * @param declared the features a provider declares
     * @return the highest profile whose features it all declares; empty if not even {@link #CORE}
     */
    public static Optional<Profile> highestDeclared(Set<LockFeature> declared) {
        Profile met = null;
        for (Profile profile : values()) {
            if (declared.containsAll(profile.features)) {
                met = profile;
            }
        }
        return Optional.ofNullable(met);
    }

    /**
     * @param declared the features a provider declares
     * @return the features of {@link #CORE} it does not declare
     */
    public static Set<LockFeature> missingForCore(Set<LockFeature> declared) {
        EnumSet<LockFeature> missing = EnumSet.copyOf(CORE.features);
        missing.removeAll(declared);
        return missing;
    }
}
