package org.lockspi.tck.mutants;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.UUID;
import org.lockspi.redis.RedisFairLockProvider;
import org.lockspi.redis.RedisLockProvider;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockUri;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SetParams;

/**
 * Broken variants of {@code redis-baseline} and {@code redis-fair} whose defect touches one kind of lock only, or
 * one of the bounds a cut-off client must keep; injected at the SPI, as {@link RedisMutants} are.
 */
public final class RedisKindMutants {
    private RedisKindMutants() {
    }

    /**
     * The watchdog forgets read leases: they are never renewed, so the readers' entries expire after one lease time
     * while their holder lives (the renewal of one kind forgotten). The lease is handed to the watchdog's list by the
     * real backend; this variant takes it out again, through the backend's own {@code forget}.
     */
    public static final class RenewalSkipsReaders extends ForwardingProvider {
        /** For ServiceLoader. */
        public RenewalSkipsReaders() {
            super("mutant-redis-renewal-skips-readers", new RedisLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            BackendLease lease = backend.acquire(request, deadline);
            if (lease != null && request.kind() == LockKind.READ) {
                notRenewed(lease);
            }
            return lease;
        }

        /** Takes the lease out of the watchdog's list: {@code lease.backend.keeper.forget(lease)}. */
        private static void notRenewed(BackendLease lease) {
            try {
                Object backend = field(lease, "backend");
                Object keeper = field(backend, "keeper");
                Method forget = keeper.getClass().getDeclaredMethod("forget", lease.getClass());
                forget.setAccessible(true);
                forget.invoke(keeper, lease);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the Redis backend's watchdog is not where this mutant looks", e);
            }
        }

        private static Object field(Object owner, String name) throws ReflectiveOperationException {
            Field field = owner.getClass().getDeclaredField(name);
            field.setAccessible(true);
            return field.get(owner);
        }
    }

    /**
     * The read half takes the default lease time (30 s) instead of the URI's: renewed while the holder lives, but a
     * crashed reader's entry, and a crashed waiting reader's mark, outlive it by that long, and a reader learns of a
     * loss only at its renewal, every 10 s.
     */
    public static final class ReadDefaultLease extends ForwardingProvider {
        private final RedisLockProvider real = new RedisLockProvider();

        /** For ServiceLoader: the child JVM of §11 finds it by name. */
        public ReadDefaultLease() {
            super("mutant-redis-read-default-lease", new RedisLockProvider());
        }

        @Override
        public LockBackend open(LockUri uri, BackendEvents events) {
            LockBackend main = real.open(uri, events);
            LockBackend readers;
            try {
                readers = real.open(uri.withoutParameter("leaseTime"), events);
            } catch (RuntimeException e) {
                main.close();
                throw e;
            }
            return routed(main, readers, LockKind.READ);
        }
    }

    /**
     * A loss of a shared lease (a reader, a permit) is not reported: the lease says neither lost nor overdue, and the
     * watchdog's report of it is dropped, while LOST_NOTIFICATION is declared (the exclusive kinds report theirs).
     */
    public static final class SharedLossUnreported extends ForwardingProvider {
        /** For ServiceLoader. */
        public SharedLossUnreported() {
            super("mutant-redis-shared-loss-unreported", new RedisLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            BackendLease lease = backend.acquire(request, deadline);
            boolean shared = request.kind() == LockKind.READ || request.kind() == LockKind.SEMAPHORE;
            return lease != null && shared ? new Silent(lease) : lease;
        }

        @Override
        protected void leaseLost(BackendEvents engine, BackendLease lease) {
            if (!(lease instanceof Silent)) {
                engine.leaseLost(lease);
            }
        }
    }

