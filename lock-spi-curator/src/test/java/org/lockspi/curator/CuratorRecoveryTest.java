package org.lockspi.curator;

import org.lockspi.spi.LockProvider;
import org.lockspi.zookeeper.recipe.scenarios.RecoveryScenarios;

/** The recovery scenarios (session expiry, server restarts) of the recipe's providers, on {@code curator}. */
class CuratorRecoveryTest extends RecoveryScenarios {
    @Override
    protected LockProvider provider() {
        return new CuratorLockProvider();
    }
}
