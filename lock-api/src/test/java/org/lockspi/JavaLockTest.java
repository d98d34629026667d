package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/** {@link Acquirable#asJavaLock()}. */
class JavaLockTest extends EngineTestBase {

    @Test
    void lockUnlockAndHoldCounts() {
        DistributedLock mutex = service.mutex("m");
        Lock lock = mutex.asJavaLock();
        assertSame(lock, mutex.asJavaLock());
        lock.lock();
        assertTrue(lock.tryLock());
        assertEquals(2, mutex.holdCount());
        lock.unlock();
        assertEquals(1, mutex.holdCount());
        lock.unlock();
        assertEquals(0, mutex.holdCount());
        assertEquals(0, backend.server().holderCount("m"));
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertTrue(e.getMessage().contains("does not hold"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, lock::newCondition);
    }

    @Test
    void unlockByAnotherThreadIsRefused() throws Throwable {
        Lock lock = service.semaphore("s", 1).asJavaLock();
        lock.lock();
        assertThrows(IllegalMonitorStateException.class, () -> inOtherThread(() -> {
            lock.unlock();
            return null;
        }));
        boolean theirs = inOtherThread(lock::tryLock);
        assertFalse(theirs);
        lock.unlock();
    }

    @Test
    void timedTryLock() throws Throwable {
        Lease theirs = otherClient().mutex("m").acquire();
        Lock lock = service.mutex("m").asJavaLock();
        assertFalse(lock.tryLock());
        assertFalse(lock.tryLock(20, TimeUnit.MILLISECONDS));
        assertFalse(lock.tryLock(-5, TimeUnit.SECONDS), "a negative wait is a single attempt, as in Lock");
        theirs.release();
        assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
        lock.unlock();
        assertTrue(lock.tryLock(Long.MAX_VALUE, TimeUnit.NANOSECONDS), "Long.MAX_VALUE means no limit, as in Lock");
        lock.unlock();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted());
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        assertFalse(Thread.interrupted());
        assertTrue(backend.requests().size() >= 1);
    }

    @Test
    void lockIgnoresAPendingInterruptAndRestoresIt() {
        Lock lock = service.mutex("m").asJavaLock();
        Thread.currentThread().interrupt();
        lock.lock();
        assertTrue(Thread.interrupted(), "the flag is restored");
        lock.unlock();
        Thread.currentThread().interrupt();
        assertTrue(lock.tryLock(), "tryLock makes its attempt whatever the flag");
        assertTrue(Thread.interrupted());
        lock.unlock();
    }

    @Test
    void lockIsNotInterruptibleWhileWaiting() throws Throwable {
        Lease theirs = otherClient().mutex("m").acquire();
        Lock lock = service.mutex("m").asJavaLock();
        Thread[] waiter = new Thread[1];
        FutureTask<Boolean> f = start("waiter", () -> {
            waiter[0] = Thread.currentThread();
            lock.lock();
            boolean flag = Thread.interrupted();
            lock.unlock();
            return flag;
        });
        backend.server().awaitWaiting(1);
        waiter[0].interrupt();
        backend.awaitRequests(2); // the interrupted wait ended and lock() asked again
        backend.server().awaitWaiting(1);
        theirs.release();
        assertTrue(await(f), "lock() acquired after the interrupt and restored the flag");
        assertEquals(0, backend.server().holderCount("m"));
    }
}
