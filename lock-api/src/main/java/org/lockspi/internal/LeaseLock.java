package org.lockspi.internal;

import org.lockspi.Semaphore;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKind;

/**
 * A lock whose leases belong to no thread: the non-reentrant mutex and the semaphore. Every acquisition is a
 * server acquisition; any thread may release a lease, once.
 */
final class LeaseLock extends AbstractAcquirable implements Semaphore {
    private final AcquireRequest request;

    LeaseLock(EngineService service, String name, AcquireRequest request) {
        super(service, name);
        this.request = request;
    }

    @Override
    LeaseImpl acquire(Deadline deadline) throws InterruptedException {
        BackendLease backendLease = acquireFromBackend(request, deadline);
        if (backendLease == null) {
            return null;
        }
        return service.register(request.kind(), name, backendLease, null, null).firstLease();
    }

    /** @return the request every acquisition sends */
    AcquireRequest request() {
        return request;
    }

    @Override
    public int permits() {
        return request.permits();
    }

    @Override
    public String toString() {
        return request.kind() == LockKind.SEMAPHORE ? "semaphore '" + name + "' (" + permits() + " permits)"
                : "non-reentrant mutex '" + name + "'";
    }
}
