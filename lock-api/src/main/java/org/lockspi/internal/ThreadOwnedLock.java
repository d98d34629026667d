package org.lockspi.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.lockspi.DistributedLock;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockKind;

/**
 * A reentrant lock owned by a thread: the mutex and both halves of a read-write lock. One server acquisition
 * per thread; nested acquisitions add leases to that thread's {@link Hold}. The exclusive kinds (the mutex, the
 * write half) queue a service's threads locally in front of the server ({@link LocalGate}): one thread at a time
 * asks the server, as the non-reentrant mutex does, so ten thousand threads of one service waiting for a mutex
 * cost the server one queue entry, not ten thousand entries that each list the others.
 */
final class ThreadOwnedLock extends AbstractAcquirable implements DistributedLock, LocallyQueued {
    private final LockKind kind;
    /** The read-write lock this is a half of, or null for the mutex. */
    private final ReadWriteLockImpl readWrite;
    /** The threads' holds, shared by the lock and its views: one hold per thread whichever it acquired through. */
    private final Map<Thread, Hold> holds;
    /** The lease time of this view's acquisitions, or null for the lock itself and a view without one. */
    private final Duration leaseTime;
    /** The local queue of the exclusive kinds, shared with the views; null for the read half, whose holds share. */
    private final LocalGate gate;

    ThreadOwnedLock(EngineService service, String name, LockKind kind, ReadWriteLockImpl readWrite) {
        super(service, name);
        this.kind = kind;
        this.readWrite = readWrite;
        this.holds = new ConcurrentHashMap<>();
        this.leaseTime = null;
        this.gate = kind == LockKind.READ ? null : new LocalGate(1);
    }

    /** A view of {@code lock} whose acquisitions carry {@code leaseTime}. */
    private ThreadOwnedLock(ThreadOwnedLock lock, Duration leaseTime) {
        super(lock.service, lock.name);
        this.kind = lock.kind;
        this.readWrite = lock.readWrite;
        this.holds = lock.holds;
        this.leaseTime = leaseTime;
        this.gate = lock.gate;
    }

    @Override
    public ThreadOwnedLock withLeaseTime(Duration leaseTime) {
        return viewWithLeaseTime(checkLeaseTime(service, leaseTime));
    }

    @Override
    ThreadOwnedLock viewWithLeaseTime(Duration leaseTime) {
        return new ThreadOwnedLock(this, leaseTime);
    }

    @Override
    LeaseImpl acquire(Deadline deadline) throws InterruptedException {
        service.checkOpen();
        // A nested acquisition does not reach the backend, but an interrupted thread is refused all the same
        // (Acquirable's contract, and ReentrantLock.lockInterruptibly's). tryAcquire() cleared the flag already.
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring " + this);
        }
        Thread me = Thread.currentThread();
        Hold held = holds.get(me);
        if (held != null) {
            LeaseImpl nested = held.nestedLease();
            if (nested != null) {
                return nested;
            }
            holds.remove(me, held); // lost meanwhile: acquire afresh
        }
        AcquireRequest request;
        if (kind == LockKind.WRITE) {
            if (readWrite.readLock().heldBy(me) != null && readWrite.writeLock().heldBy(me) == null) {
                throw new IllegalMonitorStateException("read-to-write upgrade refused: thread '" + me.getName()
                        + "' holds the read lock of '" + name + "'; release it before acquiring the write lock");
            }
            request = AcquireRequest.exclusive(LockKind.WRITE, key);
        } else if (kind == LockKind.READ) {
            Hold write = readWrite.writeLock().heldBy(me);
            request = AcquireRequest.read(key, write == null ? null : write.backendLease);
        } else {
            request = AcquireRequest.exclusive(kind, key);
        }
        if (leaseTime != null) {
            request = request.withLeaseTime(leaseTime);
        }
        if (gate == null) {
            BackendLease backendLease = acquireFromBackend(request, deadline);
            return backendLease == null ? null : hold(request, backendLease, me, null);
        }
        if (!gate.await(gate.reserve(toString()), deadline, toString())) {
            return null;
        }
        boolean handedOver = false;
        try {
            BackendLease backendLease = acquireFromBackend(request, deadline);
            if (backendLease == null) {
                return null;
            }
            LeaseImpl lease = hold(request, backendLease, me, gate::leave);
            handedOver = true; // the hold leaves the gate when it ends
            return lease;
        } finally {
            if (!handedOver) {
                gate.leave();
            }
        }
    }

    private LeaseImpl hold(AcquireRequest request, BackendLease backendLease, Thread me, Runnable onEnd) {
        Hold hold = service.register(request, name, backendLease, me, this, onEnd);
        if (!hold.state().isTerminal()) {
            holds.put(me, hold);
        }
        return hold.firstLease();
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

    /** @return the live hold of a thread, or null */
    Hold heldBy(Thread thread) {
        Hold hold = holds.get(thread);
        return hold != null && !hold.state().isTerminal() ? hold : null;
    }

    /** Forgets a thread's hold once it is lost or released. */
    void detach(Hold hold) {
        holds.remove(hold.owner, hold);
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return heldBy(Thread.currentThread()) != null;
    }

    @Override
    public int holdCount() {
        Hold hold = heldBy(Thread.currentThread());
        return hold == null ? 0 : hold.liveLeases().size();
    }

    @Override
    public String toString() {
        return kind.toString().toLowerCase(java.util.Locale.ROOT) + " lock '" + name + "'"
                + (leaseTime != null ? " (leaseTime " + leaseTime + ")" : "");
    }
}
