package org.lockspi.tck.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

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
     * Waits until the thread is parked (WAITING or TIMED_WAITING) on three samples in a row, which is how a
     * blocked acquisition looks from outside; there is no event for it. Fails if the thread ends first or does
     * not block within {@code max}.
     *
     * @param max how long to wait
     */
    public void awaitBlocked(Duration max) {
        long end = System.nanoTime() + max.toNanos();
        int parkedSamples = 0;
        while (parkedSamples < 3) {
            Thread.State state = thread.getState();
            if (state == Thread.State.TERMINATED) {
                fail("thread '" + thread.getName() + "' was expected to block but ended: "
                        + (failure != null ? "threw " + failure : "returned " + value));
            }
            parkedSamples = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING
                    ? parkedSamples + 1 : 0;
            if (System.nanoTime() - end > 0) {
                fail("thread '" + thread.getName() + "' did not block within " + max + "; it is " + state + " in:\n"
                        + stack(thread));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /**
     * @param t a thread
     * @return its stack, one frame a line
     */
    public static String stack(Thread t) {
        return Arrays.stream(t.getStackTrace()).map(f -> "    at " + f).collect(Collectors.joining("\n"));
    }
}