    /** A reader that gives up (its timeout passed) leaves a waiter mark behind, which expires on its own later. */
    public static final class ReaderMarkLeft extends RedisMutants.OnRedisKeys {
        /** For ServiceLoader. */
        public ReaderMarkLeft() {
            super("mutant-redis-reader-mark-left");
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            BackendLease lease = backend.acquire(request, deadline);
            if (lease == null && request.kind() == LockKind.READ) {
                try (Jedis redis = new Jedis(server())) {
                    // "the mark expires by itself": the give-up forgets to delete it
                    redis.set(redisKey(request.name()) + ":wait:" + UUID.randomUUID(), "1",
                            SetParams.setParams().px(Duration.ofSeconds(4).toMillis()));
                }
            }
            return lease;
        }
    }

    /**
     * {@code redis-fair} whose non-reentrant mutex skips the queue: its acquisitions go through the baseline's
     * script, so its waiters race when woken instead of being served first come, first served (the other kinds
     * queue).
     */
    public static final class FairNonReentrantUnqueued extends ForwardingProvider {
        /** For ServiceLoader. */
        public FairNonReentrantUnqueued() {
            super("mutant-redis-fair-nrm-unqueued", new RedisFairLockProvider());
        }

        @Override
        public LockBackend open(LockUri uri, BackendEvents events) {
            LockBackend fair = super.open(uri, events);
            LockBackend plain;
            try {
                plain = new RedisLockProvider().open(uri, events);
            } catch (RuntimeException e) {
                fair.close();
                throw e;
            }
            return routed(fair, plain, LockKind.NON_REENTRANT_MUTEX);
        }
    }

    /**
     * {@code close()} deletes the service's leases one by one, each waiting its socket timeout when the server does
     * not answer, before the real close (which waits once): against a silent server it waits once per lease.
     */
    public static final class CloseWaitsPerLease extends ForwardingProvider {
        /** The live leases of each real backend. */
        private final IdentityHashMap<LockBackend, Set<BackendLease>> live = new IdentityHashMap<>(); // guarded

        /** For ServiceLoader. */
        public CloseWaitsPerLease() {
            super("mutant-redis-close-waits-per-lease", new RedisLockProvider());
        }

        @Override
        protected BackendLease acquire(LockBackend backend, AcquireRequest request, Deadline deadline)
                throws InterruptedException {
            BackendLease real = backend.acquire(request, deadline);
            if (real == null) {
                return null;
            }
            Set<BackendLease> leases = leasesOf(backend);
            leases.add(real);
            return new Lease(real) {
                @Override
                public void release() {
                    leases.remove(real);
                    real.release();
                }
            };
        }

        private Set<BackendLease> leasesOf(LockBackend backend) {
            synchronized (live) {
                return live.computeIfAbsent(backend, b -> Collections.synchronizedSet(
                        Collections.newSetFromMap(new IdentityHashMap<>())));
            }
        }

        @Override
        protected void close(LockBackend backend) {
            Set<BackendLease> leases;
            synchronized (live) {
                leases = live.remove(backend);
            }
            if (leases != null) {
                for (BackendLease lease : leases.toArray(new BackendLease[0])) {
                    try {
                        lease.release(); // "tidy up first", each waiting for its answer
                    } catch (RuntimeException e) {
                        // not deleted: the key expires
                    }
                }
            }
            backend.close();
        }
    }

    /**
     * @return a backend that sends the acquisitions of {@code kind} to {@code other} and the rest to {@code main},
     *         inspects through the one whose lease it is ({@code own}), lists through {@code main}; closing it closes
     *         both
     */
    private static LockBackend routed(LockBackend main, LockBackend other, LockKind kind) {
        return new LockBackend() {
            @Override
            public BackendLease acquire(AcquireRequest request, Deadline deadline) throws InterruptedException {
                return (request.kind() == kind ? other : main).acquire(request, deadline);
            }

            @Override
            public org.lockspi.LockInfo inspect(String name) throws InterruptedException {
                org.lockspi.LockInfo view = other.inspect(name);
                return view.holders().stream().anyMatch(org.lockspi.LockInfo.Holder::own) ? view : main.inspect(name);
            }

            @Override
            public java.util.List<String> list(String prefix) throws InterruptedException {
                return main.list(prefix);
            }

            @Override
            public void close() {
                try {
                    other.close();
                } finally {
                    main.close();
                }
            }
        };
    }
}
