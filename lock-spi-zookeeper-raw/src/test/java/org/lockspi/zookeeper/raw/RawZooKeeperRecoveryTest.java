package org.lockspi.zookeeper.raw;

import org.lockspi.spi.LockProvider;
import org.lockspi.zookeeper.recipe.scenarios.RecoveryScenarios;

/** The recovery scenarios (session expiry, server restarts) on {@code zookeeper-raw}. */
class RawZooKeeperRecoveryTest extends RecoveryScenarios {
    @Override
    protected LockProvider provider() {
        return new RawZooKeeperLockProvider();
    }
}
