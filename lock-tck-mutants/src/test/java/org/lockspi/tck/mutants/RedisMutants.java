package org.lockspi.tck.mutants;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockUri;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/** Broken variants of {@code redis-baseline}, each with one defect, injected at the SPI. */
public final class RedisMutants {
    private RedisMutants() {
    }

    /** redis-baseline, with the server and key prefix of its URI at hand, for a mutant that touches keys itself. */
    abstract static class OnRedisKeys extends ForwardingProvider {
        private volatile HostAndPort server;
        private volatile String keyPrefix;

        OnRedisKeys(String name) {
            super(name, new RedisLockProvider());
        }

        @Override
        protected LockUri uri(LockUri uri) {
            server = HostAndPort.from(uri.hosts().get(0));
            keyPrefix = uri.parameter("keyPrefix").orElse("lockspi:");
            return uri;
        }

        /** @return the server the URI names */
        HostAndPort server() {
            return server;
        }

        /** @return the lock's base key, {@code <keyPrefix>{<name>}} */
        String redisKey(String name) {
            return keyPrefix + "{" + name + "}";
        }
    }

    /** The busy reply of the acquire script (nil) taken for a grant: a held lock is "acquired" anyway. */
    public static final class BusyAsGranted extends ForwardingProvider {
        /** For ServiceLoader. */
        public BusyAsGranted() {
            super("mutant-redis-busy-as-granted", new RedisLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            BackendLease lease = backend.acquire(request, deadline);
            return lease != null ? lease : new BackendLease() {
                @Override
                public long fencingToken() {
                    return 0; // the nil reply read as the number 0
                }

                @Override
                public boolean isLost() {
                    return false;
                }

                @Override
                public void release() {
                    // the owner check finds another owner: nothing deleted
                }
            };
        }
    }

    /**
     * Reentrant per client instead of per acquisition: one owner per service and lock name, so that a second
     * acquisition of a semaphore while the service holds a permit re-enters it instead of taking another
     * (Redisson-style counting). On the mutex the engine's local queue never lets a second acquisition of one
     * service reach the backend while the first holds, so the defect shows on a semaphore of more than one permit.
     */
    public static final class ClientReentrant extends ForwardingProvider {
        private final Map<Key, Shared> held = new HashMap<>(); // guarded by itself

        /** For ServiceLoader. */
        public ClientReentrant() {
            super("mutant-redis-client-reentrant", new RedisLockProvider());
        }

        private record Key(LockBackend backend, String name) {
        }

        /** One server acquisition shared by every acquisition of the service. */
        private final class Shared {
            final Key key;
            final BackendLease real;
            int count = 1; // guarded by held

            Shared(Key key, BackendLease real) {
                this.key = key;
                this.real = real;
            }

            BackendLease lease() {
                return new Lease(real) {
                    @Override
                    public void release() {
                        synchronized (held) {
                            if (--count > 0) {
                                return;
                            }
                            held.remove(key);
                        }
                        real.release();
                    }
                };
            }
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            if (request.kind() != LockKind.SEMAPHORE) {
                return backend.acquire(request, deadline);
            }
            Key key = new Key(backend, request.name());
            synchronized (held) {
                Shared shared = held.get(key);
                if (shared != null && !shared.real.isLost()) {
                    shared.count++;
                    return shared.lease();
                }
            }
            BackendLease real = backend.acquire(request, deadline);
            if (real == null) {
                return null;
            }
            Shared shared = new Shared(key, real);
            synchronized (held) {
                held.put(key, shared);
            }
            return shared.lease();
        }
    }

    /** An InterruptedException from the wait taken for a spurious wake-up: the acquisition waits again. */
    public static final class RetriesInterrupt extends ForwardingProvider {
        /** For ServiceLoader. */
        public RetriesInterrupt() {
            super("mutant-redis-retries-interrupt", new RedisLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline) {
            while (true) {
                try {
                    return backend.acquire(request, deadline);
                } catch (InterruptedException spurious) {
                    // "a spurious wake-up": wait again (the closed backend's IllegalStateException ends it)
                }
            }
        }
    }

