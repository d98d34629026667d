package org.lockspi.tck.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for server-side state that announces itself by no event (nodes and watches as the server sees them),
 * by looking at it every few milliseconds until a deadline. Where the client offers an event (a listener, a
 * returned lease), contracts wait for that instead.
 */
public final class Poll {
    private static final long STEP_MS = 10;

    private Poll() {
    }

    /**
     * Waits until {@code probe} yields {@code expected}.
     *
     * @param what     what is awaited, for the failure message
     * @param expected the value awaited
     * @param probe    reads the current value
     * @param timeout  how long to wait
     * @param <T>      the value's type
     * @return the value, equal to {@code expected}
     * @throws AssertionError        if it never did within {@code timeout}; the message has the last value
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public static <T> T until(String what, T expected, Supplier<T> probe, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.get();
            if (Objects.equals(value, expected)) {
                return value;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": expected " + expected + " within " + timeout
                        + ", last seen " + value);
            }
            try {
                Thread.sleep(STEP_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    /**
     * Waits until {@code probe} has yielded the same value for {@code quiet}: for server state that settles in more
     * than one step (a ZooKeeper semaphore waiter adds a lock node, then a lease node).
     *
     * @param what    what is awaited, for the failure message
     * @param probe   reads the current value
     * @param quiet   how long it must stay the same
     * @param timeout how long to wait in all
     * @param <T>     the value's type
     * @return the settled value
     * @throws AssertionError        if it kept changing for {@code timeout}
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public static <T> T settled(String what, Supplier<T> probe, Duration quiet, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = probe.get();
        long since = System.nanoTime();
        while (System.nanoTime() - since < quiet.toNanos()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + " kept changing for " + timeout + ": " + last);
            }
            try {
                Thread.sleep(STEP_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
            T now = probe.get();
            if (!Objects.equals(now, last)) {
                last = now;
                since = System.nanoTime();
            }
        }
        return last;
    }

    /**
     * Looks at a value until it satisfies {@code done} or the timeout passes, and returns the last value seen, for
     * contracts that judge it afterwards together with their other checks.
     *
     * @param probe   reads the current value
     * @param done    whether the value is the one awaited
     * @param timeout how long to look
     * @param <T>     the value's type
     * @return the last value seen: one that satisfies {@code done}, or the one seen when the timeout passed
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public static <T> T settle(Supplier<T> probe, Predicate<T> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.get();
            if (done.test(value) || System.nanoTime() - deadline > 0) {
                return value;
            }
            try {
                Thread.sleep(STEP_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + value + " to settle", e);
            }
        }
    }
}
