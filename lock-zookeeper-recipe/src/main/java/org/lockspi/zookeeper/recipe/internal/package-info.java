/**
 * The implementation of the ZooKeeper lock recipe: not API, may change in any release, left out of the Javadoc.
 *
 * <p>{@link org.lockspi.zookeeper.recipe.internal.ZkLockBackend} is the provider SPI's {@code LockBackend}, a small
 * facade over the parts, each with one responsibility:
 * <ul>
 *   <li>{@code SessionGate}: the connection and session as the recipe sees them; runs an operation in one session,
 *       waiting for a lost connection to return, never past the deadline;</li>
 *   <li>{@code WaitQueue}: the wait loop (create our node, list, wait for the node the {@code QueueRule} names),
 *       as Curator's {@code LockInternals} with its driver; {@code ZkPredicates} answers the rules;</li>
 *   <li>{@code Downgrade} and {@code SemaphoreRecipe}: the read node of a downgrade, and the semaphore's
 *       internal mutex and lease nodes;</li>
 *   <li>{@code LiveLeases}: the leases granted and not released or lost, and their release;</li>
 *   <li>{@code ResidueCleaner}: nodes to delete once the connection returns, on a thread of its own;</li>
 *   <li>{@link org.lockspi.zookeeper.recipe.internal.ZkLayout}, {@link org.lockspi.zookeeper.recipe.internal.ZkInspection},
 *       {@link org.lockspi.zookeeper.recipe.internal.ZkContact}, {@link org.lockspi.zookeeper.recipe.internal.BoundedClose}
 *       and {@link org.lockspi.zookeeper.recipe.internal.DeleteFailures}: the node layout, the inspection reads, the
 *       heartbeat, a bounded close and the wording of a failed delete, shared with {@code lock-spi-curator}.</li>
 * </ul>
 */
package org.lockspi.zookeeper.recipe.internal;
