/**
 * Leader election on the lock API, for every provider with {@code REENTRANT_MUTEX}, {@code FENCING_TOKENS} and
 * {@code LOST_NOTIFICATION}: {@link org.lockspi.leader.Leadership#join} a named election with an id, learn through a
 * {@link org.lockspi.leader.LeaderListener} when this participant is elected and when it must stop, and guard each
 * action of the leader with {@link org.lockspi.leader.Term#checkValid()} and the term's fencing token.
 *
 * <p>Each participant has one thread of its own that acquires and releases its locks and delivers its callbacks,
 * one at a time. A term ends at the first moment its lease is not {@code HELD} (at {@code UNCERTAIN}), and never
 * comes back; a new term comes only from a new acquisition, with a greater token.
 */
package org.lockspi.leader;
