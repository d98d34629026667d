package org.lockspi.tck.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** POSIX signals to a child process, by the {@code kill} command (Linux, macOS). */
final class Signals {
    private Signals() {
    }

    /**
     * Stops a process with {@code SIGSTOP} and returns once it is stopped: {@code kill} returns once the signal is
     * sent, not once every thread has stopped, so where Linux shows the process state ({@code /proc/<pid>/stat})
     * this waits until it reads stopped ({@code T}), which no event announces; elsewhere it returns at once.
     *
     * @param process the process
     * @throws IllegalStateException if the signal cannot be sent, the process is not stopped within 5 s, or the
     *                               thread is interrupted
     */
    static void pause(Process process) {
        send(process, "-STOP");
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (Files.isReadable(stat)) {
            try {
                String line = Files.readString(stat);
                // the state follows the command name in parentheses, which may itself hold spaces
                char state = line.charAt(line.lastIndexOf(')') + 2);
                if (state == 'T' || state == 't') {
                    return;
                }
            } catch (IOException | StringIndexOutOfBoundsException gone) {
                return; // exited meanwhile, or no state to read
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("process " + process.pid() + " not stopped 5 s after SIGSTOP");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for process " + process.pid()
                        + " to stop", e);
            }
        }
    }

    /**
     * @param process the process
     * @param signal  the signal as {@code kill} takes it, e.g. {@code -CONT}
     * @throws IllegalStateException if the signal cannot be sent, or the thread is interrupted
     */
    static void send(Process process, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill " + signal + " " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signal + " to process "
                    + process.pid(), e);
        }
    }
}
