package org.lockspi.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the two application instances did during a soak, for the checks afterwards: every call of the load threads
 * with its times and outcome, every locked section (the body of a {@code @Locked} method or of a scheduled run) with
 * when it began and ended, every scheduled run with the period it was fired for, and how often each instance's
 * scheduler fired. One journal is shared by both instances (they run in one JVM, so their {@code System.nanoTime()}
 * readings compare); written by many threads.
 */
final class Journal {

    /** How a call of a {@code @Locked} method ended, as its caller saw it. */
    enum Outcome {
        /** It returned. */
        OK,
        /** {@code LockTimeoutException}: the lock was held for the whole wait. */
        TIMED_OUT,
        /** {@code LockConnectionException}: the lock server failed (acquisition cut by failFast, or release). */
        CONNECTION,
        /** {@code LeaseLostException}: the lease was lost, the method stopped (or lost when granted). */
        LOST,
        /** Anything else: a defect. */
        OTHER,
        /** Interrupted by the end of the soak. */
        STOPPED
    }

    /** One call of a {@code @Locked} method by a load thread; the method's body marks its entry and exit. */
    static final class Call {
        final String instance;
        final String method;
        final Thread thread = Thread.currentThread();
        final long start = System.nanoTime();
        volatile long enter;
        volatile long exit;
        volatile long end;
        volatile Outcome outcome;
        volatile Throwable failure;
        /** Where the call was blocked once it had blocked longer than the soak's bound, or null. */
        volatile String stuckAt;

        Call(String instance, String method) {
            this.instance = instance;
            this.method = method;
        }

        /** The body began, holding the lock. */
        void entered() {
            enter = System.nanoTime();
        }

        /** The body ended. @return the time */
        long exited() {
            exit = System.nanoTime();
            return exit;
        }

        /** @return whether the body ran */
        boolean ran() {
            return enter != 0;
        }

        /**
         * @return how long the call spent outside its body (waiting for and releasing the lock, or failing), in
         *         nanoseconds: the time lockspi and the starter blocked it
         */
        long blockedNanos() {
            return (end - start) - (ran() && exit != 0 ? exit - enter : 0);
        }
    }

    /** A locked section: the body of a {@code @Locked} method or of a scheduled run, holding {@code lock}. */
    record Section(String lock, String instance, long enter, long exit) {
    }

    /**
     * One scheduled run: the instance, the period it was fired for, how late it began in that period, and when
     * ({@code System.nanoTime()}).
     */
    record Run(String instance, long period, long lagMillis, long start) {
    }

    private final Queue<Call> calls = new ConcurrentLinkedQueue<>();
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private final Queue<Section> sections = new ConcurrentLinkedQueue<>();
    private final Queue<Run> runs = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> fired = new ConcurrentHashMap<>();

    /** @return a call of {@code method} by a load thread of {@code instance}, beginning now */
    Call begin(String instance, String method) {
        Call call = new Call(instance, method);
        inFlight.add(call);
        return call;
    }

    /** The call ended with {@code outcome} ({@code failure}: what it threw, or null). */
    void end(Call call, Outcome outcome, Throwable failure) {
        call.end = System.nanoTime();
        call.outcome = outcome;
        call.failure = failure;
        calls.add(call);
        inFlight.remove(call);
    }

    void section(String lock, String instance, long enter, long exit) {
        sections.add(new Section(lock, instance, enter, exit));
    }

    void run(String instance, long period, long lagMillis) {
        runs.add(new Run(instance, period, lagMillis, System.nanoTime()));
    }

    /** The instance's scheduler fired the job (before its lock was tried). */
    void fired(String instance) {
        fired.computeIfAbsent(instance, i -> new AtomicLong()).incrementAndGet();
    }

    /** @return how often the instance's scheduler fired the job so far */
    long firedCount(String instance) {
        AtomicLong count = fired.get(instance);
        return count == null ? 0 : count.get();
    }

    List<Call> calls() {
        return new ArrayList<>(calls);
    }

    List<Section> sections() {
        return new ArrayList<>(sections);
    }

    List<Run> runs() {
        return new ArrayList<>(runs);
    }

    /**
     * @param instance an instance
     * @param method   a method of the load threads
     * @param since    a {@code System.nanoTime()} reading
     * @return when the first call of {@code method} by {@code instance} that entered its body after {@code since}
     *         and returned entered it, or 0 if none has yet
     */
    long firstSuccessSince(String instance, String method, long since) {
        long first = 0;
        for (Call call : calls) {
            if (call.instance.equals(instance) && call.method.equals(method) && call.outcome == Outcome.OK
                    && call.enter - since > 0 && (first == 0 || call.enter - first < 0)) {
                first = call.enter;
            }
        }
        return first;
    }

    /**
     * Notes where each call under way is blocked once it has blocked (outside its body) longer than
     * {@code boundNanos}: its thread's stack, for the report of a call that blocked too long.
     */
    void noteStuck(long boundNanos) {
        long now = System.nanoTime();
        for (Call call : inFlight) {
            long enter = call.enter;
            long exit = call.exit;
            if (enter != 0 && exit == 0) {
                continue; // in its body: not blocked
            }
            long blocked = enter == 0 ? now - call.start : (enter - call.start) + (now - exit);
            if (call.stuckAt == null && blocked > boundNanos) {
                StringBuilder stack = new StringBuilder();
                for (StackTraceElement e : call.thread.getStackTrace()) {
                    stack.append("\n\tat ").append(e);
                }
                call.stuckAt = stack.toString();
            }
        }
    }

    /** @return whether a call of {@code method} is inside its body now */
    boolean inside(String method) {
        for (Call call : inFlight) {
            if (call.method.equals(method) && call.ran() && call.exit == 0) {
                return true;
            }
        }
        return false;
    }
}
