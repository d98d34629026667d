package org.lockspi.tck.reference;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.lockspi.LockFeature;
import org.lockspi.inmemory.internal.SpaceClient;
import org.lockspi.inmemory.internal.Spaces;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/**
 * The TCK's reference provider, scheme {@code mem}: the in-memory provider of {@code lock-spi-inmemory}
 * ({@code org.lockspi.inmemory}) under the name {@code mem}, connecting only to a space a {@link MemTckBackend}
 * keeps in use ({@code mem://<space>}). Correct by construction; its subclasses with a {@link Defect} are the
 * broken providers the TCK must catch, built on the same code by a {@link DefectConduct}.
 */
public class MemProvider implements LockProvider {
    static final Set<LockFeature> FEATURES = Set.copyOf(EnumSet.of(LockFeature.REENTRANT_MUTEX,
            LockFeature.NON_REENTRANT_MUTEX, LockFeature.READ_WRITE, LockFeature.SEMAPHORE, LockFeature.FAIR,
            LockFeature.FENCING_TOKENS, LockFeature.LEASE_RENEWAL, LockFeature.LOST_NOTIFICATION,
            LockFeature.SURVIVES_RESTART));

    private final String name;
    private final int priority;
    private final Defect defect;
    private final Set<LockFeature> features;

    /**
     * The correct reference provider, {@code "mem"}, of priority -9: below the published in-memory provider
     * ({@code inmemory}, 0), which serves the same scheme wherever both are installed.
     */
    public MemProvider() {
        this("mem", -9, Defect.NONE, FEATURES);
    }

    MemProvider(String name, int priority, Defect defect, Set<LockFeature> features) {
        this.name = name;
        this.priority = priority;
        this.defect = defect;
        this.features = features;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String version() {
        return "1.0";
    }

    @Override
    public Set<String> schemes() {
        return Set.of("mem");
    }

    @Override
    public Set<LockFeature> features() {
        return features;
    }

    @Override
    public Set<String> parameters() {
        return Set.of("connectTimeout");
    }

    @Override
    public int priority() {
        return priority;
    }

    /** Connects to a space in use (as {@code ifExists=true} does for the published provider). */
    @Override
    public LockBackend open(LockUri uri, BackendEvents events) {
        uri.duration("connectTimeout", Duration.ofSeconds(1), Duration.ofMillis(1), Duration.ofMinutes(5));
        SpaceClient client = Spaces.connect(uri, true, events, new DefectConduct(defect, this instanceof IoWait));
        if (defect == Defect.LEAK_THREAD) {
            Thread keepAlive = new Thread(() -> {
                // Outlives close() on purpose; ends with the space so that the test JVM stays tidy.
                while (!client.space().isEnded()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
                }
            }, "mem-keepalive-" + client.space().name());
            keepAlive.setDaemon(true);
            keepAlive.start();
        }
        return client;
    }

    @Override
    public String toString() {
        return "MemProvider[" + name + "]";
    }

    /** Grants every acquisition at once. */
    public static final class GrantAll extends MemProvider {
        /** For ServiceLoader. */
        public GrantAll() {
            super("mem-grant-all", -1, Defect.GRANT_ALL, FEATURES);
        }
    }

    /** Leaves a timed-out acquisition's entry behind. */
    public static final class LeakOnTimeout extends MemProvider {
        /** For ServiceLoader. */
        public LeakOnTimeout() {
            super("mem-leak-on-timeout", -2, Defect.LEAK_ON_TIMEOUT, FEATURES);
        }
    }

    /** Declares FAIR but grants the newest waiter first. */
    public static final class Lifo extends MemProvider {
        /** For ServiceLoader. */
        public Lifo() {
            super("mem-lifo", -3, Defect.LIFO, FEATURES);
        }
    }

    /** Leaves an interrupted acquisition's entry behind. */
    public static final class LeakOnInterrupt extends MemProvider {
        /** For ServiceLoader. */
        public LeakOnInterrupt() {
            super("mem-leak-on-interrupt", -5, Defect.LEAK_ON_INTERRUPT, FEATURES);
        }
    }

    /** Starts a thread per client that close() leaves running. */
    public static final class LeakThread extends MemProvider {
        /** For ServiceLoader. */
        public LeakThread() {
            super("mem-leak-thread", -6, Defect.LEAK_THREAD, FEATURES);
        }
    }

    /**
     * Correct, but its waiters block in I/O (a selector on a pipe), {@code RUNNABLE} as in a socket read, instead
     * of parking: the kit must still see them waiting.
     */
    public static final class IoWait extends MemProvider {
        /** For ServiceLoader. */
        public IoWait() {
            super("mem-io-wait", -7, Defect.NONE, FEATURES);
        }
    }

    /** Correct, and honest that its leases do not survive a server restart: no SURVIVES_RESTART. */
    public static final class RestartEndsLeases extends MemProvider {
        /** For ServiceLoader. */
        public RestartEndsLeases() {
            super("mem-restart-ends-leases", -8, Defect.NONE, FEATURES.stream()
                    .filter(f -> f != LockFeature.SURVIVES_RESTART).collect(Collectors.toUnmodifiableSet()));
        }
    }

    /** Correct, but declares REENTRANT_MUTEX only, so the engine refuses every other feature. */
    public static final class MutexOnly extends MemProvider {
        /** For ServiceLoader. */
        public MutexOnly() {
            super("mem-mutex-only", -4, Defect.NONE, Set.of(LockFeature.REENTRANT_MUTEX));
        }
    }

    /** Correct, but declares no feature at all: a kit that calls it conformant says nothing. */
    public static final class NoFeatures extends MemProvider {
        /** For ServiceLoader. */
        public NoFeatures() {
            super("mem-no-features", -4, Defect.NONE, Set.of());
        }
    }

    /** Correct, signals lost leases like the reference, but leaves LOST_NOTIFICATION out of what it declares. */
    public static final class UndeclaredNotification extends MemProvider {
        /** For ServiceLoader. */
        public UndeclaredNotification() {
            super("mem-undeclared-notification", -4, Defect.NONE, FEATURES.stream()
                    .filter(f -> f != LockFeature.LOST_NOTIFICATION).collect(Collectors.toUnmodifiableSet()));
        }
    }
}
