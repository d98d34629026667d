package org.lockspi.redis;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The parent's handle on a {@link HolderProcess}: its output lines, its input, and signals. */
final class ChildHolder implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Writer input;

    private ChildHolder(Process process) {
        this.process = process;
        this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("READ-FAILED " + e);
            }
        }, "child-holder-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ChildHolder start(String uri, String lockName) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                HolderProcess.class.getName(), uri, lockName).redirectErrorStream(true);
        return new ChildHolder(builder.start());
    }

    /** @return the first line starting with {@code prefix}, without it; fails after {@code max} */
    String expect(String prefix, Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                fail("the child did not print '" + prefix + "' within " + max + "; it printed " + seen);
            }
            seen.add(line);
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).strip();
            }
        }
    }

    void send(String command) throws IOException {
        input.write(command + "\n");
        input.flush();
    }

    long pid() {
        return process.pid();
    }

    /** Sends a signal with the system's {@code kill}: STOP pauses the whole JVM, CONT resumes it. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            fail("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** SIGKILL: the JVM dies at once, running no shutdown hook and releasing nothing. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            fail("the child " + process.pid() + " did not die within 10 s of SIGKILL");
        }
    }

    /** Kills the child if it still runs (a stopped child dies of SIGKILL too). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
