package org.lockspi.curator.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.lockspi.spi.Deadline;

/**
 * The clean-up after a failed revocable semaphore acquisition. Curator may leave its lease node behind when an
 * interrupt lands between its create and its return (releasing its internal lock). A non-revocable acquisition finds
 * that node by a mark of its own in the node's data ({@link CuratorDeletes#deleteMarkedLeases}); a revocable one
 * cannot, since every revocable node carries the same data, the revocable mark. Its node is found instead as a lease
 * node of this client's session with the mark that is none of this backend's leases. That is only safe while no
 * other acquisition of this backend is under way on the same semaphore (its node, granted or waiting for a permit,
 * looks the same), so each revocable semaphore acquisition passes a gate for its path, from its start until its lease
 * is registered; a failed one asks for the search, and the last one out makes it while the gate is shut (acquisitions
 * of that path arriving meanwhile wait for its few requests, never past their deadline). While the connection is down
 * the search waits for the next acquisition of the path to leave.
 *
 * <p>Only on the provider's own client, whose session serves this backend alone: on an application's client another
 * backend may share the session (a service there takes no parameters, so it is not revocable today).
 */
final class RevocableLeftovers {
    private static final class Gate {
        int inside;
        boolean wanted;
        boolean searching;
    }

    private final BooleanSupplier connected;
    /** Searches one semaphore's path and deletes what it finds; never throws. */
    private final Consumer<String> search;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition searched = lock.newCondition();
    private final Map<String, Gate> gates = new HashMap<>(); // guarded by lock

    /**
     * @param connected whether the client is connected now
     * @param search    searches one semaphore's path (its full path) and deletes what it finds; never throws
     */
    RevocableLeftovers(BooleanSupplier connected, Consumer<String> search) {
        this.connected = connected;
        this.search = search;
    }

    /**
     * Passes the gate of a semaphore's path, waiting while its search runs, never past the acquisition's deadline.
     *
     * @return false if the deadline passed first (nothing was created; the caller must not {@link #leave})
     * @throws InterruptedException if interrupted while waiting (nothing was created)
     */
    boolean enter(String path, Deadline deadline) throws InterruptedException {
        lock.lock();
        try {
            Gate gate;
            while ((gate = gates.computeIfAbsent(path, p -> new Gate())).searching) {
                if (deadline.isInfinite()) {
                    searched.await();
                } else if (deadline.hasExpired()) {
                    return false;
                } else {
                    searched.awaitNanos(deadline.remainingNanos());
                }
            }
            gate.inside++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** An acquisition inside the gate failed: a node of it may be left behind. */
    void failed(String path) {
        lock.lock();
        try {
            Gate gate = gates.get(path);
            if (gate != null) {
                gate.wanted = true;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Leaves the gate, once the acquisition's lease (if any) is registered; the last one out makes a wanted search,
     * with the calling thread's interrupt flag clear (and set again after).
     */
    void leave(String path) {
        Gate gate;
        lock.lock();
        try {
            gate = gates.get(path);
            gate.inside--;
            if (gate.inside > 0 || !gate.wanted || !connected.getAsBoolean()) {
                if (gate.inside == 0 && !gate.wanted) {
                    gates.remove(path);
                }
                return;
            }
            gate.wanted = false;
            gate.searching = true;
        } finally {
            lock.unlock();
        }
        boolean interrupted = Thread.interrupted();
        try {
            search.accept(path);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            lock.lock();
            try {
                gate.searching = false;
                if (gate.inside == 0 && !gate.wanted) {
                    gates.remove(path);
                }
                searched.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
