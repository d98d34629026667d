package org.lockspi.curator.internal;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.data.Stat;
import org.lockspi.LockConnectionException;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.zookeeper.recipe.internal.ZkLayout;

/**
 * One acquisition path per lock kind, each made by a fresh Curator recipe object ({@link InterProcessMutex} with the
 * {@link RecordingDriver}, {@link ReadWriteHalves an InterProcessReadWriteLock}, {@link InterProcessSemaphoreV2}), so
 * that Curator's per-thread bookkeeping never outlives one lockspi hold. Each path cleans up after itself when it
 * fails (with {@link CuratorDeletes}), and makes the lease from the node it holds: its czxid (the fencing token) and
 * ephemeral owner (the session it lives and dies with).
 */
final class CuratorAcquisitions {
    /** Curator's semaphore keeps its leases in this child of the semaphore's path. */
    private static final String SEMAPHORE_LEASES = "leases";
    /** Stands for "no deadline" where Curator's semaphore needs a number (its untimed form has no closed check). */
    private static final long UNBOUNDED_MILLIS = TimeUnit.DAYS.toMillis(365 * 100L);

    private final CuratorClient client;
    private final CuratorSessions sessions;
    private final CuratorDeletes deletes;
    private final RevocableLeftovers leftovers;

    CuratorAcquisitions(CuratorClient client, CuratorSessions sessions, CuratorDeletes deletes,
                        RevocableLeftovers leftovers) {
        this.client = client;
        this.sessions = sessions;
        this.deletes = deletes;
        this.leftovers = leftovers;
    }

    /**
     * One acquisition on the server, on the calling thread (Curator's mutex and read-write halves are owned by it).
     *
     * @param path the lock's path within the client's namespace
     * @param me   the calling thread
     * @return the lease, not yet registered; null if the deadline passed first
     * @throws LockConnectionException if the connection is down past the deadline or the connection timeout, or
     *                                 Curator failed
     */
    CuratorLease acquire(AcquireRequest request, String path, Deadline deadline, Thread me)
            throws InterruptedException {
        awaitConnection(request, deadline);
        try {
            switch (request.kind()) {
                case MUTEX:
                    return mutex(request, path, deadline, me);
                case WRITE: {
                    ReadWriteHalves rw = ReadWriteHalves.create(client.framework, path, nodeData(request));
                    if (!acquire(rw.write(), deadline)) {
                        return null;
                    }
                    return granted(request, rw.write().node(), me, rw, rw.write()::release);
                }
                case READ:
                    return read(request, path, deadline, me);
                case NON_REENTRANT_MUTEX:
                case SEMAPHORE:
                    return semaphore(request, path, deadline);
                default:
                    throw new IllegalArgumentException("unknown kind: " + request.kind());
            }
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw client.failure("could not acquire " + request, e);
        }
    }

    /**
     * While the connection is down Curator would wait for it, per operation and per retry, past any deadline: wait
     * here instead, at most the client's connection timeout and never past the deadline.
     */
    private void awaitConnection(AcquireRequest request, Deadline deadline) throws InterruptedException {
        if (client.isConnected()) {
            return;
        }
        long wait = Math.min(deadline.remainingMillis(),
                client.framework.getZookeeperClient().getConnectionTimeoutMs());
        if (wait > 0 && client.framework.blockUntilConnected((int) wait, TimeUnit.MILLISECONDS)) {
            return;
        }
        if (!client.isConnected()) {
            throw new LockConnectionException("not connected, cannot acquire " + request + " on "
                    + client.description);
        }
    }

    private CuratorLease mutex(AcquireRequest request, String path, Deadline deadline, Thread me) throws Exception {
        RecordingDriver driver = new RecordingDriver(sessions::confirmed);
        byte[] data = nodeData(request);
        InterProcessMutex mutex = new InterProcessMutex(client.framework, path, driver) {
            @Override
            protected byte[] getLockNodeBytes() {
                return data; // the recipe's own hook for its node's data, as its read-write lock uses it
            }
        };
        boolean acquired;
        try {
            acquired = acquire(mutex, deadline);
        } catch (InterruptedException e) {
            // Curator queued the delete of its node with the interrupt flag set; delete it ourselves as well
            Thread.interrupted();
            deletes.deleteQuietly(driver.created(), e);
            throw e;
        }
        if (!acquired) {
            return null;
        }
        Stat created = driver.createStat();
        if (created == null || !sessions.confirmedLately()) {
            // no stat from the create (Curator found its node again after a connection loss), or no request of
            // this client sent lately is known answered (a long wait): read the node, which confirms afresh
            return granted(request, driver.created(), me, null, mutex::release);
        }
        // the create's stat has the token and the session; no request more
        return new CuratorLease(sessions, deletes, request.kind(), request.name(), driver.created(),
                created.getCzxid(), created.getEphemeralOwner(), me, null);
    }

