package org.lockspi.bench.internal;

import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * Child JVM for the take-over measurement: {@code <provider> <uri> <lock name>}. Acquires the mutex through
 * lock-api, prints {@code HELD}, then waits to be killed (or ends when the parent goes, or after 5 minutes).
 */
public final class HolderProcess {
    private HolderProcess() {
    }

    public static void main(String[] args) throws Exception {
        ChildJvm.exitWhenParentGoes();
        LockService service = Locks.open(args[1], args[0]);
        Lease lease = service.mutex(args[2]).acquire();
        System.out.println("HELD " + lease.lockName());
        System.out.flush();
        Thread.sleep(300_000);
        System.exit(2);
    }
}
