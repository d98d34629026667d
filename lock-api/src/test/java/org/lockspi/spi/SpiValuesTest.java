package org.lockspi.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link Deadline} and {@link AcquireRequest}. */
class SpiValuesTest {

    @Test
    void deadlines() {
        Deadline none = Deadline.none();
        assertTrue(none.isInfinite());
        assertFalse(none.hasExpired());
        assertEquals(Long.MAX_VALUE, none.remainingNanos());
        assertEquals(Long.MAX_VALUE, none.remainingMillis());
        assertEquals("Deadline[none]", none.toString());

        Deadline now = Deadline.after(Duration.ZERO);
        assertFalse(now.isInfinite());
        assertTrue(now.hasExpired());
        assertEquals(0, now.remainingMillis());
        assertTrue(now.remainingNanos() <= 0);

        Deadline hour = Deadline.after(Duration.ofHours(1));
        assertFalse(hour.hasExpired());
        long ms = hour.remainingMillis();
        assertTrue(ms > 3_590_000 && ms <= 3_600_000, () -> String.valueOf(ms));

        assertSame(now, now.earliest(hour));
        assertSame(now, hour.earliest(now));
        assertSame(hour, hour.earliest(none));
        assertSame(hour, none.earliest(hour));
        assertTrue(Deadline.after(Duration.ofDays(1_000_000)).isInfinite(), "too far for nanos: no deadline");
        assertThrows(IllegalArgumentException.class, () -> Deadline.after(Duration.ofNanos(-1)));
        assertThrows(NullPointerException.class, () -> Deadline.after(null));
    }

    @Test
    void acquireRequests() {
        AcquireRequest mutex = AcquireRequest.exclusive(LockKind.MUTEX, "a/b");
        assertEquals(LockKind.MUTEX, mutex.kind());
        assertEquals("a/b", mutex.name());
        assertEquals(1, mutex.permits());
        assertNull(mutex.heldWrite());
        assertEquals("MUTEX 'a/b'", mutex.toString());
        assertEquals(LockKind.WRITE, AcquireRequest.exclusive(LockKind.WRITE, "w").kind());
        assertEquals(LockKind.NON_REENTRANT_MUTEX, AcquireRequest.exclusive(LockKind.NON_REENTRANT_MUTEX, "n").kind());
        assertThrows(IllegalArgumentException.class, () -> AcquireRequest.exclusive(LockKind.READ, "r"));
        assertThrows(IllegalArgumentException.class, () -> AcquireRequest.exclusive(LockKind.SEMAPHORE, "s"));
        assertThrows(NullPointerException.class, () -> AcquireRequest.exclusive(null, "x"));
        assertThrows(NullPointerException.class, () -> AcquireRequest.exclusive(LockKind.MUTEX, null));

        AcquireRequest sem = AcquireRequest.semaphore("s", 3);
        assertEquals(3, sem.permits());
        assertEquals("SEMAPHORE 's' permits=3", sem.toString());
        assertEquals("permits < 1: 0",
                assertThrows(IllegalArgumentException.class, () -> AcquireRequest.semaphore("s", 0)).getMessage());

        BackendLease write = new BackendLease() {
            @Override
            public long fencingToken() {
                return 7;
            }

            @Override
            public boolean isLost() {
                return false;
            }

            @Override
            public void release() {
            }
        };
        AcquireRequest downgrade = AcquireRequest.read("rw", write);
        assertSame(write, downgrade.heldWrite());
        assertEquals("READ 'rw' (downgrade)", downgrade.toString());
        assertNull(AcquireRequest.read("rw", null).heldWrite());
    }
}
