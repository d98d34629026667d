package org.lockspi;

/**
 * The root of the exceptions this API throws for lock and backend failures. Unchecked, like the exceptions of
 * {@code java.util.concurrent.locks}; argument errors are the JDK's own ({@link IllegalArgumentException},
 * {@link NullPointerException}) and ownership errors are {@link IllegalMonitorStateException}.
 */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, with the values involved */
    public LockException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, with the values involved
     * @param cause   the underlying failure
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
