/**
 * Fenced writes: the resource's half of fencing tokens. A lock holder passes its lease's fencing token with each
 * write; the resource remembers, per resource, the highest token it accepted and refuses a lower one, so a holder
 * that paused past its lease (a garbage-collection pause, a stopped process, a partition) and writes after another
 * holder has written is refused, which no check on the client's side can ensure.
 *
 * <ul>
 *   <li>{@link org.lockspi.fencing.Fence}: in memory, for a store the application wraps (a file, a map, a
 *       service of its own); the check and the write run as one step per resource.</li>
 *   <li>{@link org.lockspi.fencing.JdbcFence}: a table of the highest token per resource and a conditional update,
 *       run in the transaction of the guarded write; the SQL works on PostgreSQL, MySQL/MariaDB and H2.</li>
 * </ul>
 *
 * <p>Equal tokens are accepted (one holder writes many times); a lower one is stale. Tokens of different locks
 * must never be compared: fence each resource with the token of the lock that guards it. JDK only.
 */
package org.lockspi.fencing;
