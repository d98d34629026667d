package org.lockspi.tck.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.lockspi.tck.TckBackend;

/**
 * A body run on a thread of its own, whose result or failure the test thread collects with a bounded join.
 * Threads are named {@code tck-<name>} and are daemons, so a provider that hangs cannot keep the JVM alive.
 *
 * @param <T> the body's result
 */
public final class Async<T> {
    private final Thread thread;
    private volatile T value;
    private volatile Throwable failure;

    private Async(String name, Callable<T> body) {
        this.thread = new Thread(() -> {
            try {
                value = body.call();
            } catch (Throwable t) {
                failure = t;
            }
        }, "tck-" + name);
        thread.setDaemon(true);
    }

    /**
     * @param name what the thread does, for its name
     * @param body the work
     * @param <T>  the result type
     * @return the started thread
     */
    public static <T> Async<T> start(String name, Callable<T> body) {
        Async<T> async = new Async<>(name, body);
        async.thread.start();
        return async;
    }

    /**
     * Starts an acquisition that must wait, on a thread of its own, and returns once it is waiting
     * ({@link #awaitWaiting}) within {@link Checks#BOUND}. Where the backend can {@code INSPECT}, an entry of the
     * lock's residue that was not there before the thread started counts as the thread's queue entry, so a
     * provider that waits in a socket read or a spin loop is seen waiting once the server shows it queued.
     *
     * @param name     what the thread does, for its name
     * @param backend  the backend, to look at the lock's residue if it can
     * @param lockName the lock the body waits for
     * @param body     the acquisition
     * @param <T>      the result type
     * @return the started thread, waiting
     * @throws AssertionError if the body ends, or does not wait within the bound
     */
    public static <T> Async<T> startWaiter(String name, TckBackend backend, String lockName, Callable<T> body) {
        if (!backend.capabilities().contains(TckBackend.Capability.INSPECT)) {
            Async<T> waiter = start(name, body);
            waiter.awaitBlocked(Checks.BOUND);
            return waiter;
        }
        Set<String> before = new HashSet<>(backend.residue(lockName));
        Async<T> waiter = start(name, body);
        waiter.awaitWaiting(Checks.BOUND, () -> !before.containsAll(backend.residue(lockName)));
        return waiter;
    }

    /** @return the thread */
    public Thread thread() {
        return thread;
    }

    /**
     * Waits for the body to end.
     *
     * @param max how long to wait
     * @return this
     * @throws InterruptedException if the test thread is interrupted
     */
    public Async<T> join(Duration max) throws InterruptedException {
        thread.join(Math.max(1, max.toMillis()));
        if (thread.isAlive()) {
            fail("thread '" + thread.getName() + "' still running after " + max + ", in:\n" + stack(thread));
        }
        return this;
    }

    /**
     * @param max how long to wait
     * @return what the body returned
     * @throws InterruptedException if the test thread is interrupted
     */
    public T get(Duration max) throws InterruptedException {
        join(max);
        if (failure != null) {
            throw new AssertionError("thread '" + thread.getName() + "' failed: " + failure, failure);
        }
        return value;
    }

    /**
     * @param max how long to wait
     * @return what the body threw; fails the test if it returned normally
     * @throws InterruptedException if the test thread is interrupted
     */
    public Throwable failure(Duration max) throws InterruptedException {
        join(max);
        if (failure == null) {
            fail("thread '" + thread.getName() + "' was expected to fail but returned " + value);
        }
        return failure;
    }

    /**
     * Waits until the thread waits, without the lock's server state to look at: as {@link #awaitWaiting} with no
     * queue entry to see.
     *
     * @param max how long to wait
     */
    public void awaitBlocked(Duration max) {
        awaitWaiting(max, () -> false);
    }

