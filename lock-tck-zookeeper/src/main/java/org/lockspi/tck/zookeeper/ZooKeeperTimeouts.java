package org.lockspi.tck.zookeeper;

import java.time.Duration;
import java.util.Objects;

/**
 * The timeouts a ZooKeeper provider's TCK class gives its clients, and the kit's bounds derived from them, so that
 * no bound is worked out by hand from a parameter string: the lease span {@code T} is the session timeout, the
 * release bound the providers document is {@code min(connectTimeout, sessionTimeout / 2)}.
 *
 * @param session the {@code sessionTimeout} parameter (the embedded server grants 1 s to 60 s)
 * @param connect the {@code connectTimeout} parameter
 * @param extra   further parameters of the provider, {@code key=value&...}, or {@code ""}
 */
public record ZooKeeperTimeouts(Duration session, Duration connect, String extra) {

    /**
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if a timeout is not positive or not whole milliseconds
     */
    public ZooKeeperTimeouts {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(connect, "connect");
        Objects.requireNonNull(extra, "extra");
        for (Duration d : new Duration[] {session, connect}) {
            if (d.isNegative() || d.isZero() || d.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("timeout not a positive whole number of ms: " + d);
            }
        }
    }

    /**
     * @param session the session timeout
     * @param connect the connect timeout
     * @return the timeouts, with no further parameters
     */
    public static ZooKeeperTimeouts of(Duration session, Duration connect) {
        return new ZooKeeperTimeouts(session, connect, "");
    }

    /**
     * @param parameters further parameters, {@code key=value&...}
     * @return these timeouts with those parameters after them
     */
    public ZooKeeperTimeouts with(String parameters) {
        return new ZooKeeperTimeouts(session, connect, extra.isEmpty() ? parameters : extra + "&" + parameters);
    }

    /** @return the client parameters: {@code sessionTimeout=...ms&connectTimeout=...ms} and the others */
    public String parameters() {
        return "sessionTimeout=" + session.toMillis() + "ms&connectTimeout=" + connect.toMillis() + "ms"
                + (extra.isEmpty() ? "" : "&" + extra);
    }

    /** @return the release bound the ZooKeeper providers document: {@code min(connectTimeout, sessionTimeout / 2)} */
    public Duration releaseBound() {
        Duration half = session.dividedBy(2);
        return connect.compareTo(half) < 0 ? connect : half;
    }
}
