package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Steady contention for a long while, every provider at once, each in a child JVM of its own
 * ({@link LongRunProcess}): {@value #CLIENTS} services with {@value #THREADS} threads each take {@value #LOCKS} locks
 * in turn for the settings' length. At even intervals each child in turn holds its workers back once the
 * acquisitions under way are done and reports its heap after a full collection, its threads and its open sockets;
 * while it waits, the parent counts that provider's nodes or keys on the server (under its own scope), so nothing in
 * flight blurs a sample. The providers run side by side so that each gets the whole length in one run's time; a
 * leak is a trend within a provider's own JVM and scope, which its neighbours' load does not make.
 * <p>
 * Flat means: the median of the last minute's samples within 5 % of the first minute's median, per gauge
 * ({@link CurveReport#longRunDrift}).
 */
final class LongRunCurve extends CurveScenario {
    static final int CLIENTS = 4;
    static final int THREADS = 2;
    static final int LOCKS = 8;
    /** The child's heap: room for the workers, small enough that a leak shows. */
    static final List<String> CHILD_JVM = List.of("-Xms64m", "-Xmx512m", "-Xss512k");
    private static final long ANSWER_SECONDS = 120;

    LongRunCurve(Scenario.Env env, CurveSettings curves, CurveResults out) {
        super(env, curves, out);
    }

    @Override
    void run() throws InterruptedException {
        phase("curve: long run, " + curves.longRun().toSeconds() + " s, every provider at once in its own JVM, "
                + curves.longRunSamples() + " samples");
        List<Child> children = new ArrayList<>();
        try {
            for (Variant v : anchorsAndProviders()) {
                if (v.role() == Variant.Role.PROVIDER) {
                    Child child = new Child((ProviderVariant) v);
                    children.add(child);
                    try {
                        child.start();
                    } catch (Exception e) {
                        child.fail(e);
                    }
                }
            }
            for (Child child : children) {
                if (child.error == null) {
                    try {
                        child.prime();
                    } catch (Exception e) {
                        child.fail(e);
                    }
                }
            }
            long interval = curves.longRun().toNanos() / curves.longRunSamples();
            long t0 = System.nanoTime();
            for (int s = 1; s <= curves.longRunSamples(); s++) {
                long due = t0 + s * interval;
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(due - System.nanoTime())));
                double seconds = (System.nanoTime() - t0) / 1e9;
                for (Child child : children) {
                    if (child.error == null) {
                        try {
                            child.sample(seconds);
                        } catch (Exception e) {
                            child.fail(e);
                        }
                    }
                }
            }
        } finally {
            for (Child child : children) {
                child.stop();
            }
        }
    }

    /** One provider's child JVM, its answers read on a thread of their own. */
    private final class Child {
        final ProviderVariant variant;
        final String scope;
        final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        final Deque<String> output = new ArrayDeque<>();
        Process process;
        PrintStream commands;
        String error;
        long last;
        long lastNanos;

        Child(ProviderVariant variant) {
            this.variant = variant;
            this.scope = "long-" + scope(variant);
        }

        void start() throws Exception {
            process = ChildJvm.start(LongRunProcess.class, CHILD_JVM, List.of(variant.name(),
                    variant.backend().name(), variant.baseUri(), scope), null);
            commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            Thread reader = new Thread(this::read, "bench-long-" + variant.name());
            reader.setDaemon(true);
            reader.start();
            answer("READY");
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.equals("READY") || line.equals("DONE") || line.startsWith("SAMPLE ")
                            || line.startsWith("FAILED ")) {
                        answers.add(line);
                    } else {
                        synchronized (output) {
                            output.addLast(line);
                            if (output.size() > 20) {
                                output.removeFirst();
                            }
                        }
                    }
                }
            } catch (IOException ignored) {
                // the child is gone; answer() says so
            }
        }

        /** @return the next answer, which must start with {@code expected} */
        private String answer(String expected) throws InterruptedException {
            String line = answers.poll(ANSWER_SECONDS, TimeUnit.SECONDS);
            if (line == null || !line.startsWith(expected)) {
                String said;
                synchronized (output) {
                    said = String.join(" / ", output);
                }
                throw new IllegalStateException((line == null ? "no " + expected + " within " + ANSWER_SECONDS + " s"
                        : line) + (said.isEmpty() ? "" : "; the child said: " + said));
            }
            return line;
        }

        /** Reads the acquisitions so far, so that the first sample's rate counts from the run's start only. */
        void prime() throws Exception {
            commands.println("SAMPLE");
            try {
                last = Long.parseLong(answer("SAMPLE ").split(" ")[1]);
                lastNanos = System.nanoTime();
            } finally {
                commands.println("RESUME");
            }
        }

        void sample(double seconds) throws Exception {
            commands.println("SAMPLE");
            String[] f = answer("SAMPLE ").split(" ");
            long now = System.nanoTime();
            try {
                CurveResults.Point p = point(CurveResults.Curve.LONG_RUN, variant, "", Math.round(seconds));
                long count = Long.parseLong(f[1]);
                p.metrics.put("rate", (count - last) / ((now - lastNanos) / 1e9));
                last = count;
                lastNanos = now;
                p.metrics.put("heap_after_gc_bytes", Double.parseDouble(f[2]));
                p.metrics.put("threads", Double.parseDouble(f[3]));
                p.metrics.put("client_sockets", Double.parseDouble(f[4]));
                // read while the child's workers are held: nothing of this provider is in flight
                p.metrics.put("server_entries", (double) scopedEntries(variant.backend(), scope));
                p.metrics.put("server_connections_all", (double) serverConnections(variant.backend()));
                log.printf("[bench]   %-20s t=%5.0f s  %7.0f acq/s  heap %6.1f MB  threads %3.0f  sockets %3.0f"
                                + "  entries %5.0f  (server connections, all providers: %3.0f)%n", variant.name(),
                        seconds, p.metric("rate"), p.metric("heap_after_gc_bytes") / 1e6, p.metric("threads"),
                        p.metric("client_sockets"), p.metric("server_entries"), p.metric("server_connections_all"));
            } finally {
                commands.println("RESUME");
            }
        }

        void fail(Exception e) {
            error = describe(e);
            CurveResults.Point p = point(CurveResults.Curve.LONG_RUN, variant, "", 0);
            p.error = error;
            log.printf("[bench]   %-20s failed: %s%n", variant.name(), error);
        }

        void stop() {
            if (process == null) {
                return;
            }
            try {
                if (process.isAlive() && error == null) {
                    commands.println("STOP");
                    answer("DONE");
                }
            } catch (Exception e) {
                log.printf("[bench]   %-20s did not stop cleanly: %s%n", variant.name(), describe(e));
            } finally {
                ChildJvm.kill(process);
            }
        }
    }
}
