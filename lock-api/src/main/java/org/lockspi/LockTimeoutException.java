package org.lockspi;

import java.time.Duration;

/**
 * Thrown by {@link Acquirable#acquire(Duration)} when the timeout elapsed before the lock was acquired, and by
 * {@link LockService#revoke(String, long, Duration, String)} when the holder did not let go in time.
 */
public class LockTimeoutException extends LockException {
    private static final long serialVersionUID = 1L;

    private final Duration timeout;

    /**
     * @param name    the lock's name
     * @param timeout the timeout that elapsed
     */
    public LockTimeoutException(String name, Duration timeout) {
        super("lock '" + name + "' not acquired within " + timeout);
        this.timeout = timeout;
    }

    /**
     * @param timeout the timeout that elapsed
     * @param message what was not done within it
     */
    public LockTimeoutException(Duration timeout, String message) {
        super(message);
        this.timeout = timeout;
    }

    /** @return the timeout that elapsed */
    public Duration timeout() {
        return timeout;
    }
}
