package org.lockspi.redis.lettuce;

import java.util.ArrayList;
import java.util.List;

/**
 * What a guarded resource sees of its users: how many hold it exclusively and shared, and the fencing tokens of
 * the exclusive holders in the order they came in. Every breach is recorded (with who and which token), never
 * thrown in the worker: the test asserts the list is empty at the end.
 */
final class Occupancy {
    private final int sharedLimit;
    private int exclusive; // guarded by this
    private int shared; // guarded by this
    private long lastToken = Long.MIN_VALUE; // guarded by this
    private long entries; // guarded by this
    private final List<String> violations = new ArrayList<>(); // guarded by this

    /** @param sharedLimit how many may hold it shared at once (readers: unlimited; a semaphore: its permits) */
    Occupancy(int sharedLimit) {
        this.sharedLimit = sharedLimit;
    }

    /** An exclusive holder comes in with its token: nobody else may be inside, and its token must be the largest. */
    synchronized void enterExclusive(String who, long token) {
        entries++;
        if (exclusive > 0 || shared > 0) {
            violations.add(who + " held it exclusively while " + exclusive + " exclusive and " + shared
                    + " shared holders were inside");
        }
        if (token <= lastToken) {
            violations.add(who + " came in with token " + token + ", not above the last exclusive holder's "
                    + lastToken);
        }
        lastToken = Math.max(lastToken, token);
        exclusive++;
    }

    synchronized void exitExclusive() {
        exclusive--;
    }

    /** A shared holder comes in: no exclusive holder may be inside, nor {@code sharedLimit} shared ones. */
    synchronized void enterShared(String who) {
        entries++;
        if (exclusive > 0 || shared >= sharedLimit) {
            violations.add(who + " held it shared while " + exclusive + " exclusive and " + shared
                    + " shared holders were inside (limit " + sharedLimit + ")");
        }
        shared++;
    }

    synchronized void exitShared() {
        shared--;
    }

    /** @return how many times a holder came in */
    synchronized long entries() {
        return entries;
    }

    /** @return the breaches so far */
    synchronized List<String> violations() {
        return List.copyOf(violations);
    }
}
