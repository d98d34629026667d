package org.lockspi.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.lockspi.Acquirable;
import org.lockspi.Lease;

/** {@link Acquirable#asJavaLock()}: each thread's leases kept as a stack, so unlock() releases the latest. */
final class JavaLockAdapter implements Lock {
    private final Acquirable target;
    private final Map<Thread, Deque<Lease>> leases = new ConcurrentHashMap<>();

    JavaLockAdapter(Acquirable target) {
        this.target = target;
    }

    private boolean push(Lease lease) {
        leases.computeIfAbsent(Thread.currentThread(), t -> new ArrayDeque<>()).push(lease);
        return true;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    push(target.acquire());
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // Lock.lock() is not interruptible: keep waiting, restore the flag after
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        push(target.acquire());
    }

    @Override
    public boolean tryLock() {
        return target.tryAcquire().map(this::push).orElse(false);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Duration timeout = Duration.ofNanos(Math.max(0, unit.toNanos(time)));
        if (timeout.compareTo(Acquirable.MAX_TIMEOUT) > 0) {
            // Lock callers pass Long.MAX_VALUE for "no limit", as the JDK's locks allow
            lockInterruptibly();
            return true;
        }
        return target.tryAcquire(timeout).map(this::push).orElse(false);
    }

    @Override
    public void unlock() {
        Thread me = Thread.currentThread();
        Deque<Lease> mine = leases.get(me);
        Lease lease = mine == null ? null : mine.poll();
        if (lease == null) {
            throw new IllegalMonitorStateException("thread '" + me.getName() + "' does not hold " + target);
        }
        if (mine.isEmpty()) {
            leases.remove(me);
        }
        lease.release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("distributed locks have no conditions: " + target);
    }

    @Override
    public String toString() {
        return "Lock view of " + target;
    }
}
