package org.lockspi;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * Something a {@link LockService} hands out that can be acquired for a {@link Lease}: a lock, one half of a
 * read-write lock, or a semaphore.
 *
 * <p>Instances are thread-safe and cached: the same service returns the same instance for the same name.
 *
 * <p><b>Timeouts.</b> A timeout must be between zero and {@link #MAX_TIMEOUT}. A timed acquisition returns
 * within its timeout plus a small bound (a server round trip). When it fails, by timeout, interrupt or error,
 * it leaves nothing behind on the server.
 *
 * <p><b>Interrupts.</b> Every blocking method throws {@link InterruptedException} when the calling thread is
 * interrupted before or while it waits, and clears the interrupt flag as it does.
 */
public interface Acquirable {

    /** The longest timeout accepted: 365 days. Longer ones are taken for a bug and refused. */
    Duration MAX_TIMEOUT = Duration.ofDays(365);

    /** @return the name this was obtained by */
    String name();

    /**
     * Acquires, waiting as long as it takes.
     *
     * @return the lease, held
     * @throws InterruptedException  if the thread was interrupted
     * @throws LockConnectionException if the server cannot be reached or the connection fails while waiting
     * @throws IllegalStateException if the service is closed, before or during the wait
     * @throws IllegalMonitorStateException for a write lock, if the calling thread holds the read lock of the
     *                                      same read-write lock and not its write lock (no upgrade)
     */
    Lease acquire() throws InterruptedException;

    /**
     * Acquires, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait, from zero to {@link #MAX_TIMEOUT}
     * @return the lease, held
     * @throws LockTimeoutException     if the timeout elapsed first
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     if the thread was interrupted
     * @throws LockConnectionException  as {@link #acquire()}
     * @throws IllegalStateException    as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    Lease acquire(Duration timeout) throws InterruptedException;

    /**
     * Acquires only if that can be done without waiting for another holder (one server round trip).
     *
     * @return the lease, or empty if another holder has it
     * @throws LockException           if the backend was interrupted during its one attempt (the interrupt flag
     *                                 is set again); {@code tryAcquire} itself ignores the flag, as
     *                                 {@code Lock.tryLock()} does
     * @throws LockConnectionException as {@link #acquire()}
     * @throws IllegalStateException   as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    Optional<Lease> tryAcquire();

    /**
     * Acquires, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait, from zero to {@link #MAX_TIMEOUT}
     * @return the lease, or empty if the timeout elapsed first
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     if the thread was interrupted
     * @throws LockConnectionException  as {@link #acquire()}
     * @throws IllegalStateException    as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    Optional<Lease> tryAcquire(Duration timeout) throws InterruptedException;

    /**
     * A {@link Lock} view for code written against {@code java.util.concurrent.locks}. Each {@code lock()}
     * acquires a lease for the calling thread; {@code unlock()} releases the calling thread's most recent one and
     * throws {@link IllegalMonitorStateException} if it has none. {@code lock()} waits without interruption (the
     * interrupt flag is restored afterwards); {@code newCondition()} throws {@link UnsupportedOperationException}.
     * Failures of the backend surface as {@link LockException}, which is unchecked.
     *
     * @return the view; the same instance on every call
     */
    Lock asJavaLock();
}
