package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;

/**
 * Child JVM of the virtual-thread scenario, on a Java runtime with virtual threads (21 or newer; this class is
 * compiled for 17 and finds {@code Thread.ofVirtual()} by reflection):
 * {@code <waiters> <rounds> <warm-up waiters> <cap seconds> (<provider> <uri> <lock name>)...}.
 *
 * <p>Opens one service per provider and, per round and provider (the order rotating every round), lets one
 * holder take the non-reentrant mutex (the lock made for virtual threads: its waiters in one service queue
 * locally, one entry on the server; a thread-owned mutex gives each waiting thread its own entry, and 10,000 of
 * them listing each other ran the ZooKeeper server out of heap), starts the waiters as virtual threads on the
 * same lock object, waits until they are parked, and releases: the queue drains. Talks with the parent in lines, so that it can read the server's
 * request counters around each drain: it prints {@code READY <provider> <round>} and waits for a line, runs the
 * drain, prints {@code HANDOFFS <provider> <round> <nanos,...>} and {@code RESULT <provider> <round>
 * finished=.. acquired=.. queued=.. nanos=.. failures=..} (or {@code ERROR <provider> <round> <message>}) and
 * waits for a line again. {@code FAILED <provider> <message>} when a service cannot be opened, {@code END} at the
 * end. Its standard input closing (the parent going) ends it at once.
 */
public final class VirtualWaitersProcess {
    private static BufferedReader parent;

    private VirtualWaitersProcess() {
    }

    public static void main(String[] args) throws Exception {
        parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int waiters = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        long capSeconds = Long.parseLong(args[3]);
        ThreadFactory virtual = virtualThreads();
        if (virtual == null) {
            System.out.println("END no virtual threads in Java " + Runtime.version());
            return;
        }
        Map<String, LockService> services = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (int i = 4; i + 2 < args.length; i += 3) {
            String provider = args[i];
            try {
                LockService service = Locks.open(args[i + 1], provider);
                // warm-up, not reported: loads the classes a drain needs (a virtual thread that meets a class
                // being loaded pins its carrier) and gets the JIT going
                Drained d = drain(virtual, service.nonReentrantMutex(args[i + 2]), warmup, capSeconds);
                if (!d.finished || d.failures > 0) {
                    service.close();
                    System.out.println("FAILED " + provider + " the warm-up drain of " + warmup + " waiters "
                            + (d.finished ? "had " + d.failures + " failure(s): " + d.failure
                            : "did not end within " + capSeconds + " s"));
                    continue;
                }
                services.put(provider, service);
                names.put(provider, args[i + 2]);
            } catch (RuntimeException | InterruptedException e) {
                System.out.println("FAILED " + provider + " " + Scenario.describe(e));
            }
        }
        List<String> order = new ArrayList<>(services.keySet());
        for (int round = 0; round < rounds; round++) {
            for (String provider : Scenario.rotate(order, round)) {
                LockService service = services.get(provider);
                if (service.isClosed()) {
                    continue; // cut short before: its waiters were ended by closing it
                }
                System.out.println("READY " + provider + " " + round);
                System.out.flush();
                awaitParent();
                try {
                    Drained d = drain(virtual, service.nonReentrantMutex(names.get(provider)), waiters, capSeconds);
                    StringBuilder line = new StringBuilder("HANDOFFS ").append(provider).append(' ').append(round)
                            .append(' ');
                    for (int i = 0; i < d.handoffs.length; i++) {
                        line.append(i == 0 ? "" : ",").append(d.handoffs[i]);
                    }
                    System.out.println(line);
                    System.out.println("RESULT " + provider + " " + round + " finished=" + d.finished + " acquired="
                            + d.handoffs.length + " queued=" + d.queued + " nanos=" + d.nanos + " failures="
                            + d.failures + (d.failure == null ? "" : " first=" + d.failure));
                    if (!d.finished) {
                        service.close(); // ends the waiters still queued
                    }
                } catch (RuntimeException | InterruptedException e) {
                    System.out.println("ERROR " + provider + " " + round + " " + Scenario.describe(e));
                }
                System.out.flush();
                awaitParent();
            }
        }
        System.out.println("END");
        System.out.flush();
        services.values().forEach(LockService::close);
        System.exit(0);
    }

    /** Waits for the parent's next line; halts if it is gone. */
    private static void awaitParent() throws IOException {
        if (parent.readLine() == null) {
            Runtime.getRuntime().halt(0);
        }
    }

    /** One drain: the hand-offs in the order they happened, how many waiters were parked before the release. */
    private static final class Drained {
        long[] handoffs;
        int queued;
        long nanos;
        boolean finished;
        int failures;
        String failure;
    }

    private static Drained drain(ThreadFactory virtual, Acquirable lock, int waiters, long capSeconds)
            throws InterruptedException {
        Lease first = lock.acquire();
        long[] handoffs = new long[waiters];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicLong stamp = new AtomicLong();
        CountDownLatch done = new CountDownLatch(waiters);
        List<Thread> threads = new ArrayList<>(waiters);
        for (int i = 0; i < waiters; i++) {
            Thread t = virtual.newThread(() -> {
                try {
                    Lease lease = lock.acquire();
                    long now = System.nanoTime();
                    handoffs[next.getAndIncrement()] = now - stamp.get();
                    stamp.set(System.nanoTime());
                    lease.release();
                } catch (RuntimeException | InterruptedException e) {
                    failures.incrementAndGet();
                    failure.compareAndSet(null, Scenario.describe(e)); // reported by the main thread
                } finally {
                    done.countDown();
                }
            });
            threads.add(t);
            t.start();
        }
        Drained d = new Drained();
        try {
            // no event tells that a waiter has queued: parked (WAITING) is the sign, with a bound
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.min(60, capSeconds));
            while (true) {
                int parked = 0;
                for (Thread t : threads) {
                    Thread.State s = t.getState();
                    parked += s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING ? 1 : 0;
                }
                d.queued = parked;
                if (parked == waiters || System.nanoTime() > settle) {
                    break;
                }
                Thread.sleep(5);
            }
        } finally {
            long start = System.nanoTime();
            stamp.set(start);
            first.release();
            d.finished = done.await(capSeconds, TimeUnit.SECONDS);
            d.nanos = System.nanoTime() - start;
        }
        int n = Math.min(next.get(), waiters);
        d.handoffs = java.util.Arrays.copyOf(handoffs, n);
        d.failures = failures.get();
        d.failure = failure.get();
        return d;
    }

    /** {@code Thread.ofVirtual().name("bench-vt-", 0).factory()}, found at run time; null before Java 21. */
    private static ThreadFactory virtualThreads() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> type = Class.forName("java.lang.Thread$Builder");
            builder = type.getMethod("name", String.class, long.class).invoke(builder, "bench-vt-", 0L);
            return (ThreadFactory) type.getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
