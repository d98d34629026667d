package org.lockspi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The scheduler example end to end: the poller's process is killed and another node takes the role over. */
class SchedulerExampleTest {

    @Test
    void anotherNodeTakesOverAfterTheSessionTimeoutWhenThePollerIsKilled() {
        int session = 2000;
        SchedulerExample.Outcome outcome = SchedulerExample.run(System.out, "--nodes=2", "--kills=1",
                "--session=" + session, "--polls=2");
        assertTrue(outcome.violations().isEmpty(), outcome.violations()::toString);
        assertEquals(1, outcome.takeOvers().size());
        Duration takeOver = outcome.takeOvers().get(0);
        // the session ends a session timeout after the last heartbeat the server saw, which came before the kill
        assertTrue(takeOver.toMillis() > 0 && takeOver.toMillis() < session + 5_000,
                "take-over in " + takeOver.toMillis() + " ms with a session timeout of " + session + " ms");
        assertEquals(2, outcome.tokens().size());
        assertTrue(outcome.tokensIncreasing(), outcome.tokens()::toString);
    }
}
