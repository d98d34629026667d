package org.lockspi.tck.coverage;

import java.util.Locale;

/**
 * The shapes of the queue a rule's waiting acquisitions form: the second part of the kit's coverage matrix. A rule
 * whose acquisitions never wait has no queue, and says so.
 */
public enum QueueShape {
    /** One acquisition waits behind the holder. */
    ONE_WAITER("1 wait"),
    /** Several acquisitions wait, one behind the other, so that a waiter has waiters ahead of it. */
    SEVERAL_WAITERS("n wait"),
    /** Acquisitions of different kinds wait in one queue (readers and writers, thread-bound and thread-free). */
    MIXED_KINDS("mixed");

    private final String label;

    QueueShape(String label) {
        this.label = label;
    }

    /** @return the column's short heading in the conformance report */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