    /** The permit count checked with {@code >} instead of {@code >=}: one permit more than asked for. */
    public static final class SemaphoreOffByOne extends ForwardingProvider {
        /** For ServiceLoader. */
        public SemaphoreOffByOne() {
            super("mutant-redis-semaphore-off-by-one", new RedisLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.kind() == LockKind.SEMAPHORE
                    ? AcquireRequest.semaphore(request.name(), request.permits() + 1) : request;
        }
    }

    /**
     * Keys namespaced by the process (its pid in the key prefix): the clients of one JVM exclude each other, other
     * processes take the same lock under other keys.
     */
    public static final class ProcessLocalKeys extends ForwardingProvider {
        /** For ServiceLoader: the child JVMs of §10 find it by name. */
        public ProcessLocalKeys() {
            super("mutant-redis-process-local-keys", new RedisLockProvider());
        }

        @Override
        protected LockUri uri(LockUri uri) {
            String text = uri.toString();
            return LockUri.parse(text + (text.indexOf('?') < 0 ? '?' : '&') + "keyPrefix=lockspi:"
                    + ProcessHandle.current().pid() + ":");
        }
    }

    /** Declares FAIR, but its waiters poll with a jittered back-off: whoever polls first after a release wins. */
    public static final class ClaimsFair extends ForwardingProvider {
        private static final Set<LockFeature> FEATURES;

        static {
            EnumSet<LockFeature> features = EnumSet.copyOf(new RedisLockProvider().features());
            features.add(LockFeature.FAIR);
            FEATURES = Set.copyOf(features);
        }

        /** For ServiceLoader. */
        public ClaimsFair() {
            super("mutant-redis-claims-fair", new RedisLockProvider());
        }

        @Override
        public Set<LockFeature> features() {
            return FEATURES;
        }
    }

    /**
     * {@code confirmedUntilNanos()} and {@code validUntilNanos()} left at the SPI's defaults (not tracked): a lease
     * learns of its end only from the watchdog's next renewal, so a holder resumed from a pause trusts it first.
     */
    public static final class ValidityUntracked extends ForwardingProvider {
        /** For ServiceLoader: the child JVM of §18.3 finds it by name. */
        public ValidityUntracked() {
            super("mutant-redis-validity-untracked", new RedisLockProvider());
        }

        @Override
        protected Lease lease(BackendLease real) {
            return new Lease(real) {
                @Override
                public long confirmedUntilNanos() {
                    return Long.MAX_VALUE;
                }

                @Override
                public long validUntilNanos() {
                    return Long.MAX_VALUE;
                }
            };
        }
    }

    /**
     * LEASE_TIME declared (the real provider's features), but the lease time dropped on the way to the backend: a
     * lease acquired with one is renewed as any other, held past its end.
     */
    public static final class LeaseTimeDropped extends ForwardingProvider {
        /** For ServiceLoader. */
        public LeaseTimeDropped() {
            super("mutant-redis-lease-time-dropped", new RedisLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.withLeaseTime(null);
        }
    }

    /**
     * The lease time kept by the holder alone: its lease turns LOST at the end (validUntilNanos capped from before
     * the request was sent), but the server is asked without it, and the key is renewed for as long as the holder
     * lives, as a ZooKeeper node would be: another client waits past the end.
     */
    public static final class LeaseTimeClientOnly extends ForwardingProvider {
        /** For ServiceLoader. */
        public LeaseTimeClientOnly() {
            super("mutant-redis-lease-time-client-only", new RedisLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            long sent = System.nanoTime();
            BackendLease real = backend.acquire(request.withLeaseTime(null), deadline);
            if (real == null || request.leaseTime().isEmpty()) {
                return real;
            }
            long end = sent + request.leaseTime().get().toNanos();
            return new Lease(real) {
                @Override
                public long validUntilNanos() {
                    long valid = real.validUntilNanos();
                    return end - valid < 0 ? end : valid;
                }
            };
        }
    }

    /**
     * REVOCATION with the lock freed from the revoker's side: instead of writing a request the holder would see,
     * the revoker deletes the exclusive holder's key itself and wakes the waiters ("the holder will notice at its
     * next renewal"), so the next waiter holds while the revoked lease still reads HELD.
     */
    public static final class RevokeFreesFromTheRevoker extends OnRedisKeys {
        /** For ServiceLoader. */
        public RevokeFreesFromTheRevoker() {
            super("mutant-redis-revoke-frees-from-the-revoker");
        }

