package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

/** A test of the recipe on the fake client: a fresh {@link FakeRecipe} for each test, closed after it. */
@Timeout(30)
abstract class OnFakeClient {
    /** A timeout no test here should reach: the waits end on events. */
    static final Duration LONG = Duration.ofSeconds(10);
    final FakeRecipe recipe = new FakeRecipe();
    final FakeZooKeeper zk = recipe.zk;

    @AfterEach
    void closeRecipe() {
        recipe.close();
    }
}
