package org.lockspi.internal;

import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKeys;

/** One lock of a service: its name, its backend key, and the common path to the backend. */
abstract class AbstractAcquirable extends BaseAcquirable<LeaseImpl> {
    final EngineService service;
    final String name;
    /** The backend key of {@link #name}: what every {@link AcquireRequest} of this lock names. */
    final String key;

    AbstractAcquirable(EngineService service, String name) {
        this.service = service;
        this.name = name;
        this.key = LockKeys.key(name);
    }

    /**
     * The checks of {@code Acquirable.withLeaseTime}, before a view is made: the value, the service open, the
     * provider's feature.
     *
     * @return the lease time
     */
    static java.time.Duration checkLeaseTime(EngineService service, java.time.Duration leaseTime) {
        Names.checkLeaseTime(leaseTime);
        service.checkOpen();
        service.requireFeature(org.lockspi.LockFeature.LEASE_TIME, "a lease time per acquisition");
        return leaseTime;
    }

    /** @return a view of this lock whose acquisitions carry {@code leaseTime}, checked already */
    abstract AbstractAcquirable viewWithLeaseTime(java.time.Duration leaseTime);

    /**
     * The common path to the backend: refuses a closed service or an interrupted thread, then asks under the
     * service's fail-fast rule (a suspended connection fails the acquisition within {@code failFast}).
     *
     * @return the backend lease, or null if the deadline passed first
     * @throws org.lockspi.LockConnectionException if the connection is or gets suspended for {@code failFast}
     */
    final BackendLease acquireFromBackend(AcquireRequest request, Deadline deadline) throws InterruptedException {
        service.checkOpen();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring " + request);
        }
        try {
            AcquireRequest sent = service.revocable ? request.revocable() : request;
            return service.failFast.run(sent, deadline, () -> service.backend().acquire(sent, deadline));
        } catch (InterruptedException e) {
            Thread.interrupted(); // the API promises a cleared flag, whatever the backend left
            throw e;
        }
    }

    @Override
    public final String name() {
        return name;
    }
}
