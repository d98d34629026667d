package org.lockspi.tck.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;

/** A lease listener that records every change as {@code "PREVIOUS->CURRENT"} and lets a test wait for one. */
public final class StateRecorder implements LeaseListener {
    private final List<String> changes = new ArrayList<>();
    private final List<Lease> leases = new ArrayList<>();

    @Override
    public synchronized void stateChanged(Lease lease, LeaseState previous, LeaseState current) {
        changes.add(previous + "->" + current);
        leases.add(lease);
        notifyAll();
    }

    /** @return the changes so far, oldest first, as {@code "PREVIOUS->CURRENT"} */
    public synchronized List<String> changes() {
        return List.copyOf(changes);
    }

    /** @return the lease each change was reported for, in the order of {@link #changes()} */
    public synchronized List<Lease> leases() {
        return List.copyOf(leases);
    }

    /**
     * Waits until a change to {@code state} has been recorded.
     *
     * @param state   the state awaited as a change's current state
     * @param timeout how long to wait
     * @throws AssertionError        if none came within {@code timeout}; the message lists what came
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public synchronized void awaitChangeTo(LeaseState state, Duration timeout) {
        if (!changedTo(state, timeout)) {
            throw new AssertionError("no change to " + state + " within " + timeout + "; changes: " + changes);
        }
    }

    /**
     * Waits until a change to {@code state} has been recorded, like {@link #awaitChangeTo}, but answers instead
     * of failing: for contracts that measure when a change comes and judge it afterwards.
     *
     * @param state   the state awaited as a change's current state
     * @param timeout how long to wait
     * @return whether such a change was recorded within {@code timeout}
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public synchronized boolean changedTo(LeaseState state, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (changes.stream().noneMatch(c -> c.endsWith("->" + state))) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + state, e);
            }
        }
        return true;
    }

    /**
     * Waits until a change to one of {@code states} has been recorded.
     *
     * @param timeout how long to wait
     * @param states  the states awaited as a change's current state
     * @return the first such state recorded
     * @throws AssertionError        if none came within {@code timeout}; the message lists what came
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public synchronized LeaseState awaitChangeToAny(Duration timeout, LeaseState... states) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (String change : changes) {
                for (LeaseState state : states) {
                    if (change.endsWith("->" + state)) {
                        return state;
                    }
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no change to any of " + Arrays.toString(states) + " within "
                        + timeout + "; changes: " + changes);
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + Arrays.toString(states), e);
            }
        }
    }

    @Override
    public synchronized String toString() {
        return "StateRecorder" + changes;
    }
}
