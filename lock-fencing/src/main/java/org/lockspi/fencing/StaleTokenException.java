package org.lockspi.fencing;

import java.util.Objects;

/**
 * A write came with a fencing token lower than one the resource has already accepted: its writer held the lock
 * before another holder that has written since, so the write is refused. The message names the resource, the token
 * refused and the highest accepted, for example {@code stale token 17 for resource 'stock/1': 18 was accepted}.
 */
public class StaleTokenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String resource;
    private final long token;
    private final long highest;

    /**
     * @param resource the resource written to
     * @param token    the token refused
     * @param highest  the highest token the resource had accepted, greater than {@code token}
     * @throws NullPointerException if {@code resource} is null
     */
    public StaleTokenException(String resource, long token, long highest) {
        super("stale token " + token + " for resource '" + Objects.requireNonNull(resource, "resource") + "': "
                + highest + " was accepted");
        this.resource = resource;
        this.token = token;
        this.highest = highest;
    }

    /** @return the resource written to */
    public String resource() {
        return resource;
    }

    /** @return the token refused */
    public long token() {
        return token;
    }

    /** @return the highest token the resource had accepted */
    public long highest() {
        return highest;
    }
}
