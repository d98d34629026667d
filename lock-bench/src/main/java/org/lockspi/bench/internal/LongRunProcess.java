package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;

/**
 * Child JVM of the long run, one per provider: {@code <provider> <backend> <base uri> <scope>}. Opens
 * {@value LongRunCurve#CLIENTS} services of the provider, each with {@value LongRunCurve#THREADS} threads taking
 * {@value LongRunCurve#LOCKS} shared locks in turn, prints {@code READY}, then answers the parent line by line:
 * <ul>
 *   <li>{@code SAMPLE}: lets the acquisitions under way finish and holds new ones back, collects the heap fully, and
 *       prints {@code SAMPLE <acquisitions> <heap after GC> <threads> <sockets>} (or {@code FAILED <why>} once a
 *       worker failed); the workers stay held until {@code RESUME}, so the parent reads the server's state for this
 *       provider with nothing of it in flight;</li>
 *   <li>{@code RESUME}: lets the workers go on;</li>
 *   <li>{@code STOP}: stops the workers, closes the services, prints {@code DONE}.</li>
 * </ul>
 * It halts when its standard input closes, so a parent that dies leaves nothing behind.
 */
public final class LongRunProcess {
    private LongRunProcess() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ProviderVariant variant = new ProviderVariant(args[0], Variant.Backend.valueOf(args[1]), args[2]);
        String scope = args[3];
        // fair: a waiting sampler holds back new acquisitions, so it gets in once those under way are done
        ReentrantReadWriteLock gate = new ReentrantReadWriteLock(true);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acquisitions = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Variant.Client> clients = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < LongRunCurve.CLIENTS; c++) {
            Variant.Client client = variant.open(scope);
            clients.add(client);
            List<Variant.Locker> lockers = new ArrayList<>();
            for (int i = 0; i < LongRunCurve.LOCKS; i++) {
                lockers.add(client.locker("long-" + i));
            }
            for (int t = 0; t < LongRunCurve.THREADS; t++) {
                int offset = c * LongRunCurve.THREADS + t;
                Thread worker = new Thread(() -> work(lockers, offset, gate, stop, acquisitions, failure),
                        "bench-long-" + offset);
                worker.setDaemon(true);
                workers.add(worker);
            }
        }
        workers.forEach(Thread::start);
        out.println("READY");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            switch (line.trim()) {
                case "SAMPLE":
                    gate.writeLock().lock();
                    out.println(failure.get() != null ? "FAILED " + Scenario.describe(failure.get())
                            : "SAMPLE " + acquisitions.get() + " " + CurveScenario.heapAfterGc() + " "
                                    + CurveScenario.threads() + " " + sockets());
                    break;
                case "RESUME":
                    if (gate.isWriteLockedByCurrentThread()) {
                        gate.writeLock().unlock();
                    }
                    break;
                case "STOP":
                    stop.set(true);
                    if (gate.isWriteLockedByCurrentThread()) {
                        gate.writeLock().unlock();
                    }
                    for (Thread w : workers) {
                        w.join(10_000);
                    }
                    workers.forEach(Thread::interrupt);
                    clients.forEach(Variant.Client::close);
                    out.println("DONE");
                    break;
                default:
                    out.println("FAILED unknown command: " + line);
            }
        }
        Runtime.getRuntime().halt(0);
    }

    private static void work(List<Variant.Locker> lockers, int offset, ReentrantReadWriteLock gate,
                             AtomicBoolean stop, AtomicLong acquisitions, AtomicReference<Throwable> failure) {
        int i = offset;
        try {
            while (!stop.get()) {
                gate.readLock().lock();
                try {
                    lockers.get(i++ % lockers.size()).lock().release();
                } finally {
                    gate.readLock().unlock();
                }
                acquisitions.incrementAndGet();
            }
        } catch (InterruptedException e) {
            if (!stop.get()) {
                failure.compareAndSet(null, e);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    /** @return this JVM's open sockets (its connections, server and client side), -1 where /proc is missing */
    static long sockets() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        long count = 0;
        try (Stream<Path> list = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        count++;
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor of the listing itself, or one closed since
                }
            }
        }
        return count;
    }
}
