package org.lockspi.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.lockspi.Lease;
import org.lockspi.LockTimeoutException;
import org.lockspi.DistributedSemaphore;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKind;

/**
 * A lock whose leases belong to no thread: the non-reentrant mutex, the semaphore and the halves of the
 * thread-free read-write lock. Every acquisition is a server acquisition; any thread may release a lease, once;
 * it can be acquired asynchronously.
 */
final class LeaseLock extends AbstractAcquirable implements DistributedSemaphore, LocallyQueued {
    private final AcquireRequest request;
    /** The local queue of the exclusive kinds; null for the read half, whose acquisitions share. */
    private final LocalGate gate;

    LeaseLock(EngineService service, String name, AcquireRequest request) {
        super(service, name);
        this.request = request;
        this.gate = request.kind() == LockKind.READ ? null : new LocalGate(request.permits());
    }

    /** A view of {@code lock} whose acquisitions carry {@code leaseTime}; it shares the lock's local queue. */
    private LeaseLock(LeaseLock lock, Duration leaseTime) {
        super(lock.service, lock.name);
        this.request = lock.request.withLeaseTime(leaseTime);
        this.gate = lock.gate;
    }

    @Override
    public LeaseLock withLeaseTime(Duration leaseTime) {
        return viewWithLeaseTime(checkLeaseTime(service, leaseTime));
    }

    @Override
    LeaseLock viewWithLeaseTime(Duration leaseTime) {
        return new LeaseLock(this, leaseTime);
    }

    @Override
    LeaseImpl acquire(Deadline deadline) throws InterruptedException {
        if (gate == null) {
            BackendLease backendLease = acquireFromBackend(request, deadline);
            return backendLease == null ? null
                    : service.register(request, name, backendLease, null, null, null).firstLease();
        }
        service.checkOpen();
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring " + request);
        }
        return acquire(deadline, gate.reserve(toString()));
    }

    /** Acquires with a place in the local queue taken already; gives it back on every way out but a lease. */
    private LeaseImpl acquire(Deadline deadline, LocalGate.Ticket ticket) throws InterruptedException {
        try {
            service.checkOpen();
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted before acquiring " + request);
            }
        } catch (IllegalStateException | InterruptedException e) {
            gate.cancel(ticket);
            throw e;
        }
        if (!gate.await(ticket, deadline, toString())) {
            return null;
        }
        boolean handedOver = false;
        try {
            BackendLease backendLease = acquireFromBackend(request, deadline);
            if (backendLease == null) {
                return null;
            }
            Hold hold = service.register(request, name, backendLease, null, null, gate::leave);
            handedOver = true; // the hold leaves the gate when it ends
            return hold.firstLease();
        } finally {
            if (!handedOver) {
                gate.leave();
            }
        }
    }

    /**
     * The attempt an asynchronous acquisition runs in its own thread. Its place in the local queue is taken now,
     * in the caller's thread, so that a service's asynchronous acquisitions enter in the order they were asked for.
     */
    private AsyncWaits.Attempt queued() {
        if (gate == null) {
            return this::acquire;
        }
        service.checkOpen();
        LocalGate.Ticket ticket = gate.reserve(toString());
        return new AsyncWaits.Attempt() {
            @Override
            public LeaseImpl acquire(Deadline deadline) throws InterruptedException {
                return LeaseLock.this.acquire(deadline, ticket);
            }

            @Override
            public void abandoned() {
                gate.cancel(ticket);
            }
        };
    }

    /** @return this service's acquisitions waiting in the local queue, not yet at the server */
    @Override
    public int queuedLocally() {
        return gate == null ? 0 : gate.queued();
    }

    /** Fails the acquisitions waiting in the local queue (the service is closing). */
    @Override
    public void closeLocalQueues() {
        if (gate != null) {
            gate.close();
        }
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration timeout) {
        Names.checkTimeout(timeout);
        return service.startAsync(this, Deadline.after(timeout), queued(), new AsyncWaits.Outcome<>() {
            @Override
            public Lease granted(Lease lease) {
                return lease;
            }

            @Override
            public Lease timedOut() {
                throw new LockTimeoutException(name, timeout);
            }
        });
    }

    @Override
    public CompletableFuture<Optional<Lease>> tryAcquireAsync(Duration timeout) {
        Names.checkTimeout(timeout);
        return service.startAsync(this, Deadline.after(timeout), queued(), new AsyncWaits.Outcome<>() {
            @Override
            public Optional<Lease> granted(Lease lease) {
                return Optional.of(lease);
            }

            @Override
            public Optional<Lease> timedOut() {
                return Optional.empty();
            }
        });
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
        return describe() + request.leaseTime().map(t -> " (leaseTime " + t + ")").orElse("");
    }

    private String describe() {
        switch (request.kind()) {
            case SEMAPHORE:
                return "semaphore '" + name + "' (" + permits() + " permits)";
            case READ:
                return "thread-free read lock '" + name + "'";
            case WRITE:
                return "thread-free write lock '" + name + "'";
            default:
                return "non-reentrant mutex '" + name + "'";
        }
    }
}
