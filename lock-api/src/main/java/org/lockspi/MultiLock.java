package org.lockspi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Several locks of one {@link LockService}, acquired all or nothing for one {@link MultiLease}: the
 * {@code InterProcessMultiLock} of Curator, the {@code MultiLock} of Redisson. Obtained from
 * {@link LockService#multiLock(LockPart...)}.
 *
 * <pre>{@code
 * MultiLock transfer = locks.multiLock(LockPart.mutex("accounts/" + from), LockPart.mutex("accounts/" + to));
 * try (MultiLease lease = transfer.acquire(Duration.ofSeconds(5))) {
 *     lease.checkValid();                                            // every part HELD
 *     ledger.move(from, to, amount, lease.part("accounts/" + from).fencingToken(),
 *                                   lease.part("accounts/" + to).fencingToken());
 * }
 * }</pre>
 *
 * <ul>
 *   <li><b>Order.</b> The parts are taken one after another in one global order, by name and then kind
 *       ({@link LockPart#compareTo}), whatever order they were given in: two clients (or threads) taking
 *       overlapping sets, {@code {a, b}} and {@code {b, a}}, both take {@code a} first, so neither can hold one
 *       while waiting for the other's. Locks taken outside multi-locks, in another order, are the caller's to
 *       order.</li>
 *   <li><b>All or nothing.</b> A timeout, an interrupt or a failure part-way releases every part already taken, in
 *       the reverse order, before the method returns or throws; a failure of such a release is added to the
 *       exception as {@linkplain Throwable#addSuppressed suppressed} (or thrown, as
 *       {@link LockConnectionException}, where the outcome is {@code Optional.empty()}). Nothing is left on the
 *       server.</li>
 *   <li><b>One deadline.</b> {@code acquire(timeout)} and {@code tryAcquire(timeout)} give the whole set one
 *       deadline, taken when the method is called: each part waits only for what is left of it.
 *       {@link #tryAcquire()} makes one attempt per part.</li>
 *   <li><b>Ownership.</b> If a part is thread-owned ({@link LockPart.Kind#threadOwned()}: a mutex, a half of
 *       {@link LockService#readWriteLock(String)}), the multi-lease belongs to the thread that acquired it, and
 *       reentrancy applies to that part as everywhere (a thread that holds {@code a} gets a nested lease of it);
 *       otherwise any thread may release it.</li>
 * </ul>
 *
 * <p>A multi-lock is an {@link Acquirable}: {@link #executeLocked(Duration, LockedTask) executeLocked} and
 * {@link #asJavaLock()} work as for one lock (the task is given the {@link MultiLease}). {@link #acquire()} and
 * {@link #acquire(Duration)} return the {@link MultiLease}; so do {@link #tryAcquire()} and
 * {@link #tryAcquire(Duration)}, typed {@code Optional<Lease>} by the interface
 * ({@code lock.tryAcquire(timeout).map(MultiLease.class::cast)}). Instances are thread-safe.
 */
public interface MultiLock extends Acquirable {

    /** @return the parts' names in acquisition order, joined by {@code " + "}: {@code accounts/17 + accounts/42} */
    @Override
    String name();

    /**
     * {@inheritDoc} Every part is acquired with the lease time, each counted from its own grant: the multi-lease
     * turns {@code LOST} when its first part does, at the first part's grant plus the lease time at the latest.
     */
    @Override
    MultiLock withLeaseTime(Duration leaseTime);

    /** @return the parts, in the order they are acquired (released in the reverse order); immutable */
    List<LockPart> parts();

    /**
     * Acquires every part, waiting as long as it takes.
     *
     * @return the multi-lease over every part
     * @throws InterruptedException    if the thread was interrupted; the parts taken are released
     * @throws LockConnectionException as {@link Acquirable#acquire()}; the parts taken are released
     * @throws IllegalStateException   if the service is closed
     * @throws IllegalMonitorStateException if a write part's lock has its read half held by the calling thread
     *                                      (no upgrade); the parts taken are released
     */
    @Override
    MultiLease acquire() throws InterruptedException;

    /**
     * Acquires every part within one deadline.
     *
     * @param timeout how long to wait for the whole set, from zero to {@link #MAX_TIMEOUT}
     * @return the multi-lease over every part
     * @throws LockTimeoutException     if the deadline passed first; the parts taken are released
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     as {@link #acquire()}
     * @throws LockConnectionException  as {@link #acquire()}
     * @throws IllegalStateException    as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    @Override
    MultiLease acquire(Duration timeout) throws InterruptedException;

    /**
     * Acquires every part if each can be had without waiting (one attempt per part).
     *
     * @return the {@link MultiLease}, or empty if a part is held elsewhere (the parts taken are released)
     * @throws LockConnectionException as {@link Acquirable#tryAcquire()}, also when the release of a part taken
     *                                 failed on the way to empty
     * @throws IllegalStateException   as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    @Override
    Optional<Lease> tryAcquire();

    /**
     * Acquires every part within one deadline.
     *
     * @param timeout how long to wait for the whole set, from zero to {@link #MAX_TIMEOUT}
     * @return the {@link MultiLease}, or empty if the deadline passed first (the parts taken are released)
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative or longer than {@link #MAX_TIMEOUT}
     * @throws InterruptedException     as {@link #acquire()}
     * @throws LockConnectionException  as {@link #tryAcquire()}
     * @throws IllegalStateException    as {@link #acquire()}
     * @throws IllegalMonitorStateException as {@link #acquire()}
     */
    @Override
    Optional<Lease> tryAcquire(Duration timeout) throws InterruptedException;
}