    /**
     * Waits until the thread is <em>waiting</em>: it has not returned, and on three samples in a row, 10 ms
     * apart, it is parked ({@code WAITING} or {@code TIMED_WAITING}), or blocked in the JDK's I/O (a socket or
     * pipe read, a selector: {@code RUNNABLE} in a native method of {@code sun.nio.ch}, {@code java.io} or
     * {@code java.net}), or {@code queued} says the server shows its queue entry. There is no event for any of
     * these, hence the samples. A thread that spins, or computes, is not waiting unless its entry shows.
     *
     * @param max    how long to wait
     * @param queued whether the server shows the thread's queue entry (for example, the lock's residue holds an
     *               entry it did not hold before the thread started); {@code () -> false} where nothing shows
     * @throws AssertionError if the thread ends first, or is not waiting within {@code max}; the message has its
     *                        state and stack
     */
    public void awaitWaiting(Duration max, BooleanSupplier queued) {
        long end = System.nanoTime() + max.toNanos();
        int waitingSamples = 0;
        while (waitingSamples < 3) {
            Thread.State state = thread.getState();
            if (state == Thread.State.TERMINATED) {
                fail("thread '" + thread.getName() + "' was expected to wait but ended: "
                        + (failure != null ? "threw " + failure : "returned " + value));
            }
            boolean waiting = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING
                    || (state == Thread.State.RUNNABLE && inBlockingIo(thread)) || queued.getAsBoolean();
            waitingSamples = waiting && thread.isAlive() ? waitingSamples + 1 : 0;
            if (waitingSamples < 3 && System.nanoTime() - end > 0) {
                fail("thread '" + thread.getName() + "' was not waiting within " + max + " (neither parked, nor "
                        + "blocked in I/O, nor queued on the server); it is " + state + " in:\n" + stack(thread));
            }
            if (waitingSamples < 3) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    /**
     * Waits for a future that must complete normally.
     *
     * @param future the future
     * @param max    how long it may take
     * @param what   what it is, for the failure message
     * @param <T>    its value
     * @return its value
     * @throws AssertionError       if it failed (with its cause) or did not complete within {@code max}
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public static <T> T await(CompletableFuture<T> future, Duration max, String what) throws InterruptedException {
        try {
            return future.get(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not complete within " + max);
        }
    }

    /**
     * The threads of this JVM's asynchronous acquisitions that are alive now ({@code lockspi-async-*}, as
     * {@code AsyncAcquirable} names them; platform threads only: a virtual thread is not listed by the JDK).
     *
     * @return the threads
     */
    public static Set<Thread> asyncThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("lockspi-async-") && t.isAlive()) {
                threads.add(t);
            }
        }
        return threads;
    }

    /**
     * Waits until an asynchronous acquisition started after {@code before} was taken is waiting: a thread of
     * {@link #asyncThreads()} not in {@code before} is parked or blocked in I/O on three samples in a row, 10 ms
     * apart, or (INSPECT) the lock's residue holds an entry not in {@code residueBefore}.
     *
     * @param backend       the backend, to look at the residue if it can
     * @param lockName      the lock waited for
     * @param before        the acquisition threads alive before the acquisition began
     * @param residueBefore the lock's residue before it began (empty without INSPECT)
     * @param max           how long to wait
     * @return the acquisition's thread, or null if only its queue entry showed
     * @throws AssertionError if it is not waiting within {@code max}
     */
    public static Thread awaitAsyncWaiting(TckBackend backend, String lockName, Set<Thread> before,
                                           Set<String> residueBefore, Duration max) {
        boolean inspect = backend.capabilities().contains(TckBackend.Capability.INSPECT);
        long end = System.nanoTime() + max.toNanos();
        int samples = 0;
        Thread seen = null;
        while (samples < 3) {
            boolean waiting = false;
            for (Thread t : asyncThreads()) {
                if (!before.contains(t)) {
                    seen = t;
                    Thread.State state = t.getState();
                    waiting |= state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING
                            || (state == Thread.State.RUNNABLE && inBlockingIo(t));
                }
            }
            waiting |= inspect && !residueBefore.containsAll(backend.residue(lockName));
            samples = waiting ? samples + 1 : 0;
            if (samples < 3 && System.nanoTime() - end > 0) {
                fail("the asynchronous acquisition of '" + lockName + "' was not waiting within " + max
                        + (seen == null ? " (no thread lockspi-async-* of its own was seen"
                        + (inspect ? ", nor its queue entry)" : ")") : "; its thread is " + seen.getState()
                        + " in:\n" + stack(seen)));
            }
            if (samples < 3) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        return seen;
    }

    /** @return whether the thread's innermost frame is a native I/O method of the JDK (read, poll, select) */
    static boolean inBlockingIo(Thread t) {
        StackTraceElement[] frames = t.getStackTrace();
        if (frames.length == 0 || !frames[0].isNativeMethod()) {
            return false;
        }
        String type = frames[0].getClassName();
        return type.startsWith("sun.nio.ch.") || type.startsWith("java.io.") || type.startsWith("java.net.");
    }

    /**
     * @param t a thread
     * @return its stack, one frame a line
     */
    public static String stack(Thread t) {
        return Arrays.stream(t.getStackTrace()).map(f -> "    at " + f).collect(Collectors.joining("\n"));
    }
}
