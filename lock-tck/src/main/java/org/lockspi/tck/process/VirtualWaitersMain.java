package org.lockspi.tck.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntBinaryOperator;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.support.ChildJvm;

/**
 * Many virtual threads wait for one non-reentrant mutex, on a Java runtime with virtual threads (21 or newer), under
 * a JFR recording of {@code jdk.VirtualThreadPinned} with threshold 0: every waiter acquires once (half of them with
 * {@code acquire(timeout)} in their own virtual thread, half with {@code acquireAsync(timeout).get()}), checks that
 * it is alone, and releases. One acquisition of each form per service runs first, before the recording, so that
 * class loading (during which the JDK pins a virtual thread) is done.
 *
 * <p>{@code VirtualWaitersMain <uri> <provider> <waiters> <services> <lock name>} prints
 * {@code RESULT waiters=.. acquiredOnce=.. overlaps=.. failures=.. maxWaiting=.. millis=..}, then
 * {@code PINNED ours=.. total=.. loading=.. at={frame=count, ...}} ({@code ours}: events whose stack has a frame
 * of {@code org.lockspi}, except those pinned while the JDK loads or initialises a class, {@code loading}, a one-time
 * cost that is not a wait, judged by the JDK's own reason where it gives one (Java 24 and newer); {@code at}: the innermost frame of each pinned stack and the first of ours), and {@code FAILURE ...} lines for the
 * first failures.
 */
public final class VirtualWaitersMain {
    /**
     * Made with the class, before the recording: a method reference made at its first use in a waiter would load
     * a class there, and a virtual thread that meets another loading it pins (a one-time JDK cost, not a wait).
     */
    private static final IntBinaryOperator MAX = Math::max;

    private VirtualWaitersMain() {
    }

    /**
     * Runs this main in a child JVM on the newest Java runtime with virtual threads (21 or newer; skipped, with
     * the reason, when none is installed) and asserts its result: every waiter acquired exactly once, never two
     * inside, no failure, and no {@code jdk.VirtualThreadPinned} event with a frame of {@code org.lockspi}.
     *
     * @param uri      the server's URI with the client parameters
     * @param provider the provider's name
     * @param waiters  how many virtual threads wait
     * @param services over how many services they are spread
     * @throws AssertionError if any of that does not hold
     */
    public static void assertInChild(String uri, String provider, int waiters, int services) {
        Optional<Path> java = ChildJvm.newestJava(21);
        Assumptions.assumeTrue(java.isPresent(), "no Java 21 or newer under /usr/lib/jvm or lockspi.tck.jvmRoot:"
                + " virtual threads need one");
        try (ChildJvm child = ChildJvm.start(java.get(), List.of("-Xmx1g", "-XX:TieredStopAtLevel=4"),
                VirtualWaitersMain.class, uri, provider, String.valueOf(waiters), String.valueOf(services),
                "vt/one-lock-" + services)) {
            String result = child.awaitLine(Duration.ofSeconds(300), "RESULT ", "ERROR ");
            String pinned = child.awaitLine(Duration.ofSeconds(60), "PINNED ");
            child.awaitExit(Duration.ofSeconds(30));
            System.out.println("[virtual threads] " + provider + ", java " + java.get() + ", " + services
                    + " service(s): " + result + "; " + pinned);
            Assertions.assertEquals("RESULT waiters=" + waiters + " services=" + services + " finished=true"
                    + " acquiredOnce=" + waiters + " overlaps=0 failures=0",
                    result.substring(0, Math.max(0, result.indexOf(" maxWaiting="))), result);
            Assertions.assertEquals("PINNED ours=0", pinned.substring(0, Math.max(0, pinned.indexOf(" total="))),
                    pinned);
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String uri = args[0];
        String provider = args[1];
        int waiters = Integer.parseInt(args[2]);
        int serviceCount = Integer.parseInt(args[3]);
        String name = args[4];
        ThreadFactory virtual = virtualThreads();
        if (virtual == null) {
            System.out.println("ERROR no virtual threads in Java " + Runtime.version());
            System.exit(2);
        }
        Path jfr = Files.createTempFile("lockspi-pinned-", ".jfr");
        int[] acquired = new int[waiters];
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger waitingNow = new AtomicInteger();
        AtomicInteger maxWaiting = new AtomicInteger();
        Queue<Exception> failures = new ConcurrentLinkedQueue<>();
        long millis;
        boolean finished;
        List<LockService> services = new ArrayList<>();
        for (int i = 0; i < serviceCount; i++) {
            services.add(Locks.open(uri, provider));
        }
        warmUp(virtual, services, name);
        try (Recording recording = new Recording()) {
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
            CountDownLatch done = new CountDownLatch(waiters);
            long start = System.nanoTime();
            for (int i = 0; i < waiters; i++) {
                int me = i;
                AsyncAcquirable lock = services.get(i % serviceCount).nonReentrantMutex(name);
                virtual.newThread(() -> {
                    try {
                        maxWaiting.accumulateAndGet(waitingNow.incrementAndGet(), MAX);
                        Lease lease = me % 2 == 0 ? lock.acquire(Duration.ofMinutes(5))
                                : lock.acquireAsync(Duration.ofMinutes(5)).get();
                        waitingNow.decrementAndGet();
                        try {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            acquired[me]++;
                            Thread.yield();
                            inside.decrementAndGet();
                        } finally {
                            lease.release();
                        }
                    } catch (RuntimeException | InterruptedException | ExecutionException e) {
                        failures.add(e); // handed to the main thread
                    } finally {
                        done.countDown();
                    }
                }).start();
            }
            finished = done.await(10, TimeUnit.MINUTES);
            millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            for (LockService service : services) {
                service.close();
            }
            recording.stop();
            recording.dump(jfr);
        }
        int once = 0;
        for (int n : acquired) {
            once += n == 1 ? 1 : 0;
        }
        System.out.println("RESULT waiters=" + waiters + " services=" + serviceCount + " finished=" + finished
                + " acquiredOnce=" + once + " overlaps=" + overlaps.get() + " failures=" + failures.size()
                + " maxWaiting=" + maxWaiting.get() + " millis=" + millis + " java=" + Runtime.version());
        int total = 0;
        int ours = 0;
        int loads = 0;
        Map<String, Integer> at = new TreeMap<>();
        Map<String, Integer> reasons = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
            if (!event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
                continue;
            }
            total++;
            List<RecordedFrame> frames = event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames();
            boolean mine = frames.stream().anyMatch(f -> f.getMethod().getType().getName().startsWith("org.lockspi."));
            // the JDK pins a virtual thread while it loads or initialises a class: once per class, not a wait of
            // ours; Java 24 and newer say why a thread pinned, older ones are judged by the stack
            String reason = event.hasField("pinnedReason") ? event.getString("pinnedReason") : null;
            boolean loading = byClassLoading(frames, reason);
            if (reason != null) {
                reasons.merge(reason, 1, Integer::sum);
            }
            ours += mine && !loading ? 1 : 0;
            loads += loading ? 1 : 0;
            String top = frames.isEmpty() ? "(no stack)" : frame(frames.get(0));
            String ourFrame = frames.stream().filter(f -> f.getMethod().getType().getName().startsWith("org.lockspi."))
                    .findFirst().map(VirtualWaitersMain::frame).orElse(null);
            at.merge(top + (ourFrame != null ? " <- " + ourFrame : ""), 1, Integer::sum);
        }
        Files.deleteIfExists(jfr);
        System.out.println("PINNED ours=" + ours + " total=" + total + " loading=" + loads + " at=" + at
                + (reasons.isEmpty() ? "" : " reasons=" + reasons));
        failures.stream().limit(5).forEach(e -> System.out.println("FAILURE " + e));
        System.out.flush();
    }

