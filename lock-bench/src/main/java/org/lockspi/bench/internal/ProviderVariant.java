package org.lockspi.bench.internal;

import org.lockspi.AsyncAcquirable;
import org.lockspi.DistributedLock;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;

/** A provider measured through lock-api only: {@code Locks.open(uri, name)}, {@code mutex(name).acquire()}. */
final class ProviderVariant implements Variant {
    private final String provider;
    private final Backend backend;
    private final String baseUri;

    ProviderVariant(String provider, Backend backend, String baseUri) {
        this.provider = provider;
        this.backend = backend;
        this.baseUri = baseUri;
    }

    @Override
    public String name() {
        return provider;
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public Role role() {
        return Role.PROVIDER;
    }

    /** @return the URI every scope's URI is built from */
    String baseUri() {
        return baseUri;
    }

    /** @return the URI a client of this variant opens for a scope */
    String uri(String scope) {
        return backend == Backend.ZOOKEEPER ? baseUri + "/bench/" + scope : baseUri;
    }

    /**
     * @return the name a client opened with {@link #uri(String)} gives a lock: on Redis and JDBC, where one URI
     *         serves every scope, the scope and a dot prefix it (what {@code CurveScenario.scopedEntries} counts)
     */
    String lockName(String scope, String lockName) {
        return (backend == Backend.ZOOKEEPER ? "" : scope + ".") + lockName;
    }

    @Override
    public Client open(String scope) {
        LockService service = Locks.open(uri(scope), provider);
        return new Client() {
            @Override
            public Locker locker(String lockName) {
                DistributedLock mutex = service.mutex(lockName(scope, lockName));
                return () -> {
                    Lease lease = mutex.acquire();
                    return lease::release;
                };
            }

            @Override
            public Locker nonReentrantLocker(String lockName) {
                AsyncAcquirable mutex = service.nonReentrantMutex(lockName(scope, lockName));
                return () -> {
                    Lease lease = mutex.acquire();
                    return lease::release;
                };
            }

            @Override
            public String zkLockPath(String lockName) {
                return backend == Backend.ZOOKEEPER ? "/bench/" + scope + "/" + lockName : null;
            }

            @Override
            public void close() {
                service.close();
            }
        };
    }
}
