package org.lockspi.tck.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A server that is not a JVM (a {@code redis-server}, a database, etc.), run as a child process for a
 * {@code TckBackend}: started with its command in a directory of its own, its output in a log file, and
 * {@link #start()} returns only once the server answers ({@link #readyWhen}). {@link #kill()} sends
 * {@code SIGKILL}, as in a crash; {@link #start()} starts it again with the same command; {@link #pause()} and
 * {@link #resume()} send {@code SIGSTOP} and {@code SIGCONT}.
 *
 * <pre>{@code
 * ServerProcess server = ServerProcess.command(List.of(binary.toString(), "--port", Integer.toString(port)))
 *         .directory(dir).readyWhen(ServerProcess.accepts("127.0.0.1", port));
 * server.start();
 * }</pre>
 *
 * <p>Not thread-safe: the backend that owns it serialises its calls. Always close it: {@link #close()} kills the
 * process if it runs.
 */
public final class ServerProcess implements AutoCloseable {
    private final List<String> command;
    private Path directory = Path.of(".");
    private Path log;
    private BooleanSupplier ready = () -> true;
    private Duration startTimeout = Duration.ofSeconds(30);
    private Process process;

    private ServerProcess(List<String> command) {
        this.command = List.copyOf(command);
    }

    /**
     * @param command the executable and its arguments
     * @return a server process, not started
     * @throws IllegalArgumentException if the command is empty
     */
    public static ServerProcess command(List<String> command) {
        if (Objects.requireNonNull(command, "command").isEmpty()) {
            throw new IllegalArgumentException("empty command");
        }
        return new ServerProcess(command);
    }

    /**
     * @param directory its working directory, created if missing; its output goes to {@code server.out} there
     *                  unless {@link #log(Path)} says otherwise
     * @return this
     */
    public ServerProcess directory(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    /**
     * @param log where its standard output and error go (appended)
     * @return this
     */
    public ServerProcess log(Path log) {
        this.log = Objects.requireNonNull(log, "log");
        return this;
    }

    /**
     * @param ready tells whether the server answers; asked every 20 ms after the start (a server has no start
     *              event a test could wait for)
     * @return this
     */
    public ServerProcess readyWhen(BooleanSupplier ready) {
        this.ready = Objects.requireNonNull(ready, "ready");
        return this;
    }

    /**
     * @param timeout how long {@link #start()} waits for the server to answer
     * @return this
     */
    public ServerProcess startTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("start timeout <= 0: " + timeout);
        }
        this.startTimeout = timeout;
        return this;
    }

    /**
     * @param host a host
     * @param port a port
     * @return a readiness check: a TCP connection to {@code host:port} is accepted
     */
    public static BooleanSupplier accepts(String host, int port) {
        return () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 500);
                return true;
            } catch (IOException e) {
                return false;
            }
        };
    }

    /**
     * Starts the process (again, after {@link #kill()}) and returns once it is ready; does nothing if it runs.
     *
     * @throws IllegalStateException if it exits or is not ready within the start timeout; the message ends with
     *                               the tail of its log
     * @throws UncheckedIOException  if it cannot be started
     */
    public void start() {
        if (isAlive()) {
            return;
        }
        Path out = log != null ? log : directory.resolve("server.out");
        try {
            Files.createDirectories(directory);
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                String tail = tail(out, 15);
                process.destroyForcibly();
                throw new IllegalStateException(command.get(0) + " did not start" + (process.isAlive() ? " within "
                        + startTimeout : ", exit " + exitValue()) + "; its output ends:\n" + tail);
            }
            try {
                Thread.sleep(20); // no start event to wait for: ask again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new IllegalStateException("interrupted while starting " + command.get(0), e);
            }
        }
    }

    private String exitValue() {
        try {
            return Integer.toString(process.exitValue());
        } catch (IllegalThreadStateException running) {
            return "(still running)";
        }
    }

    /** @return whether the process runs */
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * @return the process id
     * @throws IllegalStateException if it was never started
     */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("not started: " + command);
        }
        return process.pid();
    }

    /** Kills it with {@code SIGKILL} (no shutdown, no last write) and waits until it is gone; nothing if it does not run. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly(); // SIGKILL on Unix
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(command.get(0) + " (pid " + process.pid() + ") outlived SIGKILL for 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + command.get(0), e);
        }
    }

    /** Stops it with {@code SIGSTOP} until {@link #resume()}: it keeps its connections, and answers nothing. */
    public void pause() {
        Signals.pause(requireStarted());
    }

    /** Resumes it with {@code SIGCONT}. */
    public void resume() {
        Signals.send(requireStarted(), "-CONT");
    }

    private Process requireStarted() {
        if (process == null) {
            throw new IllegalStateException("not started: " + command);
        }
        return process;
    }

    /**
     * @param file  a log file
     * @param lines how many lines
     * @return its last lines, or a note that there is none
     */
    public static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Kills the process if it runs. Idempotent. */
    @Override
    public void close() {
        kill();
    }

    @Override
    public String toString() {
        return "ServerProcess" + new ArrayList<>(command);
    }
}
