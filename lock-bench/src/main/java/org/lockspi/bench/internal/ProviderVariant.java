package org.lockspi.bench.internal;

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

    /** @return the URI a client of this variant opens for a scope */
    String uri(String scope) {
        return backend == Backend.ZOOKEEPER ? baseUri + "/bench/" + scope : baseUri;
    }

    @Override
    public Client open(String scope) {
        LockService service = Locks.open(uri(scope), provider);
        String prefix = backend == Backend.REDIS ? scope + "." : "";
        return new Client() {
            @Override
            public Locker locker(String lockName) {
                DistributedLock mutex = service.mutex(prefix + lockName);
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
