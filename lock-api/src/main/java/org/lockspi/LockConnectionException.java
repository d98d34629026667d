package org.lockspi;

/**
 * The backend cannot be reached, or the connection failed during an operation. Messages name the server
 * address without credentials.
 */
public class LockConnectionException extends LockException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, with the server address (never credentials) */
    public LockConnectionException(String message) {
        super(message);
    }

    /**
     * @param message what failed, with the server address (never credentials)
     * @param cause   the client library's exception
     */
    public LockConnectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
