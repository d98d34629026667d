package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockConnectionException;
import org.lockspi.LockException;
import org.lockspi.spi.Deadline;

/**
 * The connection and session of one client as the recipe sees them, and the one place where an operation meets a
 * lost connection: {@link #call} runs an operation in one session, waiting for a lost connection to return (at
 * most until the deadline and at most {@code reconnectWait}), and {@link #once} runs a read that is not retried.
 *
 * <p>Sessions are numbered from 0 by the recipe, one more for each expiry; an acquisition runs in one of them, and
 * learns through {@link SessionLost} that its nodes went with it. The connection listener moves the gate
 * ({@link #disconnected()}, {@link #connected()}, {@link #expired()}); {@link #close()} ends every wait. Every
 * answered request confirms the session to the heartbeat's clock ({@code confirmed}).
 *
 * <p>Thread-safe; waiting threads park on a {@link ReentrantLock}'s condition, so a virtual thread does not pin its
 * carrier.
 */
final class SessionGate {
    private final String address;
    private final long reconnectWaitNanos;
    private final LongConsumer confirmed;

    /** Guards the connection fields; waiters for the connection wait on {@link #stateChanged}. */
    private final ReentrantLock state = new ReentrantLock();
    private final Condition stateChanged = state.newCondition();
    private boolean connected = true; // guarded by state
    private long epoch;               // guarded by state; changes on every connection event
    private volatile long session;    // written under state; changes when a session expires
    private volatile boolean closed;  // written under state

    /**
     * @param address       the server address, for messages
     * @param reconnectWait how long an operation waits for a lost connection to return (the connect timeout)
     * @param confirmed     told {@link System#nanoTime()} before each answered request was sent
     */
    SessionGate(String address, Duration reconnectWait, LongConsumer confirmed) {
        this.address = address;
        this.reconnectWaitNanos = reconnectWait.toNanos();
        this.confirmed = confirmed;
    }

    /** An operation of the client, run by the gate. */
    @FunctionalInterface
    interface Op<T> {
        T run() throws KeeperException, InterruptedException;
    }

    /** @return the current session's number; answers from memory */
    long session() {
        return session;
    }

    boolean isClosed() {
        return closed;
    }

    /** @return whether the connection is up now */
    boolean isConnected() {
        state.lock();
        try {
            return connected;
        } finally {
            state.unlock();
        }
    }

    /** @throws IllegalStateException if the backend is closed */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock backend is closed: ZooKeeper at " + address);
        }
    }

    /** @return a failure ZooKeeper reported that the recipe has no answer for, worded with the address */
    LockException unexpected(String what, KeeperException e) {
        return new LockException("ZooKeeper at " + address + " failed: " + what + ": " + e.code(), e);
    }

    // ---- operations ----------------------------------------------------------------------------------------------

    /**
     * Runs an operation in session {@code gen}, waiting for the connection to return after a loss and running it
     * again then.
     *
     * @throws SessionLost             if session {@code gen} has ended (before or during the operation)
     * @throws LockConnectionException if the connection does not return before the deadline or within
     *                                 {@code reconnectWait}
     * @throws IllegalStateException   if the backend is closed
     */
    <T> T call(Op<T> op, Deadline deadline, long gen) throws InterruptedException, SessionLost {
        while (true) {
            long before;
            state.lock();
            try {
                checkOpen();
                if (session != gen) {
                    throw SessionLost.INSTANCE;
                }
                before = epoch;
            } finally {
                state.unlock();
            }
            try {
                long sent = System.nanoTime();
                T result = op.run();
                confirmed.accept(sent);
                return result;
            } catch (KeeperException.ConnectionLossException e) {
                awaitReconnect(before, deadline, e);
            } catch (KeeperException.SessionExpiredException e) {
                throw SessionLost.INSTANCE;
            } catch (KeeperException e) {
                throw unexpected(e.getPath(), e);
            } catch (IllegalStateException e) {
                checkOpen(); // closed underneath us: say so in our words
                throw e;
            }
        }
    }

    /**
     * Runs a read once (for inspection): no retry, no wait for the connection.
     *
     * @param what what is read, for the message
     * @throws LockConnectionException if the connection or the session is lost
     */
    <T> T once(String what, Op<T> op) throws InterruptedException {
        try {
            long sent = System.nanoTime();
            T result = op.run();
            confirmed.accept(sent);
            return result;
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException e) {
            throw new LockConnectionException("cannot " + what + " at ZooKeeper " + address + ": " + e.code(), e);
        } catch (KeeperException e) {
            throw unexpected(what, e);
        } catch (IllegalStateException e) {
            checkOpen();
            throw e;
        }
    }

    /** Waits until connected after connection event {@code before}; fails at the deadline or reconnectWait. */
    private void awaitReconnect(long before, Deadline deadline, KeeperException cause) throws InterruptedException {
        long limit = System.nanoTime() + reconnectWaitNanos;
        state.lock();
        try {
            while (true) {
                checkOpen();
                if (connected && epoch != before) {
                    return;
                }
                long left = Math.min(deadline.remainingNanos(), limit - System.nanoTime());
                if (left <= 0) {
                    throw new LockConnectionException("connection to ZooKeeper at " + address
                            + " lost and not back " + (deadline.hasExpired() ? "before the deadline"
                            : "within " + Duration.ofNanos(reconnectWaitNanos)), cause);
                }
                stateChanged.awaitNanos(left);
            }
        } finally {
            state.unlock();
        }
    }

    /**
     * Waits until connected in a session other than {@code notSession}.
     *
     * @return that session's number
     * @throws LockConnectionException if not connected before the deadline or within {@code reconnectWait}
     */
    long awaitSession(long notSession, Deadline deadline) throws InterruptedException {
        long limit = System.nanoTime() + reconnectWaitNanos;
        state.lock();
        try {
            while (true) {
                checkOpen();
                if (connected && session != notSession) {
                    return session;
                }
                long left = Math.min(deadline.remainingNanos(), limit - System.nanoTime());
                if (left <= 0) {
                    throw new LockConnectionException("not connected to ZooKeeper at " + address + " "
                            + (deadline.hasExpired() ? "before the deadline"
                            : "within " + Duration.ofNanos(reconnectWaitNanos)));
                }
                stateChanged.awaitNanos(left);
            }
        } finally {
            state.unlock();
        }
    }

    // ---- connection events -----------------------------------------------------------------------------------------

    /** The connection dropped; the session may live on. */
    void disconnected() {
        state.lock();
        try {
            connected = false;
            epoch++;
        } finally {
            state.unlock();
        }
    }

    /**
     * Connected again, in the same session or in the new one after {@link #expired()}: from now on the connection
     * counts as up (a release deletes at once), but the operations waiting for it are woken only by
     * {@link #wakeWaiters()}, so that the engine can be told in between.
     */
    void connected() {
        state.lock();
        try {
            connected = true;
            epoch++;
        } finally {
            state.unlock();
        }
    }

    /** Wakes the operations waiting for the connection or a session, after {@link #connected()}. */
    void wakeWaiters() {
        state.lock();
        try {
            stateChanged.signalAll();
        } finally {
            state.unlock();
        }
    }

    /** The session expired: the next one has the next number. */
    void expired() {
        state.lock();
        try {
            connected = false;
            epoch++;
            session++;
            stateChanged.signalAll();
        } finally {
            state.unlock();
        }
    }

    /**
     * Closes the gate: every wait ends with {@link IllegalStateException}.
     *
     * @return true the first time
     */
    boolean close() {
        state.lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
            stateChanged.signalAll();
            return true;
        } finally {
            state.unlock();
        }
    }
}
