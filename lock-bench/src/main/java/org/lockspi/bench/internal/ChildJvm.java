package org.lockspi.bench.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a class of this module in a child JVM with this JVM's class path. The child ends itself when its
 * standard input closes, so a parent that dies without running its hooks leaves nothing behind.
 */
final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * @param mainClass  the class to run; it must call {@link #exitWhenParentGoes()} first
     * @param jvmOptions options before the class name
     * @param args       its arguments
     * @param log        where its output goes, or null to read it through {@link Process#getInputStream()}
     * @return the started process
     */
    static Process start(Class<?> mainClass, List<String> jvmOptions, List<String> args, Path log) throws IOException {
        return start(Path.of(System.getProperty("java.home"), "bin", "java"), mainClass, jvmOptions, args, log);
    }

    /**
     * As {@link #start(Class, List, List, Path)}, on another installed Java runtime (this module's classes are
     * compiled for 17 and run on any newer one).
     *
     * @param java the {@code java} executable
     */
    static Process start(Path java, Class<?> mainClass, List<String> jvmOptions, List<String> args, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (log != null) {
            builder.redirectOutput(log.toFile());
        }
        return builder.start();
    }

    /** Kills a child and waits for it to be gone. */
    static void kill(Process process) {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** In the child: halts the JVM once the parent closes our standard input (or dies). */
    static void exitWhenParentGoes() {
        Thread watcher = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // ignore anything the parent writes
                }
            } catch (IOException ignored) {
                // a broken pipe is the parent going away too
            }
            Runtime.getRuntime().halt(0);
        }, "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }
}