    /**
     * Whether a pin is the JDK's own while it loads or initialises a class: the JDK's reason names a native or VM
     * frame (a class initialiser runs under one; Java 24 and newer pin for nothing else of ours, monitors no longer
     * pinning), or, on older Java, the innermost frame is a class loader loading a class or a frame of the stack is
     * a class initialiser ({@code <clinit>}).
     *
     * @param frames the pinned stack, innermost first
     * @param reason the JDK's reason ({@code pinnedReason}, Java 24 and newer), or null
     * @return whether it is a one-time pin of class loading, not a wait
     */
    static boolean byClassLoading(List<RecordedFrame> frames, String reason) {
        if (reason != null) {
            String text = reason.toLowerCase(java.util.Locale.ROOT);
            return text.contains("native") || text.contains("vm call") || text.contains("vm frame")
                    || text.contains("clinit"); // Java 25: "VM call to X.<clinit> on stack"
        }
        if (frames.isEmpty()) {
            return false;
        }
        String type = frames.get(0).getMethod().getType().getName();
        boolean loader = (type.equals("java.lang.ClassLoader") || type.startsWith("jdk.internal.loader."))
                && frames.get(0).getMethod().getName().startsWith("loadClass");
        return loader || frames.stream().anyMatch(f -> f.getMethod().getName().equals("<clinit>"));
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber();
    }

    /**
     * One acquisition of each form per service in a virtual thread, before the recording: the classes they load
     * are loaded (the JDK pins a virtual thread while it loads a class, a one-time cost that is not a wait).
     */
    private static void warmUp(ThreadFactory virtual, List<LockService> services, String name)
            throws InterruptedException {
        for (LockService service : services) {
            AsyncAcquirable lock = service.nonReentrantMutex(name);
            Lease first = lock.acquire(Duration.ofMinutes(1));
            Thread queued = virtual.newThread(() -> { // waits in the service's local queue, then asks the server
                try {
                    lock.acquire(Duration.ofMinutes(1)).release();
                    lock.acquireAsync(Duration.ofMinutes(1)).get().release();
                    lock.tryAcquireAsync(Duration.ZERO).get().ifPresent(Lease::release);
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException("warm-up failed", e);
                }
            });
            queued.start();
            while (queued.getState() != Thread.State.WAITING && queued.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait(); // no event tells that it queued
            }
            first.release();
            queued.join();
        }
    }

    /** {@code Thread.ofVirtual().name("waiter-", 0).factory()}, found at run time; null before Java 21. */
    private static ThreadFactory virtualThreads() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> type = Class.forName("java.lang.Thread$Builder");
            builder = type.getMethod("name", String.class, long.class).invoke(builder, "waiter-", 0L);
            return (ThreadFactory) type.getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
