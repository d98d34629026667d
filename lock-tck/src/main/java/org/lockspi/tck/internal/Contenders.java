package org.lockspi.tck.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.lockspi.Acquirable;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.spi.LockProvider;

/**
 * The pairs of a holder and another client's acquisition on one lock that a rule about every kind runs through: each
 * exclusive {@link Kind} against itself, and the read half, which only a writer keeps out. A rule about the one who
 * waits takes {@link #waiting} (the read half waits for a writer); a rule about the one who holds takes
 * {@link #holding} (the read half holds, a writer is kept out).
 *
 * @param label  the kind the rule is about, for messages ({@code mutex}, ..., {@code read})
 * @param feature the feature the pair needs
 * @param holder  the holder's lock on a service and name
 * @param other   the other client's lock on a service and name: excluded while the holder holds
 */
public record Contenders(String label, LockFeature feature, BiFunction<LockService, String, Acquirable> holder,
                         BiFunction<LockService, String, Acquirable> other) {

    /** @return the holder's lock of {@code name} in {@code service} */
    public Acquirable holder(LockService service, String name) {
        return holder.apply(service, name);
    }

    /** @return the other client's lock of {@code name} in {@code service} */
    public Acquirable other(LockService service, String name) {
        return other.apply(service, name);
    }

    /**
     * @param provider the provider
     * @return every kind it declares against itself, then (READ_WRITE) a reader waiting for a writer; at least one
     * @throws org.lockspi.tck.report.NotApplicable if it declares no kind
     */
    public static List<Contenders> waiting(LockProvider provider) {
        return pairs(provider, true);
    }

    /**
     * @param provider the provider
     * @return every kind it declares against itself, then (READ_WRITE) a reader holding against a writer; at least
     *         one
     * @throws org.lockspi.tck.report.NotApplicable if it declares no kind
     */
    public static List<Contenders> holding(LockProvider provider) {
        return pairs(provider, false);
    }

    private static List<Contenders> pairs(LockProvider provider, boolean readerWaits) {
        List<Contenders> pairs = new ArrayList<>();
        for (Kind kind : Checks.requireSomeKind(provider)) {
            pairs.add(new Contenders(kind.toString(), kind.feature(), kind::of, kind::of));
        }
        if (provider.features().contains(LockFeature.READ_WRITE)) {
            BiFunction<LockService, String, Acquirable> read = (s, n) -> s.readWriteLock(n).readLock();
            BiFunction<LockService, String, Acquirable> write = (s, n) -> s.readWriteLock(n).writeLock();
            pairs.add(readerWaits ? new Contenders("read", LockFeature.READ_WRITE, write, read)
                    : new Contenders("read", LockFeature.READ_WRITE, read, write));
        }
        return pairs;
    }

    @Override
    public String toString() {
        return label;
    }
}
