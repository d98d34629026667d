package org.lockspi.redis.recipe;

import java.util.Objects;

/**
 * A failed {@link RedisOps} call, by the kind the recipe acts on; the client library's exception is the cause.
 */
public final class RedisOpsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, as far as the recipe cares. */
    public enum Kind {
        /**
         * The connection was broken when the call was made or while it waited (a server restart leaves pooled
         * connections broken): the recipe drops the idle connections and tries once more.
         */
        BROKEN_CONNECTION,
        /** No answer within the timeout, no connection to be had, or a cluster that gave up: not retried. */
        NO_ANSWER,
        /** The server answered with an error ({@code LOADING}, {@code READONLY}, {@code ERR ...}). */
        ERROR_REPLY,
        /** The server does not know the script ({@code NOSCRIPT}): load it and run it again. */
        NO_SCRIPT
    }

    private final Kind kind;

    /**
     * @param kind    what went wrong
     * @param message the client's message (the server's reply for {@link Kind#ERROR_REPLY}); never a password
     * @param cause   the client library's exception
     */
    public RedisOpsException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** @return what went wrong */
    public Kind kind() {
        return kind;
    }
}