    private CuratorLease read(AcquireRequest request, String path, Deadline deadline, Thread me) throws Exception {
        BackendLease heldWrite = request.heldWrite();
        ReadWriteHalves rw = null;
        if (heldWrite instanceof CuratorLease) {
            CuratorLease write = (CuratorLease) heldWrite;
            if (write.readWrite != null && write.owner == me && !write.isLost() && !write.isReleased()) {
                // a downgrade: Curator grants the read half at once because this thread owns the write half
                rw = write.readWrite;
            }
        }
        boolean downgrade = rw != null;
        if (!downgrade) {
            rw = ReadWriteHalves.create(client.framework, path, nodeData(request));
        }
        if (!acquire(rw.read(), deadline)) {
            return null;
        }
        if (downgrade && heldWrite.isLost()) {
            // the write half died while Curator granted the read on its word: take the read the normal way
            rw.read().release();
            AcquireRequest plain = AcquireRequest.read(request.name(), null);
            return read(request.isRevocable() ? plain.revocable() : plain, path, deadline, me);
        }
        ReadWriteHalves.Read half = rw.read();
        return granted(request, half.node(), me, null, half::release);
    }

    private CuratorLease semaphore(AcquireRequest request, String path, Deadline deadline) throws Exception {
        // NON_REENTRANT_MUTEX is a semaphore of one, as Curator's InterProcessSemaphoreMutex is; that class does not
        // show its lease node, which the fencing token needs, so the semaphore is used directly (same nodes).
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client.framework, path, request.permits());
        // A mark of this acquisition in its lease node: Curator leaves the node behind when an interrupt lands
        // between its create and its return (releasing its internal lock); the mark finds it. Curator reads no data.
        // A revocable acquisition's node carries the revocable mark instead, the same for all: RevocableLeftovers.
        boolean revocable = request.isRevocable();
        byte[] mark = revocable ? ZkLayout.revocableData()
                : ("lockspi-" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        semaphore.setNodeData(mark);
        long millis = deadline.isInfinite() ? UNBOUNDED_MILLIS : deadline.remainingMillis();
        Lease lease;
        try {
            lease = semaphore.acquire(millis, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            if (revocable) {
                leftovers.failed(path); // searched for once no acquisition of this backend is under way on it
                throw e;
            }
            boolean interrupted = Thread.interrupted() || e instanceof InterruptedException;
            deletes.deleteMarkedLeases(ZKPaths.makePath(path, SEMAPHORE_LEASES), mark, e);
            if (interrupted && !(e instanceof InterruptedException)) {
                Thread.currentThread().interrupt();
            }
            throw e;
        }
        if (lease == null) {
            return null;
        }
        String node = ZKPaths.makePath(path, SEMAPHORE_LEASES, lease.getNodeName());
        return granted(request, node, null, null, lease::close);
    }

    /**
     * The data of the node a mutex or read-write acquisition creates: the revocable mark for a revocable one
     * ({@link ZkLayout#revocableData()}), else null: the client's default data, as a plain Curator application's.
     * A downgraded read shares its write's data (Curator's one read-write lock object).
     */
    private static byte[] nodeData(AcquireRequest request) {
        return request.isRevocable() ? ZkLayout.revocableData() : null;
    }

    private static boolean acquire(InterProcessMutex mutex, Deadline deadline) throws Exception {
        if (deadline.isInfinite()) {
            mutex.acquire(); // false from Curator (client closed) surfaces as an IOException
            return true;
        }
        return mutex.acquire(deadline.remainingMillis(), TimeUnit.MILLISECONDS);
    }

    /** Reads the node's czxid and owner; if the node is already gone, the lease is born lost. */
    private CuratorLease granted(AcquireRequest request, String node, Thread owner, ReadWriteHalves readWrite,
                                 CuratorLease.CuratorRelease curatorRelease) throws Exception {
        Stat stat;
        try {
            long sent = System.nanoTime();
            stat = client.framework.checkExists().forPath(node);
            sessions.confirmed(sent); // the acquisition's last request: the session was alive when it arrived
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.interrupted();
            }
            try {
                curatorRelease.release();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
                deletes.deleteInBackground(node);
            }
            throw e;
        }
        CuratorLease lease = new CuratorLease(sessions, deletes, request.kind(), request.name(), node,
                stat == null ? -1 : stat.getCzxid(), stat == null ? 0 : stat.getEphemeralOwner(), owner, readWrite);
        if (stat == null) {
            lease.markLost();
        }
        return lease;
    }
}
