package org.lockspi.tck.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.lockspi.tck.internal.Failures;

/**
 * A second JVM running a {@code main} class with this JVM's class path, talking over lines: it writes lines to
 * its standard output, reads commands from its standard input; its standard error goes to a file that failure
 * messages quote. {@link #kill()} ends it with {@link Process#destroyForcibly()}, which is {@code SIGKILL} on
 * Linux and macOS: the child gets no chance to clean up, as in a crash.
 *
 * <p>Always close it (try-with-resources): {@link #close()} kills the process if it still runs and deletes the
 * error file. A child also ends by itself when this JVM dies, because its standard input closes.
 *
 * <p>Not thread-safe; one test thread drives it.
 */
public final class ChildJvm implements AutoCloseable {
    private static final String EOF = "\u0000EOF";
    private static final int ERROR_TAIL = 4_000;

    private final String name;
    private final Process process;
    private final Path stderr;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private boolean closed;

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::pump, "lockspi-child-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code java -cp <this JVM's class path> <main> <args>} with the {@code java} of this JVM.
     *
     * @param main the class whose {@code main} runs
     * @param args its arguments
     * @return the running child
     * @throws UncheckedIOException if the process cannot be started
     */
    public static ChildJvm start(Class<?> main, String... args) {
        return start(Path.of(System.getProperty("java.home"), "bin", "java"), List.of(), main, args);
    }

    /**
     * Starts {@code <java> <options> -cp <this JVM's class path> <main> <args>}: another Java runtime (such as
     * one found by {@link #newestJava(int)}), with options after the defaults (so {@code -Xmx1g} overrides them).
     *
     * @param java    the {@code java} executable
     * @param options JVM options, e.g. {@code -XX:StartFlightRecording...}
     * @param main    the class whose {@code main} runs; compiled for this JVM's release or older
     * @param args    its arguments
     * @return the running child
     * @throws UncheckedIOException if the process cannot be started
     */
    public static ChildJvm start(Path java, List<String> options, Class<?> main, String... args) {
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(main, "main");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        // a short-lived helper: start fast, stay small
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-Xmx128m");
        command.addAll(options);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        String name = main.getSimpleName() + (args.length > 0 ? "-" + args[0] : "");
        Path stderr = null;
        try {
            stderr = Files.createTempFile("lockspi-child-", ".err");
            Process process = new ProcessBuilder(command)
                    .redirectError(stderr.toFile())
                    .start();
            return new ChildJvm(name, process, stderr);
        } catch (IOException e) {
            UncheckedIOException failure = new UncheckedIOException("cannot start a child JVM: " + command, e);
            if (stderr != null) {
                try {
                    Files.deleteIfExists(stderr);
                } catch (IOException d) {
                    failure.addSuppressed(d);
                }
            }
            throw failure;
        }
    }

    /**
     * The {@code java} executable of the newest Java runtime installed beside this one: the directories under
     * {@code /usr/lib/jvm} (or under the system property {@code lockspi.tck.jvmRoot}) whose {@code release} file
     * names a {@code JAVA_VERSION}, and this JVM's own.
     *
     * @param minimumFeature the lowest feature release accepted, e.g. 21
     * @return the newest runtime's {@code java} of at least that release, or empty if none is installed
     */
    public static java.util.Optional<Path> newestJava(int minimumFeature) {
        List<Path> homes = new ArrayList<>();
        homes.add(Path.of(System.getProperty("java.home")));
        Path root = Path.of(System.getProperty("lockspi.tck.jvmRoot", "/usr/lib/jvm"));
        if (Files.isDirectory(root)) {
            try (java.util.stream.Stream<Path> dirs = Files.list(root)) {
                dirs.forEach(homes::add);
            } catch (IOException e) {
                // an unreadable directory holds no runtime we can use
            }
        }
        Path best = null;
        int bestFeature = minimumFeature - 1;
        for (Path home : homes) {
            Path java = home.resolve("bin").resolve("java");
            int feature = feature(home);
            if (feature > bestFeature && Files.isExecutable(java)) {
                best = java;
                bestFeature = feature;
            }
        }
        return java.util.Optional.ofNullable(best);
    }

