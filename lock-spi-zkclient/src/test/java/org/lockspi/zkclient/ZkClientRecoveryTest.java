package org.lockspi.zkclient;

import org.lockspi.spi.LockProvider;
import org.lockspi.zookeeper.recipe.scenarios.RecoveryScenarios;

/**
 * The recovery scenarios (session expiry, server restarts) on {@code zkclient}, which opens a new session by itself
 * when its session expires, silently to a caller that only uses its operations.
 */
class ZkClientRecoveryTest extends RecoveryScenarios {
    @Override
    protected LockProvider provider() {
        return new ZkClientLockProvider();
    }
}
