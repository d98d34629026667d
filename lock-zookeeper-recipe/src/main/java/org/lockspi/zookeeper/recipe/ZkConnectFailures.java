package org.lockspi.zookeeper.recipe;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import org.lockspi.LockConnectionException;

/**
 * The failures of connecting to ZooKeeper, worded once for every ZooKeeper provider, so that the same failure
 * gives the same exception type and message shape whatever the client library:
 * <ul>
 *   <li>{@code unknown host 'zk9.example' in ZooKeeper address zk9.example:2181}</li>
 *   <li>{@code cannot connect to ZooKeeper at localhost:1 within 5000 ms}</li>
 *   <li>{@code interrupted while connecting to ZooKeeper at localhost:2181}</li>
 * </ul>
 * All are {@link LockConnectionException}s; none carries a password.
 */
public final class ZkConnectFailures {
    private ZkConnectFailures() {
    }

    /**
     * Resolves every host of a connect string now, so that a name no resolver knows fails at once instead of
     * after the whole connect timeout (ZooKeeper clients retry unresolvable hosts until then).
     *
     * @param hosts the connect string, {@code host:port,host:port} ({@code [v6]:port} allowed)
     * @throws LockConnectionException naming the first host that does not resolve
     */
    public static void resolve(String hosts) {
        for (String address : hosts.split(",")) {
            String host = hostOf(address.trim());
            try {
                InetAddress.getAllByName(host);
            } catch (UnknownHostException | SecurityException e) {
                throw new LockConnectionException("unknown host '" + host + "' in ZooKeeper address " + hosts, e);
            }
        }
    }

    private static String hostOf(String address) {
        if (address.startsWith("[")) {
            int end = address.indexOf(']');
            return end > 0 ? address.substring(1, end) : address;
        }
        int colon = address.lastIndexOf(':');
        return colon > 0 ? address.substring(0, colon) : address;
    }

    /**
     * @param hosts          the connect string
     * @param connectTimeout how long the client tried
     * @param cause          the client library's failure, or null
     * @return no session within the connect timeout
     */
    public static LockConnectionException unreachable(String hosts, Duration connectTimeout, Throwable cause) {
        return new LockConnectionException("cannot connect to ZooKeeper at " + hosts + " within "
                + connectTimeout.toMillis() + " ms", cause);
    }

    /**
     * Sets the thread's interrupt flag again and words the failure.
     *
     * @param hosts the connect string
     * @param cause the interruption
     * @return the failure to throw
     */
    public static LockConnectionException interrupted(String hosts, Throwable cause) {
        Thread.currentThread().interrupt();
        return new LockConnectionException("interrupted while connecting to ZooKeeper at " + hosts, cause);
    }
}