        @Override
        protected boolean revoke(LockBackend backend, String key, long token, String requestedBy)
                throws InterruptedException {
            boolean held = backend.inspect(key).holders().stream()
                    .anyMatch(h -> h.fencingToken().orElse(-1) == token);
            if (held) {
                try (Jedis redis = new Jedis(server())) {
                    redis.del(redisKey(key)); // "the holder's renewal will find it gone"
                    redis.publish(redisKey(key) + ":wake", "*");
                }
            }
            return held;
        }
    }

    /** Every acquisition sent revocable, whether its service opted in or not: an operator revokes anyone. */
    public static final class RevocableAlways extends ForwardingProvider {
        /** For ServiceLoader. */
        public RevocableAlways() {
            super("mutant-redis-revocable-always", new RedisLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.revocable();
        }
    }

    /**
     * The exclusive release as a plain {@code DEL} of the lock's key, without comparing the owner token: a late
     * release of a lease that was lost meanwhile deletes the next holder's key.
     */
    public static final class ReleaseWithoutOwnerCheck extends OnRedisKeys {
        /** For ServiceLoader. */
        public ReleaseWithoutOwnerCheck() {
            super("mutant-redis-release-without-owner-check");
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            BackendLease real = backend.acquire(request, deadline);
            if (real == null || request.kind() == LockKind.READ || request.kind() == LockKind.SEMAPHORE) {
                return real;
            }
            String key = redisKey(request.name());
            HostAndPort at = server();
            return new Lease(real) {
                @Override
                public void release() {
                    real.release();
                    try (Jedis redis = new Jedis(at)) {
                        redis.del(key); // "DEL is enough: the key is ours"
                    }
                }
            };
        }
    }

    /**
     * A pooled connection broken by a server restart is not replaced before use: the first acquisition after the
     * connection was lost fails with it instead of retrying on a fresh connection.
     */
    public static final class StaleConnectionSurfaces extends ForwardingProvider {
        /** For ServiceLoader. */
        public StaleConnectionSurfaces() {
            super("mutant-redis-stale-connection-surfaces", new RedisLockProvider());
        }

        @Override
        public LockBackend open(LockUri uri, BackendEvents events) {
            AtomicBoolean broken = new AtomicBoolean();
            LockBackend backend = super.open(uri, new BackendEvents() {
                @Override
                public void connectionSuspended() {
                    broken.set(true);
                    events.connectionSuspended();
                }

                @Override
                public void connectionRestored() {
                    events.connectionRestored();
                }

                @Override
                public void leasesConfirmed() {
                    events.leasesConfirmed();
                }

                @Override
                public void leaseLost(BackendLease lease) {
                    events.leaseLost(lease);
                }
            });
            return new LockBackend() {
                @Override
                public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
                    if (broken.getAndSet(false)) {
                        throw new LockConnectionException("acquiring " + request + ": connection reset (a pooled "
                                + "connection broken by the server's restart)");
                    }
                    return backend.acquire(request, deadline);
                }

                @Override
                public void close() {
                    backend.close();
                }
            };
        }
    }

    /**
     * A lease's validity counted from when the answer to its last renewal came (as this wrapper first sees the
     * deadline move), not from when the renewal was sent, and so is the timer that marks it lost: an answer that
     * comes late stretches the lease past the key's expiry on the server.
     */
    public static final class ValidityFromAnswer extends ForwardingProvider {
        private volatile long spanNanos;

        /** For ServiceLoader. */
        public ValidityFromAnswer() {
            super("mutant-redis-validity-from-answer", new RedisLockProvider());
        }

        @Override
        protected LockUri uri(LockUri uri) {
            // the provider's validity span: the lease time less its drift margin (1 % + 2 ms)
            Duration lease = uri.duration("leaseTime", Duration.ofSeconds(30), Duration.ofMillis(1), Duration.ofDays(1));
            spanNanos = lease.minus(lease.dividedBy(100).plusMillis(2)).toNanos();
            return uri;
        }

        @Override
        protected Lease lease(BackendLease real) {
            return new FromAnswer(real);
        }

