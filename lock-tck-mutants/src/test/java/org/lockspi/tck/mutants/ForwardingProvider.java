package org.lockspi.tck.mutants;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.lockspi.LockFeature;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

/**
 * A real provider behind the SPI, under a mutant's own name: every call is forwarded as it is, and a mutant
 * overrides the one hook where its defect lives. The real backend's leases are wrapped ({@link Lease}), and its
 * events are relayed with the wrappers in place of its own leases, so the engine sees one consistent provider.
 *
 * <p>Priority -100: below every real provider of the scheme, so that a mutant on the class path never wins an
 * unpinned selection.
 */
public abstract class ForwardingProvider implements LockProvider {
    /** The priority of every mutant: below every real provider. */
    public static final int PRIORITY = -100;

    private final String name;
    private final LockProvider real;

    /**
     * @param name the mutant's name, {@code mutant-<provider>-<defect>}
     * @param real the real provider it breaks
     */
    protected ForwardingProvider(String name, LockProvider real) {
        this.name = Objects.requireNonNull(name, "name");
        this.real = Objects.requireNonNull(real, "real");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public String version() {
        return real.version();
    }

    @Override
    public Set<String> schemes() {
        return real.schemes();
    }

    @Override
    public Set<LockFeature> features() {
        return real.features();
    }

    @Override
    public Set<String> parameters() {
        return real.parameters();
    }

    @Override
    public final int priority() {
        return PRIORITY;
    }

    @Override
    public LockBackend open(LockUri uri, BackendEvents events) {
        Relay relay = new Relay(events);
        return new Backend(real.open(uri(uri), relay), relay);
    }

    // ---- hooks: each forwards as it is unless a mutant overrides it -------------------------------------------

    /** @return the URI the real provider opens */
    protected LockUri uri(LockUri uri) {
        return uri;
    }

    /** @return the request the real backend gets (a downgrade's held write already unwrapped) */
    protected AcquireRequest request(AcquireRequest request) {
        return request;
    }

    /**
     * The key the real backend stores a lock under, for acquisitions and for {@code inspect}: a mutant that derives
     * its own key from the engine's (cut, hashed, folded) overrides it. {@code list} shows the keys it stored.
     *
     * @param key the engine's key, {@code AcquireRequest.name()}
     * @return the key the real backend gets
     */
    protected String key(String key) {
        return key;
    }

    /**
     * Acquires through the real backend: a lease of the real backend, or null. A mutant may return a {@link Lease}
     * of its own around the real one; the relayed events then name it.
     */
    protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
            throws InterruptedException {
        return backend.acquire(request, deadline);
    }

    /** @return the wrapper the engine gets for a lease of the real backend */
    protected Lease lease(BackendLease real) {
        return new Lease(real);
    }

    /** Asks the real backend to revoke (spec §27), at the key {@link #key} derives. */
    protected boolean revoke(LockBackend backend, String key, long token, String requestedBy)
            throws InterruptedException {
        return backend.revoke(key, token, requestedBy);
    }

    /** Closes the real backend. */
    protected void close(LockBackend backend) {
        backend.close();
    }

    /** Relays "suspended" to the engine. */
    protected void connectionSuspended(BackendEvents engine) {
        engine.connectionSuspended();
    }

    /** Relays "restored" to the engine. */
    protected void connectionRestored(BackendEvents engine) {
        engine.connectionRestored();
    }

    /** Relays a lost lease (the wrapper) to the engine. */
    protected void leaseLost(BackendEvents engine, BackendLease lease) {
        engine.leaseLost(lease);
    }

    /** Relays a lost lease (the wrapper) and why to the engine; a mutant that overrides the one-argument form sees it. */
    protected void leaseLost(BackendEvents engine, BackendLease lease, String why) {
        leaseLost(engine, lease);
    }

    @Override
    public String toString() {
        return name + " (a broken " + real.name() + ")";
    }

    /** A lease of the real backend, forwarded; a mutant overrides what it breaks. */
    public static class Lease implements BackendLease {
        /** the real backend's lease */
        protected final BackendLease real;

        /** @param real the real backend's lease */
        public Lease(BackendLease real) {
            this.real = real;
        }

        @Override
        public long fencingToken() {
            return real.fencingToken();
        }

        @Override
        public boolean isLost() {
            return real.isLost();
        }

        @Override
        public long confirmedUntilNanos() {
            return real.confirmedUntilNanos();
        }

        @Override
        public long validUntilNanos() {
            return real.validUntilNanos();
        }

        @Override
        public void release() {
            real.release();
        }

        @Override
        public String toString() {
            return real.toString();
        }
    }

    /** A lease that hides its end: never lost, no confirmation or validity deadline (the SPI's defaults). */
    public static class Silent extends Lease {
        /** @param real the real backend's lease */
        public Silent(BackendLease real) {
            super(real);
        }

        @Override
        public boolean isLost() {
            return false;
        }

        @Override
        public long confirmedUntilNanos() {
            return Long.MAX_VALUE;
        }

        @Override
        public long validUntilNanos() {
            return Long.MAX_VALUE;
        }
    }

    /** The engine's events, with the real backend's leases replaced by their wrappers. */
    private final class Relay implements BackendEvents {
        private final BackendEvents engine;
        // kept for the backend's life (a test's few leases): a late event still finds its wrapper
        private final Map<BackendLease, Lease> wrappers = Collections.synchronizedMap(new IdentityHashMap<>());

        Relay(BackendEvents engine) {
            this.engine = engine;
        }

        Lease wrap(BackendLease real) {
            return wrappers.computeIfAbsent(real, ForwardingProvider.this::lease);
        }

        Lease adopt(Lease own) {
            wrappers.put(own.real, own);
            return own;
        }

        @Override
        public void connectionSuspended() {
            ForwardingProvider.this.connectionSuspended(engine);
        }

        @Override
        public void connectionRestored() {
            ForwardingProvider.this.connectionRestored(engine);
        }

        @Override
        public void leasesConfirmed() {
            engine.leasesConfirmed();
        }

        @Override
        public void leaseLost(BackendLease lease) {
            ForwardingProvider.this.leaseLost(engine, wrap(lease));
        }

        @Override
        public void leaseLost(BackendLease lease, String why) {
            ForwardingProvider.this.leaseLost(engine, wrap(lease), why);
        }
    }

    /** The real backend, with the hooks applied. */
    private final class Backend implements LockBackend {
        private final LockBackend real;
        private final Relay relay;

        Backend(LockBackend real, Relay relay) {
            this.real = real;
            this.relay = relay;
        }

        @Override
        public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
            AcquireRequest forwarded = request;
            if (request.kind() == LockKind.READ && request.heldWrite() instanceof Lease held) {
                forwarded = flagsOf(request, AcquireRequest.read(request.name(), held.real));
            }
            BackendLease lease = ForwardingProvider.this.acquire(real, request(renamed(forwarded)), deadline);
            if (lease == null) {
                return null;
            }
            if (lease instanceof Lease own) {
                return relay.adopt(own); // a mutant's own wrapper: the relayed events name it from now on
            }
            return relay.wrap(lease); // the same wrapper the relayed events name
        }

        /** @return the request under the key {@link #key} derives, or the request itself */
        private AcquireRequest renamed(AcquireRequest request) {
            String key = key(request.name());
            if (key.equals(request.name())) {
                return request;
            }
            switch (request.kind()) {
                case READ:
                    return flagsOf(request, AcquireRequest.read(key, request.heldWrite()));
                case SEMAPHORE:
                    return flagsOf(request, AcquireRequest.semaphore(key, request.permits()));
                default:
                    return flagsOf(request, AcquireRequest.exclusive(request.kind(), key));
            }
        }

        /** @return {@code copy} with the lease time and the revocable mark of {@code original} */
        private AcquireRequest flagsOf(AcquireRequest original, AcquireRequest copy) {
            AcquireRequest timed = copy.withLeaseTime(original.leaseTime().orElse(null));
            return original.isRevocable() ? timed.revocable() : timed;
        }

        @Override
        public boolean revoke(String name, long token, String requestedBy) throws InterruptedException {
            return ForwardingProvider.this.revoke(real, key(name), token, requestedBy);
        }

        @Override
        public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
            return real.inspect(key(name)); // inspection reads; a mutant that derives keys reads at its own key
        }

        @Override
        public java.util.List<String> list(String prefix) throws InterruptedException {
            return real.list(prefix);
        }

        @Override
        public void close() {
            ForwardingProvider.this.close(real);
        }
    }
}
