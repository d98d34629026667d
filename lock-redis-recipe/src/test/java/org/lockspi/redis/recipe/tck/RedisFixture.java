package org.lockspi.redis.recipe.tck;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.redis.EmbeddedRedisBackend;

/**
 * One real {@code redis-server} for a test class, and the lock services its tests open on it, each closed after
 * its test:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisFixture redis = new RedisFixture();
 * ...
 * LockService jedis = redis.open(new RedisLockProvider());
 * }</pre>
 */
public final class RedisFixture implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    private final List<LockService> services = new ArrayList<>(); // guarded by itself
    private volatile EmbeddedRedisBackend server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = EmbeddedRedisBackend.start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<LockService> opened;
        synchronized (services) {
            opened = new ArrayList<>(services);
            services.clear();
        }
        opened.forEach(LockService::close);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    /** @return the server, started before the class's first test and stopped after its last */
    public EmbeddedRedisBackend server() {
        return server;
    }

    /**
     * Opens a service of the provider with the TCK's parameters ({@link RedisRecipeTck#PARAMETERS}), closed after
     * the test.
     *
     * @param provider the provider
     * @return the service
     */
    public LockService open(LockProvider provider) {
        return open(provider, RedisRecipeTck.PARAMETERS);
    }

    /**
     * Opens a service of the provider with these parameters, closed after the test.
     *
     * @param provider   the provider
     * @param parameters the URI's query, without {@code ?}
     * @return the service
     */
    public LockService open(LockProvider provider, String parameters) {
        LockService service = Locks.open(server.uri() + "?" + parameters, provider);
        synchronized (services) {
            services.add(service);
        }
        return service;
    }
}
