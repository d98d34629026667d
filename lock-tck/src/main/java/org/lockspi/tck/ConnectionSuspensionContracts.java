package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockFeature;
import org.lockspi.tck.internal.StateRecorder;

/**
 * §16 Connection suspension: while the connection is down a held lease is {@link LeaseState#UNCERTAIN}; when the
 * connection comes back within the session (the server restarted quickly) it is {@link LeaseState#HELD} again,
 * with the same server state, and its listeners saw both changes.
 */
public interface ConnectionSuspensionContracts extends TckContext {

    @Test
    @Timeout(60)
    @DisplayName("§16.1 mutex: across a quick server restart the lease goes UNCERTAIN and back to HELD, and the "
            + "listener sees both")
    default void leaseSurvivesQuickRestart() throws InterruptedException {
        requireFeature(LockFeature.REENTRANT_MUTEX);
        requireFeature(LockFeature.LOST_NOTIFICATION);
        requireCapability(TckBackend.Capability.RESTART);
        String name = uniqueName("suspend");
        Lease lease = openClient().mutex(name).acquire(Duration.ofSeconds(10));
        StateRecorder recorder = new StateRecorder();
        lease.addListener(recorder);
        boolean inspect = backend().capabilities().contains(TckBackend.Capability.INSPECT);
        List<String> before = inspect ? backend().residue(name) : List.of();

        backend().restart();
        recorder.awaitChangeTo(LeaseState.UNCERTAIN, crashReleaseBound());
        recorder.awaitChangeTo(LeaseState.HELD, crashReleaseBound());

        List<String> changes = recorder.changes();
        assertTrue(changes.size() % 2 == 0, "as many returns to HELD as suspensions: " + changes);
        for (int i = 0; i < changes.size(); i++) {
            assertEquals(i % 2 == 0 ? "HELD->UNCERTAIN" : "UNCERTAIN->HELD", changes.get(i),
                    "suspension and return alternate, nothing else: " + changes);
        }
        assertEquals(LeaseState.HELD, lease.state());
        if (inspect) {
            assertEquals(before, backend().residue(name), "the same entry on the server");
        }
        assertTrue(openClient().mutex(name).tryAcquire().isEmpty(), "another client still cannot acquire");
        lease.release();
        if (inspect) {
            assertEquals(List.of(), backend().residue(name), "nothing left on the server");
        }
    }
}
