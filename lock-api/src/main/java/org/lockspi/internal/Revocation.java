package org.lockspi.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.lockspi.LockException;
import org.lockspi.LockInfo;
import org.lockspi.LockTimeoutException;
import org.lockspi.spi.LockBackend;

/**
 * {@code LockService.revoke} over a backend (spec §27): the checks, the request, the wait for the holder to let go
 * (read from the server, as inspection reads it) and the audit line.
 */
final class Revocation {
    /** The audit log: one line per revocation asked for, whatever its outcome. */
    static final System.Logger AUDIT = System.getLogger("org.lockspi.audit");
    /** The first pause between two reads of the lock while the holder lets go; it doubles up to the next. */
    private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private Revocation() {
    }

    /**
     * Asks and waits. The caller checked the name, the service and the feature.
     *
     * @return whether the holder let go; false if no holder had the token
     */
    static boolean revoke(LockBackend backend, String name, long fencingToken, Duration timeout, String requestedBy,
                          String description) {
        if (fencingToken < 0) {
            throw new IllegalArgumentException("fencingToken < 0: " + fencingToken);
        }
        Names.checkTimeout(timeout);
        Requester.check(requestedBy);
        String key = Inspection.keyOf(name);
        String what = "'" + name + "' token " + fencingToken + " on " + description + ", requested by " + requestedBy;
        long start = System.nanoTime();
        boolean asked;
        try {
            asked = Inspection.call(() -> backend.revoke(key, fencingToken, requestedBy), "revoking " + what,
                    description);
        } catch (IllegalStateException e) {
            AUDIT.log(System.Logger.Level.WARNING, () -> "revocation refused: " + what + ": " + e.getMessage());
            throw new IllegalStateException("revocation of " + what + " refused: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            AUDIT.log(System.Logger.Level.WARNING, () -> "revocation failed: " + what + ": " + e);
            throw e;
        }
        if (!asked) {
            AUDIT.log(System.Logger.Level.WARNING, () -> "revocation found no holder: " + what);
            return false;
        }
        long end = start + timeout.toNanos();
        long pause = FIRST_POLL_NANOS;
        while (holds(backend, key, fencingToken, what, description)) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                long waited = (System.nanoTime() - start) / 1_000_000;
                AUDIT.log(System.Logger.Level.WARNING, () -> "revocation asked, holder still holds after " + waited
                        + " ms: " + what);
                throw new LockTimeoutException(timeout, "the holder of lock '" + name + "' with token "
                        + fencingToken + " did not let go within " + timeout + " of the revocation request; it is "
                        + "told when its client next hears from the server, and its lock passes on at its session "
                        + "or lease end");
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(pause, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                AUDIT.log(System.Logger.Level.WARNING, () -> "revocation asked, wait interrupted: " + what);
                throw new LockException("interrupted while waiting for the holder to let go: " + what, e);
            }
            pause = Math.min(pause * 2, MAX_POLL_NANOS);
        }
        long took = (System.nanoTime() - start) / 1_000_000;
        AUDIT.log(System.Logger.Level.WARNING, () -> "revoked: " + what + ": the holder let go in " + took + " ms");
        return true;
    }

    private static boolean holds(LockBackend backend, String key, long token, String what, String description) {
        LockInfo info = Inspection.call(() -> backend.inspect(key), "reading " + what, description);
        return info.holders().stream().anyMatch(h -> h.fencingToken().isPresent()
                && h.fencingToken().getAsLong() == token);
    }
}
