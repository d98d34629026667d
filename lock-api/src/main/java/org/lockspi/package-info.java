/**
 * The vendor-neutral lock API. An application opens a {@link org.lockspi.LockService} with
 * {@link org.lockspi.Locks#open(String)} (the provider comes from the class path and configuration, never from
 * code), asks it for a {@link org.lockspi.DistributedLock mutex}, a non-reentrant mutex, a
 * {@link org.lockspi.DistributedReadWriteLock read-write lock} or a {@link org.lockspi.DistributedSemaphore
 * semaphore} by name, and acquires a {@link org.lockspi.Lease} from it.
 *
 * <p>A lease knows its {@link org.lockspi.LeaseState state} ({@code HELD}, {@code UNCERTAIN}, {@code LOST},
 * {@code RELEASED}), tells {@link org.lockspi.LeaseListener listeners} when it changes, and carries a fencing
 * token that grows with every new holder. Guard each write to a shared resource with
 * {@link org.lockspi.Lease#checkValid()} and pass the token with the write; work that must stop when its lease is
 * lost runs under {@link org.lockspi.StopWork}. Several locks are taken all or nothing, in one global order, with
 * {@link org.lockspi.LockService#multiLock(org.lockspi.LockPart...) multiLock}.
 *
 * <p>Every provider behaves the same: arguments, names, reentrancy, ownership, deadlines, interrupts and lease
 * state are handled once, by the engine behind these interfaces; the contract is {@code docs/spec.md}, checked
 * for each provider by the conformance kit {@code lock-tck}. Failures are unchecked and typed:
 * {@link org.lockspi.LockTimeoutException}, {@link org.lockspi.LockConnectionException},
 * {@link org.lockspi.LeaseLostException}, {@link org.lockspi.ProviderSelectionException}.
 *
 * <p>Every type is named so that {@code import org.lockspi.*} sits beside {@code import java.util.concurrent.*}
 * and {@code java.util.concurrent.locks.*} without a clash: {@code DistributedLock}, {@code DistributedReadWriteLock},
 * {@code DistributedSemaphore} (0.1.0 renamed {@code ReadWriteLock} and {@code Semaphore}; docs/migration.md).
 */
package org.lockspi;