    /** @return the feature release in {@code <home>/release} ({@code JAVA_VERSION="25.0.1"} gives 25), or -1 */
    private static int feature(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"), StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    int end = 0;
                    while (end < v.length() && Character.isDigit(v.charAt(end))) {
                        end++;
                    }
                    return end == 0 ? -1 : Integer.parseInt(v.substring(0, end));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process was killed; the end of the stream follows
        } finally {
            lines.add(EOF);
        }
    }

    /** @return the child's process id */
    public long pid() {
        return process.pid();
    }

    /** @return whether the process still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Sends one line to the child's standard input.
     *
     * @param line the command
     * @throws IllegalStateException if the child has ended or cannot be written to
     */
    public void send(String line) {
        try {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write '" + line + "' to " + this + stderrTail(), e);
        }
    }

    /**
     * Waits for the next line of the child's output that starts with one of {@code prefixes}, skipping the others.
     *
     * @param timeout  how long to wait
     * @param prefixes the line starts of interest, e.g. {@code "HELD "}
     * @return the line
     * @throws AssertionError        if the timeout elapses or the child's output ends first; the message quotes
     *                               the skipped lines and the tail of the child's standard error
     * @throws IllegalStateException if the thread is interrupted (its flag is set again)
     */
    public String awaitLine(Duration timeout, String... prefixes) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> skipped = new ArrayList<>();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    throw new AssertionError(this + " wrote no line starting with " + List.of(prefixes)
                            + " within " + timeout + "; other lines: " + skipped + stderrTail());
                }
                if (line.equals(EOF)) {
                    lines.add(EOF); // stays at the end for later calls
                    throw new AssertionError(this + " ended (exit " + exitValue() + ") before writing a line "
                            + "starting with " + List.of(prefixes) + "; other lines: " + skipped + stderrTail());
                }
                for (String prefix : prefixes) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
                skipped.add(line);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + this, e);
        }
    }

    /**
     * Kills the child with {@code SIGKILL} (no shutdown hooks, no clean-up) and waits until it is gone.
     *
     * @throws IllegalStateException if it is still alive 10 s later, or the thread is interrupted
     */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(this + " still alive 10 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + this, e);
        }
    }

    /**
     * Pauses the child with {@code SIGSTOP} (as a long stop-the-world pause or a suspended machine would): none
     * of its threads runs until {@link #resume()}. Needs a {@code kill} command (Linux, macOS).
     *
     * @throws IllegalStateException if the signal cannot be sent, or the thread is interrupted
     */
    public void pause() {
        Signals.pause(process);
    }

    /**
     * Resumes a child paused by {@link #pause()} with {@code SIGCONT}.
     *
     * @throws IllegalStateException if the signal cannot be sent, or the thread is interrupted
     */
    public void resume() {
        Signals.send(process, "-CONT");
    }

    /**
     * Waits for the child to end by itself.
     *
     * @param timeout how long to wait
     * @return its exit value
     * @throws AssertionError        if it still runs after {@code timeout}
     * @throws IllegalStateException if the thread is interrupted
     */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(this + " still runs after " + timeout + stderrTail());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + this, e);
        }
    }

    private String exitValue() {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return process.isAlive() ? "none yet" : String.valueOf(process.exitValue());
    }

    /** @return the end of the child's standard error, for failure messages */
    public String stderrTail() {
        try {
            String text = Files.readString(stderr, StandardCharsets.UTF_8);
            if (text.isBlank()) {
                return "";
            }
            if (text.length() > ERROR_TAIL) {
                text = "..." + text.substring(text.length() - ERROR_TAIL);
            }
            return "\n--- standard error of " + this + " ---\n" + text;
        } catch (IOException e) {
            return " (standard error unreadable: " + e + ")";
        }
    }

    /** Kills the child if it still runs and deletes its error file. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            if (process.isAlive()) {
                kill();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            stdin.close();
        } catch (IOException e) {
            // the pipe is gone with the process
        }
        try {
            Files.deleteIfExists(stderr);
        } catch (IOException e) {
            UncheckedIOException u = new UncheckedIOException("cannot delete " + stderr, e);
            failure = Failures.chain(failure, u);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "child JVM " + name + " (pid " + process.pid() + ")";
    }

    /** Child JVMs closed together, for try-with-resources; a failure to close one does not stop the others. */
    public static final class Group implements AutoCloseable {
        private final List<ChildJvm> members = new ArrayList<>();

        /**
         * Starts a child as {@link ChildJvm#start(Class, String...)} and adds it to the group.
         *
         * @param main the class whose {@code main} runs
         * @param args its arguments
         * @return the running child
         */
        public ChildJvm start(Class<?> main, String... args) {
            ChildJvm child = ChildJvm.start(main, args);
            members.add(child);
            return child;
        }

        /** @return the children, in the order started */
        public List<ChildJvm> members() {
            return List.copyOf(members);
        }

        /** Closes every child; the first failure is thrown with the others suppressed. Idempotent. */
        @Override
        public void close() {
            RuntimeException failure = null;
            for (ChildJvm child : members) {
                try {
                    child.close();
                } catch (RuntimeException e) {
                    failure = Failures.chain(failure, e);
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}
