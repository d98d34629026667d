package org.lockspi.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.lockspi.LockPart;
import org.lockspi.MultiLock;
import org.lockspi.spi.Deadline;

/**
 * A multi-lock: its parts resolved to the service's own locks and sorted into the global order (name, then
 * kind); acquired one after another within one deadline, and rolled back in the reverse order on any way out
 * but a whole set.
 */
final class MultiLockImpl extends BaseAcquirable<MultiLeaseImpl> implements MultiLock {
    private final EngineService service;
    private final List<LockPart> parts;
    private final List<AbstractAcquirable> locks;
    private final String name;
    private final boolean threadOwned;

    private MultiLockImpl(EngineService service, List<LockPart> parts, List<AbstractAcquirable> locks) {
        this.service = service;
        this.parts = List.copyOf(parts);
        this.locks = List.copyOf(locks);
        this.name = parts.stream().map(LockPart::name).collect(Collectors.joining(" + "));
        this.threadOwned = parts.stream().anyMatch(p -> p.kind().threadOwned());
    }

    /**
     * Checks the parts, sorts them and obtains each from the service's factory of its kind (which checks the
     * feature, the name's use in the service and that the service is open), before anything is acquired.
     */
    static MultiLockImpl of(EngineService service, Collection<LockPart> given) {
        Objects.requireNonNull(given, "parts is null");
        List<LockPart> sorted = new ArrayList<>(given.size());
        for (LockPart part : given) {
            if (part == null) {
                throw new NullPointerException("part " + sorted.size() + " of a multi-lock is null: " + given);
            }
            sorted.add(part);
        }
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException("a multi-lock needs at least one part: none given");
        }
        Collections.sort(sorted);
        for (int i = 1; i < sorted.size(); i++) {
            LockPart before = sorted.get(i - 1);
            LockPart part = sorted.get(i);
            if (before.equals(part)) {
                throw new IllegalArgumentException("a multi-lock names " + part + " twice: " + given);
            }
            if (before.name().equals(part.name())) {
                throw new IllegalArgumentException("a multi-lock names lock '" + part.name() + "' twice, as "
                        + before + " and as " + part + ": one name is one lock of one kind: " + given);
            }
        }
        List<AbstractAcquirable> locks = new ArrayList<>(sorted.size());
        for (LockPart part : sorted) {
            locks.add(resolve(service, part));
        }
        return new MultiLockImpl(service, sorted, locks);
    }

    @Override
    public MultiLockImpl withLeaseTime(java.time.Duration leaseTime) {
        AbstractAcquirable.checkLeaseTime(service, leaseTime);
        List<AbstractAcquirable> views = new ArrayList<>(locks.size());
        for (AbstractAcquirable lock : locks) {
            views.add(lock.viewWithLeaseTime(leaseTime));
        }
        return new MultiLockImpl(service, parts, views);
    }

    private static AbstractAcquirable resolve(EngineService service, LockPart part) {
        String name = part.name();
        switch (part.kind()) {
            case MUTEX:
                return (ThreadOwnedLock) service.mutex(name);
            case NON_REENTRANT_MUTEX:
                return (LeaseLock) service.nonReentrantMutex(name);
            case READ:
                return ((ReadWriteLockImpl) service.readWriteLock(name)).readLock();
            case WRITE:
                return ((ReadWriteLockImpl) service.readWriteLock(name)).writeLock();
            case THREAD_FREE_READ:
                return ((ThreadFreeReadWriteLockImpl) service.threadFreeReadWriteLock(name)).readLock();
            case THREAD_FREE_WRITE:
                return ((ThreadFreeReadWriteLockImpl) service.threadFreeReadWriteLock(name)).writeLock();
            default:
                return (LeaseLock) service.semaphore(name, part.permits());
        }
    }

    @Override
    MultiLeaseImpl acquire(Deadline deadline) throws InterruptedException {
        service.checkOpen();
        List<LeaseImpl> taken = new ArrayList<>(locks.size());
        try {
            for (AbstractAcquirable lock : locks) {
                LeaseImpl lease = lock.acquire(deadline); // one deadline for the whole set
                if (lease == null) {
                    RuntimeException failed = rollBack(taken, null);
                    if (failed != null) {
                        throw failed; // the way to empty, or to a timeout, went through a failed release
                    }
                    return null;
                }
                taken.add(lease);
            }
        } catch (InterruptedException | RuntimeException | Error e) {
            if (!taken.isEmpty()) {
                rollBack(taken, e);
            }
            throw e;
        }
        return new MultiLeaseImpl(service, name, taken, threadOwned ? Thread.currentThread() : null);
    }

    /**
     * Releases the parts taken, newest first; each release is attempted.
     *
     * @param cause the exception that ends the acquisition, to which release failures are added; or null
     * @return with no cause, the first release failure (the others suppressed in it), or null
     */
    private static RuntimeException rollBack(List<LeaseImpl> taken, Throwable cause) {
        RuntimeException first = null;
        for (int i = taken.size() - 1; i >= 0; i--) {
            try {
                taken.get(i).releasePart();
            } catch (RuntimeException e) {
                if (cause != null) {
                    cause.addSuppressed(e);
                } else if (first == null) {
                    first = e; // LockConnectionException: released locally, the server frees it later
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<LockPart> parts() {
        return parts;
    }

    @Override
    public String toString() {
        return "multi-lock " + parts;
    }
}
