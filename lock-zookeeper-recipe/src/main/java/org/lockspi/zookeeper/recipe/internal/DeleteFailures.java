package org.lockspi.zookeeper.recipe.internal;

import java.time.Duration;
import org.lockspi.LockConnectionException;

/**
 * A delete of one of our nodes that did not go through, worded once for every ZooKeeper provider (the recipe's and
 * Curator's), so that a release that cannot reach the server says the same whatever the client library:
 * <ul>
 *   <li>{@code could not delete /app/m/_c_..-lock-0000000007 at ZooKeeper zk1:2181: not connected; it is deleted
 *       when the connection returns or the session ends}</li>
 *   <li>{@code could not delete ... within 5000 ms; it is deleted when ...}</li>
 *   <li>{@code interrupted while deleting ... at ZooKeeper zk1:2181; it is deleted when ...}</li>
 * </ul>
 * The node is never lost track of: the provider deletes it when the connection returns, or the server does when
 * the session ends.
 */
public final class DeleteFailures {
    private static final String LATER = "it is deleted when the connection returns or the session ends";

    private DeleteFailures() {
    }

    /**
     * @param node    the node's path
     * @param address the server address
     * @return {@code could not delete <node> at ZooKeeper <address>}, the start of every message here, and of a
     *         log line for a delete that failed in the background
     */
    public static String couldNotDelete(String node, String address) {
        return "could not delete " + node + " at ZooKeeper " + address;
    }

    /**
     * @param node    the node's path
     * @param address the server address
     * @return the release found the connection down, and left the delete to its return
     */
    public static LockConnectionException notConnected(String node, String address) {
        return new LockConnectionException(couldNotDelete(node, address) + ": not connected; " + LATER);
    }

    /**
     * @param node    the node's path
     * @param address the server address
     * @return the delete met a lost connection, and is left to its return
     */
    public static LockConnectionException connectionLost(String node, String address) {
        return new LockConnectionException(couldNotDelete(node, address) + ": connection lost; " + LATER);
    }

    /**
     * @param node    the node's path
     * @param address the server address
     * @param bound   the release bound that passed
     * @param cause   the timeout, or null
     * @return the server did not confirm the delete within the bound
     */
    public static LockConnectionException notWithin(String node, String address, Duration bound, Throwable cause) {
        return new LockConnectionException(couldNotDelete(node, address) + " within " + bound.toMillis() + " ms; "
                + LATER, cause);
    }

    /**
     * Sets the thread's interrupt flag again and words the failure.
     *
     * @param node    the node's path
     * @param address the server address
     * @param cause   the interruption
     * @return the release was interrupted while it waited for the delete
     */
    public static LockConnectionException interrupted(String node, String address, InterruptedException cause) {
        Thread.currentThread().interrupt();
        return new LockConnectionException("interrupted while deleting " + node + " at ZooKeeper " + address + "; "
                + LATER, cause);
    }
}