        @Override
        protected void leaseLost(BackendEvents engine, BackendLease lease) {
            if (lease instanceof FromAnswer late && !late.due()) {
                return; // the provider's expiry timer, at the send-based deadline: "not yet" by the answer's
            }
            engine.leaseLost(lease);
        }

        /** The real lease, its deadlines moved by how late the answer that set them was seen. */
        private final class FromAnswer extends Lease {
            private long seen; // guarded by this: the real deadline last seen
            private long late; // guarded by this: how long after its send its answer was seen

            FromAnswer(BackendLease real) {
                super(real);
            }

            private synchronized long late() {
                long valid = real.validUntilNanos();
                if (valid != seen) {
                    seen = valid; // a renewal was answered just now: count from now
                    late = Math.max(0, System.nanoTime() - (valid - spanNanos));
                }
                return late;
            }

            boolean due() {
                return System.nanoTime() - validUntilNanos() >= 0;
            }

            @Override
            public boolean isLost() {
                return real.isLost() && due();
            }

            @Override
            public long validUntilNanos() {
                long valid = real.validUntilNanos();
                return valid == Long.MAX_VALUE ? valid : valid + late();
            }

            @Override
            public long confirmedUntilNanos() {
                long confirmed = real.confirmedUntilNanos();
                return confirmed == Long.MAX_VALUE ? confirmed : confirmed + late();
            }
        }
    }

    /**
     * After a lost connection the service opens a fresh client for its next acquisition and keeps the old one for
     * the leases it holds; {@code close()} closes the current client only, so the old one's connections (its pool,
     * its watch and subscriber) outlive the service.
     */
    public static final class CloseEndsOnlyCurrent extends ForwardingProvider {
        /** The replaced clients, closed by the run after its last test so the module's JVM stays clean. */
        static final List<LockBackend> FORGOTTEN = new CopyOnWriteArrayList<>();

        /** For ServiceLoader. */
        public CloseEndsOnlyCurrent() {
            super("mutant-redis-close-ends-only-current", new RedisLockProvider());
        }

        @Override
        public LockBackend open(LockUri uri, BackendEvents events) {
            return new Replacing(uri, events);
        }

        /** Closes what the mutant forgot. */
        static void closeForgotten() {
            for (LockBackend backend : FORGOTTEN) {
                FORGOTTEN.remove(backend);
                backend.close();
            }
        }

        /**
         * The service's client, opened anew at the first acquisition after a connection was lost; the connection
         * events of the current client alone reach the engine (a new client is connected), its leases' events of
         * every client.
         */
        private final class Replacing implements LockBackend {
            private final LockUri uri;
            private final BackendEvents events;
            private final AtomicBoolean dropped = new AtomicBoolean();
            private volatile LockBackend current;

            Replacing(LockUri uri, BackendEvents events) {
                this.uri = uri;
                this.events = events;
                this.current = openOne();
            }

            private LockBackend openOne() {
                LockBackend[] self = new LockBackend[1];
                self[0] = CloseEndsOnlyCurrent.super.open(uri, new BackendEvents() {
                    @Override
                    public void connectionSuspended() {
                        if (self[0] == null || self[0] == current) {
                            dropped.set(true);
                            events.connectionSuspended();
                        }
                    }

                    @Override
                    public void connectionRestored() {
                        if (self[0] == null || self[0] == current) {
                            events.connectionRestored();
                        }
                    }

                    @Override
                    public void leasesConfirmed() {
                        events.leasesConfirmed();
                    }

                    @Override
                    public void leaseLost(BackendLease lease) {
                        events.leaseLost(lease);
                    }
                });
                return self[0];
            }

            @Override
            public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
                if (dropped.getAndSet(false)) {
                    FORGOTTEN.add(current); // kept for the leases it holds, and forgotten
                    current = openOne();
                    events.connectionRestored(); // the fresh client is connected
                }
                return current.acquire(request, deadline);
            }

            @Override
            public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
                return current.inspect(name);
            }

            @Override
            public List<String> list(String prefix) throws InterruptedException {
                return current.list(prefix);
            }

            @Override
            public void close() {
                current.close(); // the replaced clients are not closed
            }
        }
    }
}
