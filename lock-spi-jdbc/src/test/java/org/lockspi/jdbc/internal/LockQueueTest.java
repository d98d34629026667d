package org.lockspi.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lockspi.jdbc.internal.LockQueue.Decision;
import org.lockspi.jdbc.internal.LockQueue.Entry;
import org.lockspi.jdbc.internal.LockQueue.Head;

/** The queue rules, on rows made up here (the TCK checks them on the databases). */
class LockQueueTest {
    private static final Head FREE = new Head(null, (char) 0, 0);
    private static final long NONE = Long.MAX_VALUE;

    private static Entry waiting(String id, long seq, char kind, long leftMs) {
        return new Entry(id, seq, kind, false, leftMs);
    }

    private static Entry holding(String id, long seq, char kind, long leftMs) {
        return new Entry(id, seq, kind, true, leftMs);
    }

    @Test
    void anExclusiveAcquisitionWaitsForTheHolderAndForEveryoneAhead() {
        Decision held = LockQueue.decide(new Head("a", 'M', 700), List.of(), 'M', 1, NONE, null);
        assertFalse(held.grant());
        assertEquals(700, held.nextMs(), "it may change when the holder's lease runs out");
        assertFalse(LockQueue.decide(FREE, List.of(waiting("b", 1, 'M', 900)), 'M', 1, NONE, null).grant(),
                "a newcomer does not overtake a waiter (FIFO)");
        assertTrue(LockQueue.decide(FREE, List.of(waiting("b", 1, 'M', 900)), 'M', 1, 1, null).grant(),
                "the head of the queue goes");
        assertTrue(LockQueue.decide(new Head("a", 'M', 0), List.of(), 'M', 1, NONE, null).grant(),
                "a holder whose lease ran out holds nothing");
    }

    @Test
    void readersShareButNeverOvertakeAQueuedWriter() {
        List<Entry> readers = List.of(holding("r1", 1, 'R', 900), holding("r2", 2, 'R', 800));
        assertTrue(LockQueue.decide(FREE, readers, 'R', 1, NONE, null).grant());
        Decision writer = LockQueue.decide(FREE, readers, 'W', 1, NONE, null);
        assertFalse(writer.grant());
        assertEquals(800, writer.nextMs());
        List<Entry> queued = List.of(holding("r1", 1, 'R', 900), waiting("w", 2, 'W', 900));
        assertFalse(LockQueue.decide(FREE, queued, 'R', 1, NONE, null).grant(), "a reader waits behind the writer");
        List<Entry> behindWriter = List.of(waiting("w", 2, 'W', 900), waiting("r2", 3, 'R', 900),
                waiting("r3", 4, 'R', 900));
        assertFalse(LockQueue.decide(new Head("x", 'W', 500), behindWriter, 'R', 1, 4, null).grant());
        List<Entry> writerGone = List.of(waiting("r2", 3, 'R', 900), waiting("r3", 4, 'R', 900));
        assertTrue(LockQueue.decide(FREE, writerGone, 'R', 1, 4, null).grant(), "readers queued together go together");
        assertTrue(LockQueue.decide(new Head("mine", 'W', 500), List.of(waiting("w2", 1, 'W', 900)), 'R', 1, NONE,
                "mine").grant(), "a downgrade passes its own writer and the queue");
    }

    @Test
    void permitsGoToTheFirstWaitersInOrder() {
        List<Entry> rows = List.of(holding("p1", 1, 'S', 900), waiting("w1", 2, 'S', 900),
                waiting("w2", 3, 'S', 900));
        assertTrue(LockQueue.decide(FREE, rows, 'S', 2, 2, null).grant(), "first waiter, one permit free");
        assertFalse(LockQueue.decide(FREE, rows, 'S', 2, 3, null).grant(), "second waiter: the free permit is the "
                + "first's");
        assertTrue(LockQueue.decide(FREE, rows, 'S', 3, 3, null).grant(), "two permits free: both waiters go");
        assertFalse(LockQueue.decide(FREE, rows, 'S', 3, NONE, null).grant(), "a newcomer is third in line");
        assertFalse(LockQueue.decide(new Head("a", 'M', 300), List.of(), 'S', 4, NONE, null).grant());
    }
}
