package org.lockspi.zookeeper.recipe.scenarios;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * Scenarios written once for the ZooKeeper providers, each run by a provider's own subclass that names the
 * provider: one real in-process ZooKeeper server per test class, and clients (separate lock services, separate
 * sessions) with a short session timeout, so that expiry scenarios run in seconds. Shared through this module's
 * test jar ({@code lock-zookeeper-recipe:tests}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ZkProviderScenarios {
    /** The server; started before the first test, closed after the last. */
    protected EmbeddedZooKeeperBackend server;

    /** @return a new instance of the provider under test */
    protected abstract LockProvider provider();

    @BeforeAll
    void startServer() {
        server = EmbeddedZooKeeperBackend.start();
    }

    @AfterAll
    void stopServer() {
        server.close();
    }

    /** @return a new client of the provider: a session of its own, 4 s session timeout, 5 s connect timeout */
    protected LockService open() {
        return Locks.open(server.uri() + "?sessionTimeout=4s&connectTimeout=5s", provider());
    }
}
