package org.lockspi.tck.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Killing a server's processes with {@code SIGKILL}, as a crash of its machine would. */
final class Processes {
    private Processes() {
    }

    /**
     * Kills a process and every process it started, all with {@code SIGKILL}, and waits until they are gone.
     *
     * @param root the server's main process
     * @throws IllegalStateException if one is still alive 10 s later
     */
    static void killTree(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        root.descendants().forEach(all::add);
        for (ProcessHandle p : all) {
            p.destroyForcibly();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("process " + p.pid() + " outlived SIGKILL for 10 s");
            } catch (ExecutionException e) {
                throw new IllegalStateException("cannot wait for process " + p.pid(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while killing process " + p.pid(), e);
            }
        }
    }
}
